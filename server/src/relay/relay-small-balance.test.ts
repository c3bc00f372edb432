import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { concurrentChats } from '../test/concurrent-calls.js';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { testDatabases } from '../test/databases.js';
import { quiesce } from '../test/ledger.js';
import { needs } from '../test/services.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';
import { startMockOpenAI, type MockOpenAI } from '../test/mock-openai.js';
import { NO_ADDRESS_LIMITS } from '../test/app.js';
import { sharedRedisUrl } from '../test/shared-redis.js';

/*
 * A small balance can be spent by many calls at once. Each call reserves an estimate ~13x its real cost (prompt +
 * PreConsumedQuota), so the first ~23 reservations hold a balance that covers ~300 calls; the others wait for what
 * those give back instead of being refused. On PostgreSQL and MySQL two nodes share the database and Redis.
 */

const MODEL = 'gpt-4o';
const COST = Math.round((11 + 7 * 4) * 1.25); // the mock's usage at gpt-4o's ratios
const CALLS = 1000;
const BALANCE = 300 * COST;

describe.each(testDatabases())('a small balance under 1,000 concurrent calls on $name', (database) => {
  const redis = sharedRedisUrl();
  const twoNodes = database.name !== 'sqlite' && needs(['redis'], `two nodes sharing ${database.name} and Redis`);
  let f: RelayFixture;
  let other: FastifyInstance | null = null;
  let upstream: MockOpenAI;
  const urls: string[] = [];

  beforeAll(async () => {
    upstream = await startMockOpenAI('sk-up');
    f = await startRelay(database, twoNodes ? { REDIS_CONN_STRING: redis! } : {});
    urls.push(f.baseUrl);
    if (twoNodes) {
      const config = loadConfig({ SQL_DSN: f.t.dbUrl!, REDIS_CONN_STRING: redis!, SESSION_SECRET: 'test-secret-test-secret-test-secret', LOG_LEVEL: 'silent', NODE_TYPE: 'slave', ...NO_ADDRESS_LIMITS });
      other = await buildApp(config, { logger: false });
      await other.listen({ port: 0, host: '127.0.0.1' });
      urls.push(`http://127.0.0.1:${(other.server.address() as AddressInfo).port}`);
    }
    await f.setOption('ModelRatio', JSON.stringify({ [MODEL]: 1.25 }));
    await f.channel({ base_url: upstream.url, key: upstream.key, models: MODEL });
  }, 60_000);
  afterAll(async () => {
    await other?.close();
    await f.close();
    await upstream.close();
  });

  it('lets concurrent calls spend at least 90% of the balance and never overdraws it', async () => {
    const token = await f.token({ unlimited_quota: true });
    const db = f.t.app.ctx.db.kysely;
    await f.flush();
    await db.updateTable('users').set({ quota: BALANCE }).where('id', '=', f.root.userId).execute();
    f.t.app.ctx.authCache.forgetUser(f.root.userId);
    other?.ctx.authCache.forgetUser(f.root.userId);
    const logsBefore = await db.selectFrom('logs').select(sql<number>`count(*)`.as('n')).where('type', '=', 2).executeTakeFirstOrThrow();

    const statuses = await concurrentChats(urls, token.key, MODEL, CALLS);
    // Every call ended on each node and what it owes is written.
    await quiesce(f.t.app.ctx);
    if (other) await quiesce(other.ctx);

    const answered = statuses.filter((s) => s === 200).length;
    const refused = statuses.filter((s) => s === 403).length;
    expect(answered + refused).toBe(CALLS);
    const user = await db.selectFrom('users').select('quota').where('id', '=', f.root.userId).executeTakeFirstOrThrow();
    const logs = await db
      .selectFrom('logs')
      .select([sql<number>`count(*)`.as('n'), sql<number>`coalesce(sum(quota), 0)`.as('q')])
      .where('type', '=', 2)
      .where('token_id', '=', token.id)
      .executeTakeFirstOrThrow();
    expect(Number(logs.n)).toBe(answered);
    expect(Number(logs.q)).toBe(answered * COST);
    expect(BALANCE - user.quota).toBe(answered * COST);
    // Every estimate exceeds the real cost here, so the balance never goes below zero.
    expect(user.quota).toBeGreaterThanOrEqual(0);
    expect(answered * COST).toBeGreaterThanOrEqual(0.9 * BALANCE);
    expect(Number(logsBefore.n)).toBeGreaterThanOrEqual(0);
    expect(f.t.app.ctx.relay.quotaGate.waitingCalls).toBe(0);
  }, 120_000);

  // A token re-read while a call's reservation was being written lacks that reservation, and the call then notes
  // its estimate on the fresh row as well: during a burst a funded token could look spent. That is no refusal.
  it('answers a funded token whose cached balance local bookkeeping counted below zero, and refuses one the database confirms spent', async () => {
    const token = await f.token({ unlimited_quota: false, remain_quota: 100_000 });
    const { authCache } = f.t.app.ctx;
    await f.flush();
    await f.t.app.ctx.db.kysely.updateTable('users').set({ quota: 10_000_000 }).where('id', '=', f.root.userId).execute();
    await authCache.forgetUser(f.root.userId);
    const call = () =>
      fetch(`${f.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }),
      });
    expect((await call()).status).toBe(200);
    const key = token.key.slice(3);
    authCache.noteCharge(key, f.root.userId, 200_000);
    expect((authCache.cachedToken(key) as { remain_quota: number }).remain_quota).toBeLessThan(0);
    expect((await call()).status).toBe(200);

    await f.flush();
    await f.t.app.ctx.db.kysely.updateTable('tokens').set({ remain_quota: 0 }).where('id', '=', token.id).execute();
    authCache.noteCharge(key, f.root.userId, 200_000);
    const spent = await call();
    expect(spent.status).toBe(401);
    expect(((await spent.json()) as { error: { message: string } }).error.message).toBe('该令牌额度已用尽');
  });

  // Calls on a balance far above their estimate skip the reservation (a write saved per call); the node's cached
  // balance counts each admitted call at its estimate, so a burst takes that path only while it still fits.
  it('reserves for a burst once the admitted calls bring the cached balance under the no-reservation margin', async () => {
    const token = await f.token({ unlimited_quota: true });
    const db = f.t.app.ctx.db.kysely;
    const estimate = Math.round((1 + 500) * 1.25); // "hi" (1 token estimated) + PreConsumedQuota, at the model ratio
    await f.flush();
    await db.updateTable('users').set({ quota: 101 * estimate }).where('id', '=', f.root.userId).execute();
    f.t.app.ctx.authCache.forgetUser(f.root.userId);
    upstream.behaviour = { delayMs: 400 };
    const body = JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] });
    const call = () =>
      fetch(`${f.baseUrl}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' }, body });
    // One call first, so the user is in the cache; then a burst while it is still in flight.
    // A call reaches the upstream only after its reservation (the upstream holds each one for 400 ms).
    const upstreamSaw = (n: number) => expect.poll(() => upstream.requests.length, { timeout: 10_000, interval: 10 }).toBeGreaterThanOrEqual(n);
    const seen = upstream.requests.length;
    const first = call();
    await upstreamSaw(seen + 1);
    const burst = Array.from({ length: 20 }, call);
    await upstreamSaw(seen + 21);
    const mid = await db.selectFrom('users').select('quota').where('id', '=', f.root.userId).executeTakeFirstOrThrow();
    await Promise.all([first, ...burst].map((p) => p.then((r) => r.arrayBuffer())));
    upstream.behaviour = {};
    // Twenty calls reserved their estimate while in flight (at most one more could have passed unreserved).
    expect(101 * estimate - mid.quota).toBeGreaterThanOrEqual(19 * estimate);
  });
});
