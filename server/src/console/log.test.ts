import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogDto, LogStat, Page } from '@switchyard/shared';
import { testDatabases } from '../test/databases.js';
import { startTestApp, type Session, type TestApp } from '../test/app.js';
import { nowSeconds } from '../lib/time.js';
import { insertChannels } from '../store/channels.js';
import { LogWriter, recordConsumeLog, recordLog, type ConsumeLogInput } from '../store/logs.js';

interface Body<T = unknown> {
  success: boolean;
  message: string;
  data: T;
}

describe.each(testDatabases())('logs API on $name', (database) => {
  let t: TestApp;
  let root: Session;
  let alice: Session;
  let bob: Session;
  let channelId: number;
  const now = nowSeconds();

  async function call<T = Page<LogDto>>(session: Session, method: 'GET' | 'DELETE', url: string): Promise<Body<T>> {
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
    useTime: 2,
    isStream: true,
    channelId,
    group: 'default',
    other: { frt: 120, model_ratio: 1.25, admin_info: { use_channel: [channelId, 99] } },
    createdAt: now,
    ...fields,
  });

  beforeAll(async () => {
    t = await startTestApp(database);
    root = await t.root();
    alice = await t.user('alice');
    bob = await t.user('bob');
    const db = t.app.ctx.db.kysely;
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
    await recordConsumeLog(db, consume({ modelName: 'o3', quota: 300, promptTokens: 100, completionTokens: 50, createdAt: now - 30 }));
    await recordConsumeLog(db, consume({ quota: 1000, createdAt: now - 3600 }));
    await recordConsumeLog(db, consume({ userId: bob.userId, username: 'bob', tokenName: 'tok-b', quota: 7, channelId: 0 }));
    await recordLog(db, { userId: alice.userId, type: 1, content: '充值', quota: 5000 });
  });
  afterAll(() => t.close());

  it('lists every log for admins, newest first, paged 1-based, with the channel name', async () => {
    const all = await call(root, 'GET', '/api/log/?p=1&page_size=10');
    expect(all.data.total).toBeGreaterThanOrEqual(5);
    expect(all.data.page).toBe(1);
    expect(all.data.page_size).toBe(10);
    const ids = all.data.items.map((l) => l.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const first = all.data.items.find((l) => l.type === 2 && l.username === 'alice')!;
    expect(first.channel).toBe(channelId);
    expect(first.channel_name).toBe('main-channel');
    expect(first.is_stream).toBe(true);
    expect(JSON.parse(first.other).admin_info.use_channel).toEqual([channelId, 99]);

    const p0 = await call(root, 'GET', '/api/log/?p=0&page_size=2');
    const p1 = await call(root, 'GET', '/api/log/?p=1&page_size=2');
    const p2 = await call(root, 'GET', '/api/log/?p=2&page_size=2');
    expect(p0.data.items).toEqual(p1.data.items);
    expect(p1.data.items).toHaveLength(2);
    expect(p2.data.items[0].id).toBeLessThan(p1.data.items[1].id);
  });

  it('filters by type, username, token, model, channel and time', async () => {
    const total = async (q: string) => (await call(root, 'GET', `/api/log/?${q}`)).data.total;
    expect(await total('type=2')).toBe(4);
    expect(await total('type=1')).toBe(1);
    expect(await total('type=2&username=alice')).toBe(3);
    expect(await total('token_name=tok-b')).toBe(1);
    expect(await total('model_name=o3')).toBe(1);
    expect(await total(`channel=${channelId}`)).toBe(3);
    expect(await total(`type=2&start_timestamp=${now - 60}&end_timestamp=${now + 1}`)).toBe(3);
    expect(await total(`type=2&end_timestamp=${now - 60}`)).toBe(1);
  });

  it('shows users only their own logs, without admin info or channel', async () => {
    const own = await call(alice, 'GET', '/api/log/self/?p=1&page_size=50');
    expect(own.data.total).toBe(4);
    expect(own.data.items.every((l) => l.username === 'alice')).toBe(true);
    for (const l of own.data.items) {
      expect(l.channel).toBe(0);
      expect(l.channel_name).toBe('');
      expect(l.other).not.toContain('admin_info');
    }
    expect(JSON.parse(own.data.items.find((l) => l.type === 2)!.other)).toMatchObject({ frt: 120 });
    // username and channel filters are ignored in the self view
    const tried = await call(bob, 'GET', '/api/log/self?username=alice&channel=' + channelId);
    expect(tried.data.total).toBe(1);
    expect(tried.data.items[0].username).toBe('bob');
    expect((await t.call(alice, { method: 'GET', url: '/api/log/' })).statusCode).toBe(403);
  });

  it('sums quota in the range and counts rpm/tpm over the last minute', async () => {
    const all = await call<LogStat>(root, 'GET', '/api/log/stat?type=2');
    expect(all.data).toEqual({ quota: 100 + 300 + 1000 + 7, rpm: 3, tpm: 15 + 150 + 15 });
    const alices = await call<LogStat>(root, 'GET', `/api/log/stat?username=alice&start_timestamp=${now - 60}`);
    expect(alices.data).toEqual({ quota: 400, rpm: 2, tpm: 165 });
    const self = await call<LogStat>(alice, 'GET', '/api/log/self/stat');
    expect(self.data).toEqual({ quota: 1400, rpm: 2, tpm: 165 });
    const bobs = await call<LogStat>(bob, 'GET', '/api/log/self/stat?model_name=gpt-4o');
    expect(bobs.data).toEqual({ quota: 7, rpm: 1, tpm: 15 });
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
