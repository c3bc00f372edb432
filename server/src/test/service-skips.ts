import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import {
  REQUIRE_SERVICES_ENV, SERVICE_ENV, SERVICE_HOW, SERVICE_LABEL, SERVICES, serviceAvailable, servicesRequired, type Service, type ServiceSkip,
} from './service-catalog.js';

/*
 * Global setup of the server project. Gives the suites a file to record what they skip for want of a service
 * (services.ts) and prints that list when the run ends, with how to provide each service. When services are required
 * (SWITCHYARD_TEST_REQUIRE_SERVICES=1, as CI sets it) it first checks that each is configured and answers, and stops
 * the run with the missing ones named instead.
 */

const DEFAULT_PORTS: Partial<Record<Service, number>> = { postgres: 5432, mysql: 3306, redis: 6379 };

function answers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 3000 });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

async function problemOf(service: Service): Promise<string | null> {
  if (!serviceAvailable(service)) return `${SERVICE_LABEL[service]} is missing: ${SERVICE_HOW[service]}`;
  const env = SERVICE_ENV[service];
  if (!env) return null;
  const url = new URL(process.env[env]!);
  const port = Number(url.port) || DEFAULT_PORTS[service]!;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return (await answers(host, port)) ? null : `${SERVICE_LABEL[service]} at ${host}:${port} (${env}) does not answer`;
}

function readSkips(file: string): ServiceSkip[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const seen = new Set<string>();
  const skips: ServiceSkip[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    const skip = JSON.parse(line) as ServiceSkip;
    const key = `${skip.file}\n${skip.what}`;
    if (seen.has(key)) continue;
    seen.add(key);
    skips.push(skip);
  }
  return skips.sort((a, b) => a.file.localeCompare(b.file) || a.what.localeCompare(b.what));
}

/** The end-of-run list: per missing service, how to provide it and every suite or test left out for it. */
export function skipSummary(skips: ServiceSkip[]): string {
  const lines = ['', `!!! ${skips.length} suites, tests or variants were SKIPPED because a service is missing:`];
  const counts: string[] = [];
  for (const service of SERVICES) {
    const left = skips.filter((skip) => skip.missing.includes(service));
    if (left.length === 0) continue;
    counts.push(`${SERVICE_LABEL[service]} ${left.length}`);
    lines.push('', `  without ${SERVICE_LABEL[service]} (to run them: ${SERVICE_HOW[service]}):`);
    for (const skip of left) lines.push(`    ${skip.file}: ${skip.what}`);
  }
  lines.push(
    '',
    `!!! SKIPPED for want of services: ${skips.length} (${counts.join(', ')}); listed above. ${REQUIRE_SERVICES_ENV}=1 (set by .ci/run) makes a missing service a failure.`,
    '',
  );
  return lines.join('\n');
}

export default async function setup(project: TestProject): Promise<() => void> {
  if (servicesRequired()) {
    // One at a time: a check that blocks (redis-server --version) must not hold another one's connection past its
    // timeout, which then reads as a service that does not answer.
    const problems: string[] = [];
    for (const service of SERVICES) {
      const problem = await problemOf(service);
      if (problem) problems.push(problem);
    }
    if (problems.length > 0) throw new Error(`${REQUIRE_SERVICES_ENV}=1 and a service the suites need is not there:\n  ${problems.join('\n  ')}`);
  }
  const file = path.join(os.tmpdir(), `switchyard-service-skips-${process.pid}-${randomBytes(4).toString('hex')}.jsonl`);
  project.provide('serviceSkipsFile', file);
  return () => {
    const skips = readSkips(file);
    rmSync(file, { force: true });
    if (skips.length > 0) console.warn(skipSummary(skips));
  };
}
