import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { sharedRedisUrl } from './shared-redis.js';
import { REQUIRE_SERVICES_ENV, SERVICE_HOW, SERVICE_LABEL, serviceAvailable, servicesRequired, type Service, type ServiceSkip } from './service-catalog.js';

/*
 * The one way a suite says it needs PostgreSQL, MySQL or Redis. What cannot run for want of one is not dropped
 * quietly: it is recorded, and the run ends with a list of it and how to provide each service (service-skips.ts).
 * Under SWITCHYARD_TEST_REQUIRE_SERVICES=1 (CI) a missing service fails the suite instead.
 */

export type { Service };

declare module 'vitest' {
  interface ProvidedContext {
    /** The file suites append their skips to, one JSON line each; service-skips.ts provides it and reads it back. */
    serviceSkipsFile: string;
  }
}

const recorded = new Set<string>();

function testFile(): string {
  const file = expect.getState().testPath;
  return file ? path.relative(process.cwd(), file) : 'a test file';
}

/**
 * Whether every one of `services` is there. When one is not, `what` (the suite, test or variant left out) is
 * recorded for the end-of-run list and false is returned; when services are required, it throws.
 */
export function needs(services: Service[], what: string): boolean {
  const missing = services.filter((service) => !serviceAvailable(service));
  if (missing.length === 0) return true;
  const file = testFile();
  const how = missing.map((service) => `${SERVICE_LABEL[service]}: ${SERVICE_HOW[service]}`).join('; ');
  if (servicesRequired()) throw new Error(`${file}: "${what}" cannot run without ${how} (${REQUIRE_SERVICES_ENV}=1: a missing service is a failure)`);
  const key = `${file}\n${what}`;
  if (!recorded.has(key)) {
    recorded.add(key);
    const skip: ServiceSkip = { file, what, missing };
    const record = inject('serviceSkipsFile');
    if (record) appendFileSync(record, `${JSON.stringify(skip)}\n`);
    else console.warn(`SKIPPED for want of a service: ${file}: ${what} (${how})`);
  }
  return false;
}

/** A describe block that runs only with `services`, recorded as skipped without them. */
export function describeWithServices(services: Service[], name: string, fn: () => void): void {
  describe.runIf(needs(services, name))(name, fn);
}

/** A test that runs only with `services`, recorded as skipped without them. */
export function itWithServices(services: Service[], name: string, fn: () => Promise<void>, timeout?: number): void {
  it.runIf(needs(services, name))(name, fn, timeout);
}

/** The shared Redis's URL on this worker's database (shared-redis.ts), for suites that checked `needs(['redis'], …)`. */
export function testRedisUrl(): string {
  const url = sharedRedisUrl();
  if (!url) throw new Error('SWITCHYARD_TEST_REDIS is not set');
  return url;
}

/**
 * For a file all of whose suites needed a missing service (each recorded by needs()): a skipped block in their place,
 * so that Vitest does not fail the file as one without tests.
 */
export function skippedWithoutServices(name: string): void {
  describe.skip(name, () => {
    it('runs where its services are (see the list of skips at the end of the run)', () => {});
  });
}
