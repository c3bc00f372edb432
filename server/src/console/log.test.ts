import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogPage, LogStat } from '@switchyard/shared';
import { testDatabases } from '../test/databases.js';
import { startTestApp, type Session, type TestApp } from '../test/app.js';
import { nowSeconds } from '../lib/time.js';
import { insertChannels } from '../store/channels.js';
import { LogWriter, recordConsumeLog, recordLog, type ConsumeLogInput } from '../store/logs.js';
import { deleteLogsBefore, pageLogs, parseLogCursor } from '../store/log-queries.js';

interface Body<T = unknown> {
  success: boolean;
  message: string;
  data: T;
}

const newestFirst = (items: Array<{ created_at: number; id: number }>) =>
  [...items].sort((a, b) => b.created_at - a.created_at || b.id - a.id).map((l) => l.id);

describe.each(testDatabases())('logs API on $name', (database) => {
  let t: TestApp;
  let root: Session;
  let alice: Session;
  let bob: Session;
  let channelId: number;
  // Taken when the logs are written, not when the suites are collected: the suites on the other databases run
  // later, and "the last minute" (rpm, tpm) is counted from the real clock.
  let now = 0;

  async function call<T = LogPage>(session: Session, method: 'GET' | 'DELETE', url: string): Promise<Body<T>> {
    const res = await t.call(session, { method, url });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Body<T>;
  }

  const consume = (fields: Partial<ConsumeLogInput>): ConsumeLogInput => ({
    userId: alice.userId,
    username: 'alice',
    tokenId: 1,
    tokenName: 'tok-a',
    modelName: 'gpt-4o',
    quota: 100,
    promptTokens: 10,
    completionTokens: 5,
    cacheTokens: 4,
    useTime: 2,
    isStream: true,
    channelId,
    group: 'default',
    other: { frt: 120, model_ratio: 1.25, admin_info: { use_channel: [99, channelId] } },
    createdAt: now,
    ...fields,
  });

  beforeAll(async () => {
    t = await startTestApp(database);
    root = await t.root();
    alice = await t.user('alice');
    bob = await t.user('bob');
    const db = t.app.ctx.db.kysely;
    now = nowSeconds();
    await db.deleteFrom('logs').execute();
    [channelId] = await insertChannels(db, [
      {
        type: 1, key: 'k', openai_organization: '', test_model: '', status: 1, name: 'main-channel', weight: 0, base_url: '', other: '',
        models: 'gpt-4o', group: 'default', model_mapping: '', status_code_mapping: '', priority: 0, auto_ban: 1, tag: '', setting: '',
        param_override: '', max_input_tokens: 0,
      },
    ]);
    await t.app.ctx.routing.load();
    await recordConsumeLog(db, consume({}));
    await recordConsumeLog(db, consume({ modelName: 'o3', quota: 300, promptTokens: 100, completionTokens: 50, cacheTokens: 60, createdAt: now - 30 }));
    await recordConsumeLog(db, consume({ quota: 1000, createdAt: now - 3600, group: 'vip' }));
    await recordConsumeLog(db, consume({ userId: bob.userId, username: 'bob', tokenName: 'tok-b', quota: 7, channelId: 0 }));
    await recordLog(db, { userId: alice.userId, type: 1, content: '充值', quota: 5000 });
  });
  afterAll(() => t.close());

  it('lists every log for admins, newest first, paged 1-based, with the channel name and the retry chain', async () => {
    const all = await call(root, 'GET', '/api/log/?p=1&page_size=10');
    expect(all.data).toMatchObject({ total: 5, total_capped: false, page: 1, page_size: 10, next_cursor: '' });
    expect(all.data.items.map((l) => l.id)).toEqual(newestFirst(all.data.items));
    const first = all.data.items.find((l) => l.type === 2 && l.username === 'alice')!;
    expect(first.channel).toBe(channelId);
    expect(first.channel_name).toBe('main-channel');
    expect(first.is_stream).toBe(true);
    expect(JSON.parse(first.other).admin_info.use_channel).toEqual([99, channelId]);

    const p0 = await call(root, 'GET', '/api/log/?p=0&page_size=2');
    const p1 = await call(root, 'GET', '/api/log/?p=1&page_size=2');
    const p2 = await call(root, 'GET', '/api/log/?p=2&page_size=2');
    expect(p0.data.items).toEqual(p1.data.items);
    expect(p1.data.items).toHaveLength(2);
    expect(newestFirst([...p1.data.items, ...p2.data.items])).toEqual([...p1.data.items, ...p2.data.items].map((l) => l.id));
  });

  it('continues from a cursor exactly where the offset page would, and ends with an empty cursor', async () => {
    const seen: number[] = [];
    let cursor = '';
    for (let p = 1; p <= 3; p++) {
      const byCursor = await call(root, 'GET', `/api/log/?p=${p}&page_size=2${cursor ? `&cursor=${cursor}` : ''}`);
      const byOffset = await call(root, 'GET', `/api/log/?p=${p}&page_size=2`);
      expect(byCursor.data.items).toEqual(byOffset.data.items);
      expect(byCursor.data.total).toBe(5);
      seen.push(...byCursor.data.items.map((l) => l.id));
      cursor = byCursor.data.next_cursor;
      expect(cursor === '').toBe(p === 3);
    }
    expect(new Set(seen).size).toBe(5);
    // A malformed cursor is ignored (the page is found by offset).
    const bad = await call(root, 'GET', '/api/log/?p=2&page_size=2&cursor=1;drop');
    expect(bad.data.items).toHaveLength(2);
  });

  it('filters by type, username, token, model, channel, group and time, alone and combined', async () => {
    const total = async (q: string) => (await call(root, 'GET', `/api/log/?${q}`)).data.total;
    expect(await total('type=2')).toBe(4);
    expect(await total('type=1')).toBe(1);
    expect(await total('type=2&username=alice')).toBe(3);
    expect(await total('username=alice&model_name=gpt-4o&token_name=tok-a&type=2')).toBe(2);
    expect(await total(`username=alice&channel=${channelId}&model_name=o3`)).toBe(1);
    expect(await total('token_name=tok-b')).toBe(1);
    expect(await total('token_name=tok-b&username=alice')).toBe(0);
    expect(await total('model_name=o3')).toBe(1);
    expect(await total('model_name=gpt%25')).toBe(3);
    expect(await total('model_name=gpt-4')).toBe(0);
    expect(await total(`channel=${channelId}`)).toBe(3);
    expect(await total('group=vip')).toBe(1);
    expect(await total(`type=2&start_timestamp=${now - 60}&end_timestamp=${now + 1}`)).toBe(3);
    expect(await total(`type=2&end_timestamp=${now - 60}`)).toBe(1);
    expect(await total(`username=alice&type=2&start_timestamp=${now - 60}&end_timestamp=${now + 3600}`)).toBe(2);
  });

  it('shows users only their own logs, without the retry chain, channel or admin info', async () => {
    const own = await call(alice, 'GET', '/api/log/self/?p=1&page_size=50');
    expect(own.data.total).toBe(4);
    expect(own.data.items.every((l) => l.username === 'alice' && l.user_id === alice.userId)).toBe(true);
    for (const l of own.data.items) {
      expect(l.channel).toBe(0);
      expect(l.channel_name).toBe('');
      expect(l.other).not.toContain('admin_info');
      expect(l.other).not.toContain('use_channel');
    }
    expect(JSON.parse(own.data.items.find((l) => l.type === 2)!.other)).toMatchObject({ frt: 120, model_ratio: 1.25 });
    // Paging by cursor stays inside the caller's rows.
    const page1 = await call(alice, 'GET', '/api/log/self/?p=1&page_size=3');
    const page2 = await call(alice, 'GET', `/api/log/self/?p=2&page_size=3&cursor=${page1.data.next_cursor}`);
    expect([...page1.data.items, ...page2.data.items].every((l) => l.user_id === alice.userId)).toBe(true);
    expect(page2.data.items).toHaveLength(1);
    // username and channel filters are ignored in the self view
    const tried = await call(bob, 'GET', '/api/log/self?username=alice&channel=' + channelId);
    expect(tried.data.total).toBe(1);
    expect(tried.data.items[0].username).toBe('bob');
    expect((await call(bob, 'GET', '/api/log/self/?token_name=tok-a')).data.total).toBe(0);
    for (const url of ['/api/log/', '/api/log/stat']) {
      expect((await t.call(alice, { method: 'GET', url })).statusCode).toBe(403);
    }
    expect((await t.call(alice, { method: 'DELETE', url: `/api/log/?target_timestamp=${now + 10}` })).statusCode).toBe(403);
    expect((await call(root, 'GET', '/api/log/?type=2')).data.total).toBe(4);
  });

  it('sums quota, prompt tokens and cache reads in the range and counts rpm/tpm over the last minute', async () => {
    const all = await call<LogStat>(root, 'GET', '/api/log/stat?type=2');
    expect(all.data).toEqual({ quota: 100 + 300 + 1000 + 7, rpm: 3, tpm: 15 + 150 + 15, prompt_tokens: 10 + 100 + 10 + 10, cache_tokens: 4 + 60 + 4 + 4 });
    const alices = await call<LogStat>(root, 'GET', `/api/log/stat?username=alice&start_timestamp=${now - 60}`);
    expect(alices.data).toEqual({ quota: 400, rpm: 2, tpm: 165, prompt_tokens: 110, cache_tokens: 64 });
    const combined = await call<LogStat>(root, 'GET', `/api/log/stat?username=alice&model_name=gpt-4o&channel=${channelId}`);
    expect(combined.data).toEqual({ quota: 1100, rpm: 1, tpm: 15, prompt_tokens: 20, cache_tokens: 8 });
    const self = await call<LogStat>(alice, 'GET', '/api/log/self/stat');
    expect(self.data).toEqual({ quota: 1400, rpm: 2, tpm: 165, prompt_tokens: 120, cache_tokens: 68 });
    const bobs = await call<LogStat>(bob, 'GET', '/api/log/self/stat?model_name=gpt-4o');
    expect(bobs.data).toEqual({ quota: 7, rpm: 1, tpm: 15, prompt_tokens: 10, cache_tokens: 4 });
    const bobTried = await call<LogStat>(bob, 'GET', '/api/log/self/stat?username=alice');
    expect(bobTried.data.quota).toBe(7);
  });

  it('writes batched logs on flush and on close', async () => {
    const db = t.app.ctx.db.kysely;
    const writer = new LogWriter(db, { intervalMs: 60_000, maxBatch: 3 });
    const count = async () => Number((await db.selectFrom('logs').select((eb) => eb.fn.countAll<number>().as('n')).where('token_name', '=', 'batched').executeTakeFirst())?.n);
    writer.addConsume(consume({ tokenName: 'batched', createdAt: now - 7200 }));
    writer.addConsume(consume({ tokenName: 'batched', createdAt: now - 7200 }));
    expect(await count()).toBe(0);
    writer.addConsume(consume({ tokenName: 'batched', createdAt: now - 7200 }));
    await expect.poll(count).toBe(3);
    writer.addConsume(consume({ tokenName: 'batched', createdAt: now - 7200 }));
    await writer.close();
    expect(await count()).toBe(4);
  });

  it('deletes logs older than a time and reports the count', async () => {
    expect((await call(root, 'DELETE', '/api/log/')).message).toBe('请选择日志记录时间');
    const deleted = await call<number>(root, 'DELETE', `/api/log/?target_timestamp=${now - 60}`);
    expect(deleted.data).toBe(5);
    expect((await call(root, 'GET', '/api/log/?type=2')).data.total).toBe(3);
  });
});

