import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';
import { startMockOpenAI, type MockOpenAI } from '../test/mock-openai.js';

/* Channel tests against a real upstream, auto-enable, and settlement on shutdown. */

const [sqlite] = testDatabases(['sqlite']);

describe('channel health and shutdown', () => {
  let f: RelayFixture;
  let mock: MockOpenAI;

  beforeAll(async () => {
    mock = await startMockOpenAI();
    f = await startRelay(sqlite);
  });
  afterAll(async () => {
    await f.close();
    await mock.close();
  });

  const status = async (id: number) =>
    (await f.t.app.ctx.db.kysely.selectFrom('channels').select(['status', 'response_time']).where('id', '=', id).executeTakeFirstOrThrow());

  it('tests a channel through its provider and records the response time', async () => {
    mock.queue.push({ delayMs: 30 });
    const id = await f.channel({ base_url: mock.url, key: mock.key, models: 'gpt-4o-mini', name: 'tested' });
    const res = await f.t.call(f.root, { method: 'GET', url: `/api/channel/test/${id}?model=gpt-4o-mini` });
    expect(res.json()).toMatchObject({ success: true });
    expect(res.json().time).toBeGreaterThanOrEqual(0.03);
    expect((await status(id)).response_time).toBeGreaterThanOrEqual(30);
    const sent = mock.requests.at(-1)!;
    expect(sent.json).toMatchObject({ model: 'gpt-4o-mini', max_tokens: 10 });
  });

  it('re-enables an auto-disabled channel that passes the all-channel test', async () => {
    await f.setOption('AutomaticEnableChannelEnabled', 'true');
    const id = await f.channel({ base_url: mock.url, key: mock.key, models: 'gpt-4o-mini', name: 'revived' });
    await f.t.app.ctx.db.kysely.updateTable('channels').set({ status: 3 }).where('id', '=', id).execute();
    await f.t.app.ctx.routing.load();
    const res = await f.t.call(f.root, { method: 'GET', url: '/api/channel/test' });
    expect(res.json().success).toBe(true);
    await expect.poll(async () => (await status(id)).status, { timeout: 10_000 }).toBe(1);
    // ...and routing serves it again.
    const key = (await f.token()).key;
    const pinned = await f.client(`${key}-${id}`).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    expect(pinned.choices).toHaveLength(1);
    await f.setOption('AutomaticEnableChannelEnabled', 'false');
  });
});

describe('scheduled channel tests and balance updates', () => {
  it('tests every channel every CHANNEL_TEST_FREQUENCY minutes and updates balances every CHANNEL_UPDATE_FREQUENCY', async () => {
    const mock = await startMockOpenAI();
    // 0.02 minutes: a run every 1.2 s.
    const f = await startRelay(sqlite, { CHANNEL_TEST_FREQUENCY: '0.02', CHANNEL_UPDATE_FREQUENCY: '0.02' });
    const db = f.t.app.ctx.db.kysely;
    try {
      await f.setOption('AutomaticEnableChannelEnabled', 'true');
      const id = await f.channel({ base_url: mock.url, key: mock.key, models: 'gpt-4o-mini', name: 'scheduled' });
      await db.updateTable('channels').set({ status: 3, test_time: 0, balance_updated_time: 0 }).where('id', '=', id).execute();
      const row = () => db.selectFrom('channels').select(['status', 'test_time', 'balance', 'balance_updated_time']).where('id', '=', id).executeTakeFirstOrThrow();
      // Nobody asks: the job finds the auto-disabled channel healthy and brings it back...
      await expect.poll(async () => (await row()).status, { timeout: 15_000, interval: 200 }).toBe(1);
      expect((await row()).test_time).toBeGreaterThan(0);
      // ...and the balance job records what the upstream says is left ($120 limit, $20 spent).
      await expect.poll(async () => (await row()).balance_updated_time, { timeout: 15_000, interval: 200 }).toBeGreaterThan(0);
      expect((await row()).balance).toBe(100);
    } finally {
      await f.close();
      await mock.close();
    }
  });
});

describe('shutdown', () => {
  it('writes every settlement and log before the process lets go of the database', async () => {
    const mock = await startMockOpenAI();
    // Batches wait a minute here, so the settlements are surely still waiting when the app closes, however slow the
    // calls were (with the default 100 ms they had all been written once before on a loaded machine).
    const f = await startRelay(sqlite, { SETTLEMENT_INTERVAL_MS: '60000' });
    const db = f.t.app.ctx.db.kysely;
    try {
      await f.channel({ base_url: mock.url, key: mock.key, models: 'gpt-4o-mini' });
      const { key } = await f.token();
      await Promise.all(Array.from({ length: 20 }, () => f.client(key).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] })));
      // Close the app (the test database stays open): pending settlements must be written on the way out.
      expect(f.t.app.ctx.relay.settler.pending).toBe(20);
      await f.t.app.close();
      const logs = await db.selectFrom('logs').select('id').where('type', '=', 2).execute();
      expect(logs).toHaveLength(20);
    } finally {
      await f.close();
      await mock.close();
    }
  });
});
