import { afterAll, beforeAll, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { testDatabases } from '../test/databases.js';
import { describeWithServices } from '../test/services.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';
import { FaultUpstreams } from '../test/fault-upstreams.js';
import { expectWholeAnswer } from '../test/client-calls.js';
import { booksOf, channelsUsed, expectBalanced, openAccount, quiesce, type Account } from '../test/ledger.js';
import { ALL_PATHS, MAX_TOKENS, RICH, TIGHT, healthyChannels, priceModels, runLoad } from '../test/fault-matrix.js';
import { startPrivateRedis, type PrivateRedis } from '../test/private-redis.js';
import { loadEncodings } from './tokenizer.js';

/*
 * The fault matrix, Redis part: Redis carries only the cache-invalidation bus between nodes, so when it dies the
 * relay keeps serving from its local caches, console changes still apply (other nodes catch up by SYNC_FREQUENCY),
 * money is untouched, and the bus works again once Redis is back. Runs wherever `redis-server` is installed; the
 * database does not matter to the bus, so SQLite only.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const [sqlite] = testDatabases(['sqlite']);

describeWithServices(['redis-server'], 'the fault matrix when Redis goes down', () => {
  let redis: PrivateRedis;
  let f: RelayFixture;
  const upstreams = new FaultUpstreams();
  let models: Record<'openai' | 'claude' | 'gemini', string>;
  let channelIds: number[];

  beforeAll(async () => {
    loadEncodings();
    redis = await startPrivateRedis();
    f = await startRelay(sqlite, { REDIS_CONN_STRING: redis.url });
    await upstreams.start(['openai', 'claude', 'gemini'], ['none']);
    ({ models, channelIds } = await healthyChannels(f, upstreams, 'redis'));
    await priceModels(f, Object.values(models));
  });
  afterAll(async () => {
    await f?.close();
    await upstreams.close();
    await redis?.close();
  });

  it('keeps relaying and charging exactly, applies console changes, and publishes again once Redis is back', async () => {
    const db = f.t.app.ctx.db.kysely;
    const accounts: Account[] = [
      await openAccount(db, { quota: TIGHT * 10, tokenQuota: TIGHT * 10 }),
      await openAccount(db, { quota: RICH }),
      await openAccount(db, { quota: TIGHT * 10 }),
    ];
    const token = await f.token();
    const load = runLoad(f.baseUrl, accounts, { paths: ALL_PATHS, models, durationMs: 2000, workers: 2, maxTokens: (a) => (a === accounts[1] ? MAX_TOKENS : undefined) });
    await sleep(300);
    await redis.kill();

    // Console changes while Redis is down: applied here (and answered as such), published to nobody.
    const started = Date.now();
    const disable = await f.t.call(f.root, { method: 'PUT', url: '/api/token/?status_only=true', payload: { id: token.id, status: 2 } });
    expect(disable.json()).toMatchObject({ success: true });
    const weight = await f.t.call(f.root, { method: 'PUT', url: '/api/channel/', payload: { id: channelIds[0], weight: 5 } });
    expect(weight.json()).toMatchObject({ success: true });
    expect(Date.now() - started).toBeLessThan(5000);
    const refused = await fetch(`${f.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: models.openai, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(refused.status).toBe(401);

    await sleep(300);
    await redis.restart();
    const results = await load;
    await quiesce(f.t.app.ctx);

    let total = 0;
    for (const a of accounts) {
      const calls = results.get(a)!;
      for (const { path, outcome } of calls) {
        expect(outcome.status, outcome.text.slice(0, 300)).toBe(200);
        expectWholeAnswer(path.client, path.stream, outcome.text);
      }
      const books = await booksOf(db, a);
      expectBalanced(a, books);
      expect(books.logCount).toBe(calls.length);
      total += books.logSum;
    }
    expect(await channelsUsed(db, channelIds)).toBe(total);

    // The bus works again: another node would hear of the next change.
    const listener = new Redis(redis.url);
    try {
      const heard = new Promise<string>((resolve) => listener.on('message', (_channel: string, message: string) => resolve(message)));
      await listener.subscribe('switchyard:tokens-of-user');
      const deadline = Date.now() + 10_000;
      let message: string | null = null;
      while (message === null && Date.now() < deadline) {
        await f.t.call(f.root, { method: 'PUT', url: '/api/token/?status_only=true', payload: { id: token.id, status: 1 } });
        message = await Promise.race([heard, sleep(500).then(() => null)]);
      }
      expect(message).toMatch(new RegExp(`\\|${f.root.userId}$`));
    } finally {
      listener.disconnect();
    }
  });
});
