import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHANNEL_TYPES, type ChannelDto } from '@switchyard/shared';
import { testDatabases } from '../test/databases.js';
import { startTestApp, type Session, type TestApp } from '../test/app.js';
import { testChannel } from '../relay/channel-test.js';

vi.mock('../relay/channel-test.js', () => ({ testChannel: vi.fn() }));
const mockedTest = vi.mocked(testChannel);

interface Body<T = unknown> {
  success: boolean;
  message: string;
  data: T;
  time?: number;
  balance?: number;
}

/** A small upstream speaking OpenAI's shapes: model list, billing, SiliconFlow user info; checks the bearer key. */
async function startUpstream(key: string) {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${key}`) {
      return send(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } });
    }
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/v1/models') {
      return send(200, { object: 'list', data: [{ id: 'gpt-4o', object: 'model' }, { id: 'gpt-4o-mini', object: 'model' }] });
    }
    if (url.pathname === '/v1/dashboard/billing/subscription') return send(200, { has_payment_method: true, hard_limit_usd: 120 });
    if (url.pathname === '/v1/dashboard/billing/usage') return send(200, { total_usage: 2050 });
    if (url.pathname === '/v1/user/info') return send(200, { code: 20000, data: { totalBalance: '42.5' } });
    send(404, { error: { message: 'not found' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe.each(testDatabases())('channels API on $name', (database) => {
  let t: TestApp;
  let root: Session;
  let alice: Session;
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  const KEY = 'sk-upstream-secret-key';

  async function call<T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, session = root): Promise<Body<T>> {
    const res = await t.call(session, { method, url, payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Body<T>;
  }

  async function create(fields: object = {}): Promise<number[]> {
    const body = await call<number[]>('POST', '/api/channel/', { name: 'c', key: 'k1', models: 'gpt-4o', group: 'default', ...fields });
    expect(body.message).toBe('');
    expect(body.success).toBe(true);
    return body.data;
  }

  const abilities = (id: number) =>
    t.app.ctx.db.kysely
      .selectFrom('abilities')
      .selectAll()
      .where('channel_id', '=', id)
      .orderBy('group')
      .orderBy('model')
      .execute();

  beforeAll(async () => {
    t = await startTestApp(database);
    root = await t.root();
    alice = await t.user('alice');
    upstream = await startUpstream(KEY);
  });
  afterAll(async () => {
    await upstream.close();
    await t.close();
  });
  beforeEach(async () => {
    mockedTest.mockReset();
    await t.app.ctx.db.kysely.deleteFrom('channels').execute();
    await t.app.ctx.db.kysely.deleteFrom('abilities').execute();
    await t.app.ctx.routing.load();
  });

  it('creates one channel per key line, with abilities for every group x model', async () => {
    const ids = await create({ name: 'multi', key: 'k1\n\n k2 \nk3', models: ['gpt-4o', 'gpt-4o-mini', 'gpt-4o'], group: 'default,vip', base_url: 'https://x.example/' });
    expect(ids).toHaveLength(3);
    const one = await call<ChannelDto>('GET', `/api/channel/${ids[1]}`);
    expect(one.data).toMatchObject({ name: 'multi', key: 'k2', models: 'gpt-4o,gpt-4o-mini', group: 'default,vip', base_url: 'https://x.example', status: 1, auto_ban: 1, type: 1 });
    const rows = await abilities(ids[1]);
    expect(rows.map((r) => `${r.group}/${r.model}/${r.enabled}`)).toEqual([
      'default/gpt-4o/1',
      'default/gpt-4o-mini/1',
      'vip/gpt-4o/1',
      'vip/gpt-4o-mini/1',
    ]);
    expect(t.app.ctx.routing.tiers('vip', 'gpt-4o-mini').flat().map((c) => c.id).sort()).toEqual([...ids].sort());
  });

  it('keeps a Vertex AI JSON key whole and requires its region', async () => {
    const key = '{\n "type": "service_account",\n "project_id": "p"\n}';
    expect((await call('POST', '/api/channel/', { name: 'v', type: 41, key, models: 'gemini-2.5-pro' })).message).toBe('请填写部署地区');
    const bad = await call('POST', '/api/channel/', { name: 'v', type: 41, key, models: 'gemini-2.5-pro', other: '{"us":"x"}' });
    expect(bad.message).toBe('部署地区 JSON 必须包含 default 字段');
    const ids = await create({ name: 'v', type: 41, key, models: 'gemini-2.5-pro', other: 'us-central1' });
    expect(ids).toHaveLength(1);
    expect((await call<ChannelDto>('GET', `/api/channel/${ids[0]}`)).data.key).toBe(key);
  });

  it('fills the Azure and iFlytek version defaults', async () => {
    const [azure] = await create({ type: 3, base_url: 'https://a.openai.azure.com' });
    const [spark] = await create({ type: 18 });
    expect((await call<ChannelDto>('GET', `/api/channel/${azure}`)).data.other).toBe('2024-06-01-preview');
    expect((await call<ChannelDto>('GET', `/api/channel/${spark}`)).data.other).toBe('v2.1');
  });

  it('refuses bad channels with the spec messages', async () => {
    const cases: Array<[object, string]> = [
      [{ name: '', key: 'k' }, '请填写渠道名称和渠道密钥！'],
      [{ name: 'n', key: ' \n ' }, '请填写渠道名称和渠道密钥！'],
      [{ models: '' }, '请至少选择一个模型！'],
      [{ models: [] }, '请至少选择一个模型！'],
      [{ model_mapping: '{"a":' }, '模型映射必须是合法的 JSON 格式！'],
      [{ model_mapping: '["a"]' }, '模型映射必须是合法的 JSON 格式！'],
      [{ status_code_mapping: 'x' }, '状态码复写必须是合法的 JSON 格式！'],
      [{ status_code_mapping: '{"400":"abc"}' }, '状态码复写必须是合法的 JSON 格式！'],
      [{ models: `gpt,${'m'.repeat(256)}` }, '模型名称过长'],
      [{ priority: -1000 }, '优先级不能小于 -999'],
      [{ weight: -1 }, '权重不能小于 0'],
    ];
    for (const [fields, message] of cases) {
      const body = await call('POST', '/api/channel/', { name: 'c', key: 'k', models: 'gpt-4o', ...fields });
      expect(body, JSON.stringify(fields)).toEqual({ success: false, message });
    }
    const ok = await create({ priority: '', weight: null, model_mapping: '{"gpt-4o":"gpt-4o-2024-08-06"}', status_code_mapping: '{"400":"500"}' });
    const row = (await call<ChannelDto>('GET', `/api/channel/${ok[0]}`)).data;
    expect(row).toMatchObject({ priority: 0, weight: 0, status_code_mapping: '{"400":"500"}' });
    expect(await t.app.ctx.db.kysely.selectFrom('channels').select('id').execute()).toHaveLength(1);
  });

  it('lists without keys, paged, by priority or by id', async () => {
    const [a] = await create({ name: 'a', priority: 1 });
    const [b] = await create({ name: 'b', priority: 5 });
    const [c] = await create({ name: 'c', priority: 3 });
    const byPriority = await call<ChannelDto[]>('GET', '/api/channel/?p=0&page_size=10');
    expect(byPriority.data.map((r) => r.id)).toEqual([b, c, a]);
    expect(byPriority.data.every((r) => r.key === undefined)).toBe(true);
    const byId = await call<ChannelDto[]>('GET', '/api/channel/?p=0&page_size=2&id_sort=true');
    expect(byId.data.map((r) => r.id)).toEqual([c, b]);
    const second = await call<ChannelDto[]>('GET', '/api/channel/?p=1&page_size=2&id_sort=true');
    expect(second.data.map((r) => r.id)).toEqual([a]);
  });

  it('searches by id, name, exact key, group and model', async () => {
    const [a] = await create({ name: 'Alpha one', key: 'secret-a', models: 'gpt-4o,claude-3-haiku', group: 'default,vip' });
    const [b] = await create({ name: 'beta', key: 'secret-b', models: 'gemini-2.0-flash', group: 'svip' });
    const ids = async (q: string) => (await call<ChannelDto[]>('GET', `/api/channel/search?${q}`)).data.map((r) => r.id).sort();
    expect(await ids(`keyword=${b}`)).toEqual([b]);
    expect(await ids('keyword=alpha')).toEqual([a]);
    expect(await ids('keyword=secret-b')).toEqual([b]);
    expect(await ids('keyword=secret')).toEqual([]);
    expect(await ids('group=vip')).toEqual([a]);
    expect(await ids('group=svip')).toEqual([b]);
    expect(await ids('model=gemini')).toEqual([b]);
    expect(await ids('keyword=%25')).toEqual([]);
    const found = await call<ChannelDto[]>('GET', '/api/channel/search?keyword=beta');
    expect(found.data[0].key).toBeUndefined();
  });

  it('updates the fields sent, keeps the key when blank, and rebuilds abilities', async () => {
    const [id] = await create({ name: 'u', key: 'keep-me', models: 'gpt-4o', group: 'default' });
    const res = await call<ChannelDto>('PUT', '/api/channel/', { id, key: '', models: 'gpt-4.1,o3', group: 'vip', priority: 7, weight: 3, tag: 't' });
    expect(res.success).toBe(true);
    expect(res.data).toMatchObject({ models: 'gpt-4.1,o3', group: 'vip', priority: 7, weight: 3, name: 'u' });
    expect((await call<ChannelDto>('GET', `/api/channel/${id}`)).data.key).toBe('keep-me');
    expect((await abilities(id)).map((r) => `${r.group}/${r.model}/${r.priority}/${r.weight}/${r.tag}`)).toEqual(['vip/gpt-4.1/7/3/t', 'vip/o3/7/3/t']);
    expect(t.app.ctx.routing.tiers('default', 'gpt-4o')).toEqual([]);
    expect(t.app.ctx.routing.tiers('vip', 'o3')[0][0].id).toBe(id);

    expect((await call('PUT', '/api/channel/', { id, models: '' })).message).toBe('请至少选择一个模型！');
    expect((await call('PUT', '/api/channel/', { id, name: ' ' })).message).toBe('请填写渠道名称和渠道密钥！');
    expect((await call('PUT', '/api/channel/', { id: 987654, name: 'x' })).message).toBe('渠道不存在');
  });

  it('disables and enables through status updates, abilities following', async () => {
    const [id] = await create({ models: 'gpt-4o' });
    await call('PUT', '/api/channel/', { id, status: 2 });
    expect((await abilities(id)).map((r) => r.enabled)).toEqual([0]);
    expect(t.app.ctx.routing.tiers('default', 'gpt-4o')).toEqual([]);
    expect(t.app.ctx.routing.channel(id)?.status).toBe(2);
    expect((await call('PUT', '/api/channel/', { id, status: 3 })).message).toBe('无效的渠道状态');
    await call('PUT', '/api/channel/', { id, status: 1 });
    expect((await abilities(id)).map((r) => r.enabled)).toEqual([1]);
    expect(t.app.ctx.routing.tiers('default', 'gpt-4o')[0][0].id).toBe(id);
  });

  it('deletes one, the disabled ones, and a batch, abilities included', async () => {
    const [a] = await create();
    const [b] = await create({ status: 2 });
    const [c] = await create();
    const [d] = await create();
    await t.app.ctx.db.kysely.updateTable('channels').set({ status: 3 }).where('id', '=', c).execute();
    expect((await call('DELETE', `/api/channel/${a}/`)).success).toBe(true);
    expect((await call('DELETE', `/api/channel/${a}/`)).message).toBe('渠道不存在');
    expect((await call<number>('DELETE', '/api/channel/disabled')).data).toBe(2);
    expect((await call('POST', '/api/channel/batch', { ids: [] })).message).toBe('请先选择要删除的通道！');
    expect((await call<number>('POST', '/api/channel/batch', { ids: [d, 987654] })).data).toBe(1);
    expect(await t.app.ctx.db.kysely.selectFrom('abilities').selectAll().where('channel_id', 'in', [a, b, c, d]).execute()).toEqual([]);
    expect(t.app.ctx.routing.channel(d)).toBeUndefined();
  });

  it('fixes abilities: removes orphans and rebuilds missing or stale rows', async () => {
    const [a] = await create({ models: 'gpt-4o,o3' });
    const [b] = await create();
    const db = t.app.ctx.db.kysely;
    await db.insertInto('abilities').values({ group: 'default', model: 'ghost', channel_id: 987654, enabled: 1, priority: 0, weight: 0, tag: '' }).execute();
    await db.deleteFrom('abilities').where('channel_id', '=', a).execute();
    await db.updateTable('abilities').set({ enabled: 0 }).where('channel_id', '=', b).execute();
    expect((await call<number>('POST', '/api/channel/fix')).data).toBe(3);
    expect((await abilities(a)).map((r) => r.model)).toEqual(['gpt-4o', 'o3']);
    expect((await abilities(b)).map((r) => r.enabled)).toEqual([1]);
    expect(await db.selectFrom('abilities').selectAll().where('channel_id', '=', 987654).execute()).toEqual([]);
    expect((await call<number>('POST', '/api/channel/fix')).data).toBe(0);
  });

  it('lists default models by type for every user, and all of them for admins', async () => {
    const byType = await call<Record<string, string[]>>('GET', '/api/models', undefined, alice);
    expect(byType.data['1']).toContain('gpt-4o-mini');
    expect(byType.data['14'].some((m) => m.startsWith('claude'))).toBe(true);
    expect(Object.keys(byType.data)).toHaveLength(CHANNEL_TYPES.length);
    const all = await call<Array<{ id: string }>>('GET', '/api/channel/models');
    expect(all.data.map((m) => m.id)).toEqual(expect.arrayContaining(['gpt-4o', 'gemini-2.5-pro', 'deepseek-chat']));
    expect(new Set(all.data.map((m) => m.id)).size).toBe(all.data.length);
  });

  it('fetches the upstream model list with the channel key, without leaking it', async () => {
    const [good] = await create({ base_url: upstream.url, key: KEY });
    const [bad] = await create({ base_url: upstream.url, key: 'wrong-key' });
    const [suno] = await create({ type: 36 });
    expect((await call<string[]>('GET', `/api/channel/fetch_models/${good}`)).data).toEqual(['gpt-4o', 'gpt-4o-mini']);
    const failed = await call('GET', `/api/channel/fetch_models/${bad}`);
    expect(failed.success).toBe(false);
    expect(failed.message.startsWith('获取模型列表失败')).toBe(true);
    expect(JSON.stringify(failed)).not.toContain('wrong-key');
    expect((await call('GET', `/api/channel/fetch_models/${suno}`)).message).toBe('仅支持 OpenAI 接口格式');
    const [down] = await create({ base_url: 'http://127.0.0.1:1', key: KEY });
    expect((await call('GET', `/api/channel/fetch_models/${down}`)).message.startsWith('获取模型列表失败')).toBe(true);
  });

  it('fetches the model list of a channel not saved yet (the established POST /api/channel/fetch_models), admins only', async () => {
    const unsaved = (body: object) => call<string[]>('POST', '/api/channel/fetch_models', body);
    expect((await unsaved({ type: 1, base_url: upstream.url, key: `${KEY}\nsk-second-line` })).data).toEqual(['gpt-4o', 'gpt-4o-mini']);
    const failed = await unsaved({ type: 1, base_url: upstream.url, key: 'wrong-key' });
    expect(failed.success).toBe(false);
    expect(failed.message.startsWith('获取模型列表失败')).toBe(true);
    expect(JSON.stringify(failed)).not.toContain('wrong-key');
    expect((await unsaved({ type: 36, key: KEY })).message).toBe('仅支持 OpenAI 接口格式');
    expect(await unsaved({ type: 1, base_url: upstream.url, key: '  ' })).toMatchObject({ success: false, message: '请填写密钥' });
    const user = await t.call(alice, { method: 'POST', url: '/api/channel/fetch_models', payload: { type: 1, base_url: upstream.url, key: KEY } });
    expect(user.statusCode).toBe(403);
  });

  it('updates balances: OpenAI billing, SiliconFlow, not implemented elsewhere, and all enabled', async () => {
    const [openai] = await create({ base_url: upstream.url, key: KEY });
    const [silicon] = await create({ type: 40, base_url: upstream.url, key: KEY });
    const [claude] = await create({ type: 14 });
    const one = await call<{ balance: number }>('GET', `/api/channel/update_balance/${openai}/`);
    expect(one).toMatchObject({ success: true, balance: 99.5, data: { balance: 99.5 } });
    const row = (await call<ChannelDto>('GET', `/api/channel/${openai}`)).data;
    expect(row.balance).toBe(99.5);
    expect(row.balance_updated_time).toBeGreaterThan(0);
    expect((await call('GET', `/api/channel/update_balance/${silicon}`)).balance).toBe(42.5);
    expect((await call('GET', `/api/channel/update_balance/${claude}/`)).message).toBe('尚未实现');
    const all = await call<{ updated: number; failed: number[] }>('GET', '/api/channel/update_balance');
    expect(all.data).toEqual({ updated: 2, failed: [claude] });
  });

  it('tests one channel: model choice, timing saved, time in seconds', async () => {
    const [id] = await create({ models: 'gpt-4.1,o3', test_model: '' });
    mockedTest.mockResolvedValue({ success: true, message: '', timeMs: 1234 });
    const res = await call('GET', `/api/channel/test/${id}`);
    expect(res).toMatchObject({ success: true, message: '', time: 1.234 });
    expect(mockedTest.mock.calls[0][2]).toBe('gpt-4.1');
    expect(mockedTest.mock.calls[0][1]).toMatchObject({ id, models: ['gpt-4.1', 'o3'] });
    await call('GET', `/api/channel/test/${id}?model=o3`);
    expect(mockedTest.mock.calls[1][2]).toBe('o3');
    await call('PUT', '/api/channel/', { id, test_model: 'gpt-4o-mini' });
    await call('GET', `/api/channel/test/${id}`);
    expect(mockedTest.mock.calls[2][2]).toBe('gpt-4o-mini');
    const row = (await call<ChannelDto>('GET', `/api/channel/${id}`)).data;
    expect(row.response_time).toBe(1234);
    expect(row.test_time).toBeGreaterThan(0);
    expect((await call('GET', '/api/channel/test/987654')).message).toBe('渠道不存在');
  });

  it('auto-disables a failing auto_ban channel only when monitoring is on', async () => {
    const [banned] = await create();
    const [kept] = await create({ auto_ban: 0 });
    mockedTest.mockResolvedValue({ success: false, message: 'Incorrect API key provided', timeMs: 100 });
    expect((await call('GET', `/api/channel/test/${banned}`)).success).toBe(false);
    expect((await call<ChannelDto>('GET', `/api/channel/${banned}`)).data.status).toBe(1);
    await t.app.ctx.options.set('AutomaticDisableChannelEnabled', 'true');
    try {
      await call('GET', `/api/channel/test/${banned}`);
      await call('GET', `/api/channel/test/${kept}`);
      const row = (await call<ChannelDto>('GET', `/api/channel/${banned}`)).data;
      expect(row.status).toBe(3);
      expect(JSON.parse(row.other_info)).toMatchObject({ status_reason: expect.stringContaining('Incorrect API key') });
      expect((await abilities(banned)).map((r) => r.enabled)).toEqual([0]);
      expect((await call<ChannelDto>('GET', `/api/channel/${kept}`)).data.status).toBe(1);
    } finally {
      await t.app.ctx.options.set('AutomaticDisableChannelEnabled', 'false');
    }
  });

  it('tests all channels in the background: slow ones off, passing auto-disabled ones back on', async () => {
    const [slow] = await create({ name: 'slow' });
    const [revived] = await create({ name: 'revived' });
    const [manual] = await create({ name: 'manual', status: 2 });
    await t.app.ctx.db.kysely.updateTable('channels').set({ status: 3 }).where('id', '=', revived).execute();
    await t.app.ctx.options.set('AutomaticEnableChannelEnabled', 'true');
    try {
      mockedTest.mockImplementation(async (_ctx, channel) => ({ success: true, message: '', timeMs: channel.name === 'slow' ? 6000 : 200 }));
      expect((await call('GET', '/api/channel/test')).success).toBe(true);
      const status = async (id: number) => (await call<ChannelDto>('GET', `/api/channel/${id}`)).data.status;
      await expect.poll(() => status(revived), { timeout: 5000 }).toBe(1);
      await expect.poll(() => status(slow), { timeout: 5000 }).toBe(3);
      expect(await status(manual)).toBe(2);
      expect(mockedTest.mock.calls.map((c) => c[1].id)).not.toContain(manual);
    } finally {
      await t.app.ctx.options.set('AutomaticEnableChannelEnabled', 'false');
    }
  });

  it('runs one all-channel test at a time', async () => {
    await create();
    let release!: () => void;
    mockedTest.mockImplementation(() => new Promise((resolve) => (release = () => resolve({ success: true, message: '', timeMs: 1 }))));
    expect((await call('GET', '/api/channel/test')).success).toBe(true);
    await expect.poll(() => mockedTest.mock.calls.length).toBe(1);
    expect((await call('GET', '/api/channel/test')).message).toBe('已有渠道测试正在进行中，请稍后再试');
    release();
    await expect.poll(async () => (await call('GET', '/api/channel/test')).success).toBe(true);
    await expect.poll(() => mockedTest.mock.calls.length).toBe(2);
    release();
  });

  it('keeps every channel call to admins', async () => {
    const res = await t.call(alice, { method: 'GET', url: '/api/channel/' });
    expect(res.statusCode).toBe(403);
  });
});