describe.each(testDatabases())('log queries on $name', (database) => {
  let t: TestApp;
  const base = 1_700_000_000;

  beforeAll(async () => {
    t = await startTestApp(database);
    const db = t.app.ctx.db.kysely;
    // 30 rows, two per second (same created_at pairs test the id tie-break), users 1 and 2 alternating.
    for (let i = 0; i < 30; i++) {
      await recordConsumeLog(db, {
        userId: 1 + (i % 2), username: `u${1 + (i % 2)}`, tokenId: 1, tokenName: i % 3 === 0 ? 'rare' : 'common', modelName: 'm',
        quota: i, promptTokens: 1, completionTokens: 1, useTime: 1, isStream: false, channelId: 1, group: 'default',
        createdAt: base + Math.floor(i / 2),
      });
    }
  });
  afterAll(() => t.close());

  it('walks every row once by cursor, in the same order as by offset', async () => {
    const db = t.app.ctx.db.kysely;
    const byOffset: number[] = [];
    for (let page = 1; page <= 4; page++) byOffset.push(...(await pageLogs(db, {}, { page, pageSize: 8 })).items.map((r) => r.id));
    const byCursor: number[] = [];
    let cursor = null;
    for (let page = 1; ; page++) {
      const res = await pageLogs(db, {}, { page, pageSize: 8, cursor });
      byCursor.push(...res.items.map((r) => r.id));
      if (!res.nextCursor) break;
      cursor = parseLogCursor(res.nextCursor);
    }
    expect(byCursor).toEqual(byOffset);
    expect(new Set(byCursor).size).toBe(30);
  });

  it('counts up to the cap past the page start and says when it stopped', async () => {
    const db = t.app.ctx.db.kysely;
    const first = await pageLogs(db, {}, { page: 1, pageSize: 5, countCap: 12 });
    expect(first).toMatchObject({ total: 12, totalCapped: true });
    const third = await pageLogs(db, {}, { page: 3, pageSize: 5, countCap: 12 });
    expect(third).toMatchObject({ total: 22, totalCapped: true });
    const fourth = await pageLogs(db, {}, { page: 4, pageSize: 5, countCap: 12, cursor: parseLogCursor(third.nextCursor) });
    expect(fourth).toMatchObject({ total: 27, totalCapped: true });
    expect(fourth.items).toEqual((await pageLogs(db, {}, { page: 4, pageSize: 5 })).items);
    const near = await pageLogs(db, {}, { page: 5, pageSize: 5, countCap: 12 });
    expect(near).toMatchObject({ total: 30, totalCapped: false });
    expect(await pageLogs(db, { username: 'u1', tokenName: 'rare' }, { page: 1, pageSize: 5, countCap: 12 })).toMatchObject({
      total: 5,
      totalCapped: false,
    });
  });

  it('clears old logs in batches', async () => {
    const db = t.app.ctx.db.kysely;
    expect(await deleteLogsBefore(db, base + 10, 4)).toBe(20);
    expect((await pageLogs(db, {}, { page: 1, pageSize: 50 })).total).toBe(10);
    expect(await deleteLogsBefore(db, base + 10, 4)).toBe(0);
  });
});
