import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { testDatabases } from '../test/databases.js';
import { quiesce } from '../test/ledger.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';
import { startMockOpenAI, type MockOpenAI } from '../test/mock-openai.js';

/*
 * Money is exact: whatever happens to a call (concurrency, upstream failures and retries, a client that leaves,
 * an upstream that dies mid-stream), the consume logs add up to exactly what left the user's and the token's
 * balances, and a limited token is never overdrawn.
 */

const chat = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'hi' }] };
const COST = Math.round((11 + 7 * 4) * 1.25); // mock usage at gpt-4o's ratios

describe.each(testDatabases())('money on $name', (database) => {
  let f: RelayFixture;
  let steady: MockOpenAI;
  let flaky: MockOpenAI;

  async function balances(tokenId: number) {
    const db = f.t.app.ctx.db.kysely;
    const user = await db.selectFrom('users').select(['quota', 'used_quota']).where('id', '=', f.root.userId).executeTakeFirstOrThrow();
    const token = await db.selectFrom('tokens').select(['remain_quota', 'used_quota']).where('id', '=', tokenId).executeTakeFirstOrThrow();
    return { user: user.quota, userUsed: user.used_quota, token: token.remain_quota, tokenUsed: token.used_quota };
  }

  async function loggedQuota(tokenId: number): Promise<{ sum: number; count: number }> {
    const row = await f.t.app.ctx.db.kysely
      .selectFrom('logs')
      .select([sql<number>`coalesce(sum(quota), 0)`.as('sum'), sql<number>`count(*)`.as('count')])
      .where('token_id', '=', tokenId)
      .where('type', '=', 2)
      .executeTakeFirstOrThrow();
    return { sum: Number(row.sum), count: Number(row.count) };
  }

  /** Runs a scenario on a fresh token and checks the books balance afterwards. */
  async function books(tokenFields: Record<string, unknown>, scenario: (key: string) => Promise<void>) {
    const token = await f.token(tokenFields);
    await f.flush();
    const before = await balances(token.id);
    await scenario(token.key);
    // A call the client left (an aborted stream) may still be winding down: wait until none is in flight, then write.
    await quiesce(f.t.app.ctx);
    const after = await balances(token.id);
    const logs = await loggedQuota(token.id);
    expect(before.user - after.user).toBe(logs.sum);
    expect(after.userUsed - before.userUsed).toBe(logs.sum);
    expect(after.tokenUsed - before.tokenUsed).toBe(logs.sum);
    if (!tokenFields.unlimited_quota) expect(before.token - after.token).toBe(logs.sum);
    return { before, after, logs };
  }

  beforeAll(async () => {
    steady = await startMockOpenAI('sk-steady');
    flaky = await startMockOpenAI('sk-flaky');
    f = await startRelay(database);
    await f.setOption('ModelRatio', JSON.stringify({ 'gpt-4o': 1.25 }));
  });
  afterEach(async () => {
    for (const { id } of await f.t.app.ctx.db.kysely.selectFrom('channels').select('id').execute()) {
      await f.t.call(f.root, { method: 'DELETE', url: `/api/channel/${id}/` });
    }
    steady.behaviour = {};
    flaky.behaviour = {};
    await f.setOption('RetryTimes', '0');
  });
  afterAll(async () => {
    await f.close();
    await steady.close();
    await flaky.close();
  });

  // The reservation covers the call when the client caps its answer (max_tokens): then no interleaving of 300
  // concurrent calls can take the token below zero. (Without a cap the overdraw is bounded by the in-flight calls'
  // shortfall against their estimates: see docs/decisions.md.)
  it('never overdraws a small token under 300 concurrent calls', async () => {
    const channel = await f.channel({ base_url: steady.url, key: steady.key, models: 'gpt-4o' });
    const quota = COST * 40;
    const { after, logs } = await books({ unlimited_quota: false, remain_quota: quota }, async (key) => {
      const client = f.client(key);
      const results = await Promise.allSettled(
        Array.from({ length: 300 }, () => client.chat.completions.create({ ...chat, max_tokens: 20 })),
      );
      const ok = results.filter((r) => r.status === 'fulfilled').length;
      // Refused: 403 when the token cannot cover a reservation, 401 once it is used up.
      const isRefusal = (r: PromiseSettledResult<unknown>) => r.status === 'rejected' && [401, 403].includes((r.reason as { status?: number }).status ?? 0);
      const refused = results.filter(isRefusal).length;
      const other = results.filter((r) => r.status === 'rejected' && !isRefusal(r));
      expect(other.map((r) => String((r as PromiseRejectedResult).reason)).slice(0, 3)).toEqual([]);
      expect(ok + refused).toBe(300);
      expect(ok).toBeGreaterThan(0);
    });
    expect(after.token).toBeGreaterThanOrEqual(0);
    expect(logs.count * COST).toBe(logs.sum);
    expect(logs.sum).toBeLessThanOrEqual(quota);
    await f.t.call(f.root, { method: 'DELETE', url: `/api/channel/${channel}/` });
  });

  it('charges each call once when 20% of upstream calls fail and are retried', async () => {
    await f.setOption('RetryTimes', '3');
    flaky.behaviour = { failRate: 0.2 };
    const a = await f.channel({ base_url: flaky.url, key: flaky.key, models: 'gpt-4o', priority: 1 });
    const b = await f.channel({ base_url: steady.url, key: steady.key, models: 'gpt-4o', priority: 0 });
    const { logs } = await books({ unlimited_quota: false, remain_quota: COST * 100_000 }, async (key) => {
      const client = f.client(key);
      const results = await Promise.allSettled(Array.from({ length: 100 }, () => client.chat.completions.create(chat)));
      expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    });
    expect(logs.count).toBe(100);
    expect(logs.sum).toBe(100 * COST);
    flaky.behaviour = {};
    await f.setOption('RetryTimes', '0');
    for (const id of [a, b]) await f.t.call(f.root, { method: 'DELETE', url: `/api/channel/${id}/` });
  });

  it('charges only the delivered tokens when the client disconnects mid-stream', async () => {
    steady.behaviour = { delayMs: 40, chunks: Array.from({ length: 40 }, (_, i) => ` word${i}`) };
    const channel = await f.channel({ base_url: steady.url, key: steady.key, models: 'gpt-4o' });
    const { logs } = await books({ unlimited_quota: false, remain_quota: 10_000_000 }, async (key) => {
      const controller = new AbortController();
      const stream = await f.client(key).chat.completions.create({ ...chat, stream: true }, { signal: controller.signal });
      let received = 0;
      try {
        for await (const chunk of stream) {
          if (chunk.choices[0]?.delta?.content) received++;
          if (received === 5) controller.abort();
        }
      } catch {
        // aborted by us
      }
      expect(received).toBe(5);
    });
    expect(logs.count).toBe(1);
    const log = await f.t.app.ctx.db.kysely.selectFrom('logs').selectAll().where('type', '=', 2).orderBy('id', 'desc').executeTakeFirstOrThrow();
    // Five or six short chunks were generated before the abort reached the upstream; forty would be ~80 tokens.
    expect(log.completion_tokens).toBeGreaterThan(0);
    expect(log.completion_tokens).toBeLessThanOrEqual(20);
    expect(log.content).toContain('客户端断开');
    // The client's address is taken when the call arrives: after the client left, its socket no longer has one.
    expect(log.ip).toBe('127.0.0.1');
    steady.behaviour = {};
    await f.t.call(f.root, { method: 'DELETE', url: `/api/channel/${channel}/` });
  });

  it('charges only what was generated when the upstream dies mid-stream', async () => {
    steady.behaviour = { cutAfter: 3 };
    const channel = await f.channel({ base_url: steady.url, key: steady.key, models: 'gpt-4o' });
    await books({ unlimited_quota: true, remain_quota: 0 }, async (key) => {
      const stream = await f.client(key).chat.completions.create({ ...chat, stream: true });
      let text = '';
      try {
        for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
      } catch {
        // the stream may end abruptly
      }
      expect(text).toBe('Hello from the');
    });
    const log = await f.t.app.ctx.db.kysely.selectFrom('logs').selectAll().where('type', '=', 2).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(log.completion_tokens).toBe(3);
    expect(log.content).toContain('上游中断');
    steady.behaviour = {};
    await f.t.call(f.root, { method: 'DELETE', url: `/api/channel/${channel}/` });
  });

  // A passthrough answer is forwarded as its bytes; one that cannot be read (no usage, not JSON) is refused as the
  // converted path refuses it, instead of reaching the client as a 200 it cannot parse and being billed by its text.
  it('answers 502 and charges nothing when a passthrough upstream answers JSON that does not parse', async () => {
    steady.behaviour = { malformed: true };
    const channel = await f.channel({ base_url: steady.url, key: steady.key, models: 'gpt-4o' });
    const { logs } = await books({ unlimited_quota: false, remain_quota: 1_000_000 }, async (key) => {
      await expect(f.client(key).chat.completions.create(chat)).rejects.toMatchObject({ status: 502 });
    });
    expect(logs.count).toBe(0);
    steady.behaviour = {};
    await f.t.call(f.root, { method: 'DELETE', url: `/api/channel/${channel}/` });
  });

  it('refunds the reservation in full when every channel fails', async () => {
    await f.setOption('RetryTimes', '1');
    flaky.behaviour = { fail: { status: 500 } };
    const channel = await f.channel({ base_url: flaky.url, key: flaky.key, models: 'gpt-4o' });
    const { before, after, logs } = await books({ unlimited_quota: false, remain_quota: 1_000_000 }, async (key) => {
      await expect(f.client(key).chat.completions.create({ ...chat, max_tokens: 1000 })).rejects.toMatchObject({ status: 500 });
    });
    expect(logs.sum).toBe(0);
    expect(after.token).toBe(before.token);
    flaky.behaviour = {};
    await f.setOption('RetryTimes', '0');
    await f.t.call(f.root, { method: 'DELETE', url: `/api/channel/${channel}/` });
  });
});
