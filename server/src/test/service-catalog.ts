import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/*
 * The services some suites need beyond SQLite, how to tell whether one is there, and how to provide it. Plain code
 * without Vitest's runtime, so both the suites (services.ts) and the run's setup and summary (service-skips.ts) use it.
 */

export type Service = 'postgres' | 'mysql' | 'redis' | 'redis-server' | 'codex-cli' | 'claude-code-cli' | 'gemini-cli' | 'opencode-cli';

export const SERVICES: readonly Service[] = ['postgres', 'mysql', 'redis', 'redis-server', 'codex-cli', 'claude-code-cli', 'gemini-cli', 'opencode-cli'];

/** The folder holding the coding agents' binaries (scripts/install-agents.mjs prints it; `.ci/run` sets it). */
export const AGENT_CLIS_ENV = 'SWITCHYARD_AGENT_CLIS';

/** Set (to 1) by CI: a suite asking for a missing service then fails instead of being skipped. */
export const REQUIRE_SERVICES_ENV = 'SWITCHYARD_TEST_REQUIRE_SERVICES';

export const servicesRequired = (): boolean => process.env[REQUIRE_SERVICES_ENV] === '1';

export const SERVICE_LABEL: Record<Service, string> = {
  postgres: 'PostgreSQL',
  mysql: 'MySQL / MariaDB',
  redis: 'a shared Redis',
  'redis-server': 'the redis-server binary (a private Redis per suite)',
  'codex-cli': 'the Codex CLI (@openai/codex, the pinned version)',
  'claude-code-cli': 'Claude Code (@anthropic-ai/claude-code, the pinned version)',
  'gemini-cli': 'Gemini CLI (@google/gemini-cli, the pinned version)',
  'opencode-cli': 'opencode (opencode-ai, the pinned version)',
};

export const SERVICE_HOW: Record<Service, string> = {
  postgres: 'set SWITCHYARD_TEST_PG to an admin URL, e.g. postgres://root@127.0.0.1:5432/postgres (each suite creates its own database)',
  mysql: 'set SWITCHYARD_TEST_MYSQL to an admin URL, e.g. mysql://root:@127.0.0.1:3306/mysql (each suite creates its own database)',
  redis: 'start a Redis and set SWITCHYARD_TEST_REDIS, e.g. redis://127.0.0.1:6379',
  'redis-server': 'install Redis so that `redis-server` is on PATH (apt-get install redis-server)',
  'codex-cli': 'run `export SWITCHYARD_AGENT_CLIS=$(node scripts/install-agents.mjs)`',
  'claude-code-cli': 'run `export SWITCHYARD_AGENT_CLIS=$(node scripts/install-agents.mjs)`',
  'gemini-cli': 'run `export SWITCHYARD_AGENT_CLIS=$(node scripts/install-agents.mjs)`',
  'opencode-cli': 'run `export SWITCHYARD_AGENT_CLIS=$(node scripts/install-agents.mjs)`',
};

/** The environment variable holding a service's URL; none for the binary. */
export const SERVICE_ENV: Partial<Record<Service, string>> = {
  postgres: 'SWITCHYARD_TEST_PG',
  mysql: 'SWITCHYARD_TEST_MYSQL',
  redis: 'SWITCHYARD_TEST_REDIS',
};

let redisServerFound: boolean | undefined;

/** The path of a coding agent's binary in SWITCHYARD_AGENT_CLIS, or null when it is not there. */
export function agentCli(bin: string): string | null {
  const folder = process.env[AGENT_CLIS_ENV];
  if (!folder) return null;
  // Whether it is there, not whether it runs: starting a CLI takes seconds, and the run's setup checks the services
  // while its connection checks wait on their timers.
  const file = `${folder}/${bin}`;
  return existsSync(file) ? file : null;
}

/** Whether the service is configured (a URL given) or installed (the binary): what decides that a suite runs. */
export function serviceAvailable(service: Service): boolean {
  if (service === 'codex-cli') return agentCli('codex') !== null;
  if (service === 'claude-code-cli') return agentCli('claude') !== null;
  if (service === 'gemini-cli') return agentCli('gemini') !== null;
  if (service === 'opencode-cli') return agentCli('opencode') !== null;
  if (service === 'redis-server') {
    redisServerFound ??= spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
    return redisServerFound;
  }
  return Boolean(process.env[SERVICE_ENV[service]!]);
}

/** One suite or test left out for want of services, as a line of the run's skip record. */
export interface ServiceSkip {
  file: string;
  what: string;
  missing: Service[];
}
