import { afterEach, describe, expect, it, vi } from 'vitest';
import { skipSummary } from './service-skips.js';
import { needs } from './services.js';

describe('declaring the services a suite needs', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('lets a suite run when its service is configured', () => {
    vi.stubEnv('SWITCHYARD_TEST_PG', 'postgres://root@127.0.0.1:5432/postgres');
    expect(needs(['postgres'], 'a case on PostgreSQL')).toBe(true);
  });

  it('fails the suite, naming the service and its variable, when services are required and one is missing', () => {
    vi.stubEnv('SWITCHYARD_TEST_REQUIRE_SERVICES', '1');
    vi.stubEnv('SWITCHYARD_TEST_REDIS', undefined);
    expect(() => needs(['redis'], 'a case on Redis')).toThrow(/services\.test\.ts: "a case on Redis" cannot run without a shared Redis: .*SWITCHYARD_TEST_REDIS/);
  });

  it('lists every skip under each missing service, with how to provide it, and ends on one loud line', () => {
    const text = skipSummary([
      { file: 'server/src/a.test.ts', what: 'its runs on PostgreSQL', missing: ['postgres'] },
      { file: 'server/src/b.test.ts', what: 'two nodes sharing PostgreSQL and Redis', missing: ['postgres', 'redis-server'] },
    ]);
    const lines = text.trim().split('\n');
    const postgres = lines.findIndex((l) => l.includes('without PostgreSQL') && l.includes('SWITCHYARD_TEST_PG'));
    const redis = lines.findIndex((l) => l.includes('without the redis-server binary') && l.includes('redis-server` is on PATH'));
    expect(lines.slice(postgres + 1, postgres + 3)).toEqual(['    server/src/a.test.ts: its runs on PostgreSQL', '    server/src/b.test.ts: two nodes sharing PostgreSQL and Redis']);
    expect(lines[redis + 1]).toBe('    server/src/b.test.ts: two nodes sharing PostgreSQL and Redis');
    expect(lines.at(-1)).toMatch(/^!!! SKIPPED for want of services: 2 \(PostgreSQL 2, the redis-server binary .* 1\)/);
  });
});
