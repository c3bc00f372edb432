import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuotaDataDto } from '@switchyard/shared';
import { testDatabases } from '../test/databases.js';
import type { Session, TestApp } from '../test/app.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';
import { MOCK_USAGE, startMockOpenAI, type MockOpenAI } from '../test/mock-openai.js';
import { addQuotaData, hourOf } from '../store/quota-data.js';
import { nowSeconds } from '../lib/time.js';
import { DATA_MESSAGES } from './data.js';

const H = 3600;
const DAY = 86400;

describe.each(testDatabases())('data dashboard calls on $name', (database) => {
  let f: RelayFixture;
  let t: TestApp;
  let mock: MockOpenAI;
  let root: Session;
  let alice: Session;
  let bob: Session;
  const now = hourOf(nowSeconds());
  const T = now - 10 * H;

  beforeAll(async () => {
    mock = await startMockOpenAI('sk-mock');
    f = await startRelay(database);
    t = f.t;
    root = f.root;
    alice = await t.user('alice');
    bob = await t.user('bob');
    const db = t.app.ctx.db;
    const cell = (userId: number, username: string, modelName: string, createdAt: number, count: number, quota: number) => ({
      userId, username, modelName, createdAt, count, tokenUsed: count * 10, quota, promptTokens: count * 8, cacheTokens: count * 2,
    });
    await addQuotaData(db.kysely, db.dialect, [
      cell(alice.userId, 'alice', 'gpt-4o', T, 2, 200),
      cell(alice.userId, 'alice', 'claude-3', T + H, 1, 50),
      cell(bob.userId, 'bob', 'gpt-4o', T, 3, 300),
      cell(bob.userId, 'bob', 'gpt-4o', now - 40 * DAY, 7, 700),
    ]);
  });
  afterAll(async () => {
    await f.close();
    await mock.close();
  });

  async function get(session: Session | null, url: string) {
    const res = await t.call(session, { method: 'GET', url });
    return { status: res.statusCode, body: res.json() as { success: boolean; message: string; data: QuotaDataDto[] } };
  }

  const brief = (rows: QuotaDataDto[]) => rows.map((r) => [r.model_name, r.created_at - T, r.count, r.token_used, r.quota]);

  it('gives an admin every user summed per model and hour', async () => {
    const { body } = await get(root, `/api/data/?start_timestamp=${T}&end_timestamp=${now}`);
    expect(body.success).toBe(true);
    expect(brief(body.data)).toEqual([
      ['gpt-4o', 0, 5, 50, 500],
      ['claude-3', H, 1, 10, 50],
    ]);
    expect(body.data.every((r) => r.user_id === 0 && r.username === '')).toBe(true);
  });

  it('gives an admin one user by username, and nothing for an unknown name', async () => {
    const { body } = await get(root, `/api/data/?username=alice&start_timestamp=${T}&end_timestamp=${now}`);
    expect(brief(body.data)).toEqual([
      ['gpt-4o', 0, 2, 20, 200],
      ['claude-3', H, 1, 10, 50],
    ]);
    expect(body.data.every((r) => r.username === 'alice')).toBe(true);
    const none = await get(root, `/api/data/?username=nobody&start_timestamp=${T}&end_timestamp=${now}`);
    expect(none.body).toEqual({ success: true, message: '', data: [] });
  });

  it('lets an admin read a long range, and answers the last day when no range is given', async () => {
    const long = await get(root, `/api/data/?username=bob&start_timestamp=${now - 60 * DAY}&end_timestamp=${now}`);
    expect(long.body.data.map((r) => r.count)).toEqual([7, 3]);
    const lastDay = await get(root, '/api/data/?username=bob');
    expect(lastDay.body.data.map((r) => r.count)).toEqual([3]);
  });

  it('gives a user their own rows only, whatever the query says', async () => {
    const { body } = await get(bob, `/api/data/self?username=alice&start_timestamp=${T}&end_timestamp=${now}`);
    expect(body.success).toBe(true);
    expect(brief(body.data)).toEqual([['gpt-4o', 0, 3, 30, 300]]);
    expect(body.data[0]).toMatchObject({ user_id: bob.userId, username: 'bob' });
    const withSlash = await get(alice, `/api/data/self/?start_timestamp=${T}&end_timestamp=${now}`);
    expect(brief(withSlash.body.data)).toEqual([
      ['gpt-4o', 0, 2, 20, 200],
      ['claude-3', H, 1, 10, 50],
    ]);
  });

  it('refuses a self range longer than a month', async () => {
    const { body } = await get(bob, `/api/data/self?start_timestamp=${now - 31 * DAY}&end_timestamp=${now}`);
    expect(body).toEqual({ success: false, message: DATA_MESSAGES.spanTooLong });
    const month = await get(bob, `/api/data/self?start_timestamp=${now - 30 * DAY}&end_timestamp=${now}`);
    expect(month.body.success).toBe(true);
  });

  it('keeps the all-user view for admins', async () => {
    expect((await get(alice, '/api/data/')).status).toBe(403);
    expect((await get(null, '/api/data/self')).status).toBe(401);
  });

  it('counts relayed calls: the settled cost and tokens of each call land in the hour they were made', async () => {
    const channel = await f.channel({ base_url: mock.url, key: mock.key, models: 'gpt-4o-mini' });
    const token = await f.token();
    const client = f.client(token.key);
    for (let i = 0; i < 3; i++) {
      await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    }
    await f.flush();
    await t.app.ctx.jobs.runNow('usage-flush');
    const logs = await t.app.ctx.db.kysely
      .selectFrom('logs')
      .select(['quota', 'prompt_tokens', 'completion_tokens'])
      .where('type', '=', 2)
      .where('model_name', '=', 'gpt-4o-mini')
      .execute();
    expect(logs).toHaveLength(3);
    const { body } = await get(root, `/api/data/self?start_timestamp=${nowSeconds() - H}&end_timestamp=${nowSeconds() + H}`);
    const row = body.data.find((r) => r.model_name === 'gpt-4o-mini');
    expect(row).toMatchObject({
      count: 3,
      token_used: 3 * (MOCK_USAGE.prompt_tokens + MOCK_USAGE.completion_tokens),
      quota: logs.reduce((sum, l) => sum + l.quota, 0),
    });
    expect(row!.quota).toBeGreaterThan(0);
    await t.call(root, { method: 'DELETE', url: `/api/channel/${channel}/` });
  });

  it('stops counting while DataExportEnabled is off', async () => {
    await f.setOption('DataExportEnabled', 'false');
    try {
      const channel = await f.channel({ base_url: mock.url, key: mock.key, models: 'gpt-3.5-turbo' });
      const token = await f.token();
      await f.client(token.key).chat.completions.create({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hi' }] });
      await t.app.ctx.jobs.runNow('usage-flush');
      const { body } = await get(root, `/api/data/?start_timestamp=${nowSeconds() - H}&end_timestamp=${nowSeconds() + H}`);
      expect(body.data.find((r) => r.model_name === 'gpt-3.5-turbo')).toBeUndefined();
      await t.call(root, { method: 'DELETE', url: `/api/channel/${channel}/` });
    } finally {
      await f.setOption('DataExportEnabled', 'true');
    }
  });
});
