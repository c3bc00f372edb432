import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../config.js';
import { buildApp } from '../app.js';
import type { Db } from '../db/connect.js';
import { testDatabases } from '../test/databases.js';
import { serviceAvailable } from '../test/service-catalog.js';
import { describeWithServices, testRedisUrl } from '../test/services.js';
import { NO_ADDRESS_LIMITS, startTestApp, type TestApp } from '../test/app.js';
import { TcpProxy } from '../test/tcp-proxy.js';
import { startPrivateRedis, type PrivateRedis } from '../test/private-redis.js';
import { READY_TIMEOUT_MS } from './readiness.js';

/*
 * GET /api/ready answers 503 naming the dependency that went away — whether it stopped answering or closed its
 * connections — within 10 s of it going away, each probe within the check's bound; and 200 again once it is back.
 */

const OUTAGE_BOUND_MS = 10_000;

interface Ready {
  status: number;
  body: { success: boolean; message: string; data: { database: string; redis: string } };
  tookMs: number;
}

async function ready(app: FastifyInstance): Promise<Ready> {
  const started = Date.now();
  const res = await app.inject({ method: 'GET', url: '/api/ready' });
  return { status: res.statusCode, body: res.json(), tookMs: Date.now() - started };
}

/** Probes every 250 ms (as a balancer would) from `since` until one answers `status`; fails past 10 s. */
async function probeUntil(app: FastifyInstance, status: number, since = Date.now()): Promise<Ready & { afterMs: number }> {
  for (;;) {
    const r = await ready(app);
    expect(r.tookMs, 'one probe is bounded by the check timeout').toBeLessThan(READY_TIMEOUT_MS + 1_000);
    const afterMs = Date.now() - since;
    if (r.status === status) return { ...r, afterMs };
    expect(afterMs, `still ${r.status} (${JSON.stringify(r.body)})`).toBeLessThan(OUTAGE_BOUND_MS);
    await new Promise((res) => setTimeout(res, 250));
  }
}

const rename = (db: Db, from: string, to: string) =>
  (db.dialect === 'mysql' ? sql`rename table ${sql.id(from)} to ${sql.id(to)}` : sql`alter table ${sql.id(from)} rename to ${sql.id(to)}`).execute(db.kysely);

describe.each(testDatabases())('readiness on $name', (database) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(database);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is 200 with the database ok and Redis off when none is configured', async () => {
    const r = await ready(t.app);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, message: '', data: { database: 'ok', redis: 'off' } });
  });

  it('is 503 naming the database while the table every call reads is away, 200 once it is back', async () => {
    const db = t.app.ctx.db;
    await rename(db, 'users', 'users_away');
    try {
      const down = await probeUntil(t.app, 503);
      expect(down.body).toEqual({ success: false, message: '数据库无法访问', data: { database: 'failed', redis: 'off' } });
    } finally {
      await rename(db, 'users_away', 'users');
    }
    await probeUntil(t.app, 200);
  });

  it('does not count against the per-address API limit that /api/status counts against', async () => {
    const limited = await startTestApp(database, { ...NO_ADDRESS_LIMITS, GLOBAL_API_RATE_LIMIT_ENABLE: 'true', GLOBAL_API_RATE_LIMIT: '3' });
    try {
      const statuses = [];
      for (let i = 0; i < 10; i++) statuses.push((await ready(limited.app)).status);
      expect(statuses).toEqual(Array(10).fill(200));
      const status = [];
      for (let i = 0; i < 4; i++) status.push((await limited.app.inject({ method: 'GET', url: '/api/status' })).statusCode);
      expect(status).toEqual([200, 200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});

/** A node whose pool reaches the database through a relay the test can silence or close. */
describe.each(testDatabases(['postgres', 'mysql']))('readiness when the $name server goes away', (database) => {
  let app: FastifyInstance;
  let proxy: TcpProxy;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const opened = await database.open();
    drop = opened.drop;
    proxy = await TcpProxy.start(opened.url!);
    const config = loadConfig({ SQL_DSN: proxy.through(opened.url!), SESSION_SECRET: 'ready-test-secret-ready-test-secret', ...NO_ADDRESS_LIMITS });
    app = await buildApp(config, { logger: false });
  });
  afterEach(async () => {
    await proxy.restore();
  });
  afterAll(async () => {
    await app?.close();
    await proxy?.close();
    await drop?.();
  });

  it.each(['silence', 'close'] as const)('is 503 within 10 s after the server stops answering (%s), 200 once it is back', async (how) => {
    expect((await ready(app)).status).toBe(200);
    const since = Date.now();
    if (how === 'silence') proxy.silence();
    else await proxy.close();
    const down = await probeUntil(app, 503, since);
    expect(down.body.data).toEqual({ database: 'failed', redis: 'off' });
    expect(down.afterMs).toBeLessThan(OUTAGE_BOUND_MS);
    await proxy.restore();
    await probeUntil(app, 200);
  });
});

// A private redis-server when one is installed, else the shared Redis (SWITCHYARD_TEST_REDIS).
const privateRedis = serviceAvailable('redis-server');

describeWithServices([privateRedis ? 'redis-server' : 'redis'], 'readiness when Redis goes away', () => {
  let t: TestApp;
  let proxy: TcpProxy;
  let redis: PrivateRedis | null = null;
  beforeAll(async () => {
    redis = privateRedis ? await startPrivateRedis() : null;
    const redisUrl = redis?.url ?? testRedisUrl();
    proxy = await TcpProxy.start(redisUrl);
    const [sqlite] = testDatabases(['sqlite']);
    t = await startTestApp(sqlite, { REDIS_CONN_STRING: proxy.through(redisUrl) });
  });
  afterEach(async () => {
    await proxy.restore();
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await redis?.close();
  });

  it.each(['silence', 'close'] as const)('is 503 naming Redis within 10 s after it stops answering (%s), 200 once it is back', async (how) => {
    const up = await probeUntil(t.app, 200);
    expect(up.body.data).toEqual({ database: 'ok', redis: 'ok' });
    const since = Date.now();
    if (how === 'silence') proxy.silence();
    else await proxy.close();
    const down = await probeUntil(t.app, 503, since);
    expect(down.body).toEqual({ success: false, message: 'Redis 无法访问', data: { database: 'ok', redis: 'failed' } });
    await proxy.restore();
    await probeUntil(t.app, 200);
  });
});
