import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelDto, ChannelKeyPage } from '@switchyard/shared';
import { testDatabases } from '../test/databases.js';
import { startTestApp, type Session, type TestApp } from '../test/app.js';
import { consoleCaller } from '../test/console-envelope.js';

/* Multi-key channels at the console: create modes, the manage API (every action, roles), and what the lists show. */

describe.each(testDatabases())('multi-key channels API on $name', (database) => {
  let t: TestApp;
  let root: Session;
  let admin: Session;
  let alice: Session;
  const call = consoleCaller(
    () => t,
    () => root,
  );
  const manage = <T = unknown>(payload: object, session = root) => call<T>('POST', '/api/channel/multi_key/manage', payload, session);
  const row = (id: number) => t.app.ctx.db.kysely.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  async function createPool(keys: string[], extra: object = {}): Promise<number> {
    const body = await call<number[]>('POST', '/api/channel/', {
      mode: 'multi_to_single',
      multi_key_mode: 'polling',
      channel: { name: `pool-${Math.random().toString(36).slice(2, 7)}`, type: 1, key: keys.join('\n'), models: 'gpt-4o', group: 'default', ...extra },
    });
    expect(body).toMatchObject({ success: true });
    expect(body.data).toHaveLength(1);
    return body.data[0];
  }

  beforeAll(async () => {
    t = await startTestApp(database);
    root = await t.root();
    admin = await t.user('keyadmin');
    expect((await call('POST', '/api/user/manage', { id: admin.userId, action: 'promote' })).success).toBe(true);
    alice = await t.user('alice');
  });
  afterAll(() => t.close());

  it('creates one channel holding every line as a key, stored as the established gateway stores it', async () => {
    const id = await createPool(['sk-aaaaaaaaaaaa', ' sk-bbbbbbbbbbbb ', '', 'sk-cccc']);
    const r = await row(id);
    expect(r.key).toBe('sk-aaaaaaaaaaaa\nsk-bbbbbbbbbbbb\nsk-cccc');
    expect(JSON.parse(r.channel_info!)).toEqual({ is_multi_key: true, multi_key_size: 3, multi_key_polling_index: 0, multi_key_mode: 'polling' });
    // The list shows the pool's state, never its keys; the edit form (one channel by id) gets the keys.
    const list = await call<ChannelDto[]>('GET', '/api/channel/?p=0');
    const listed = list.data.find((c) => c.id === id)!;
    expect(listed.key).toBeUndefined();
    expect(listed.channel_info).toMatchObject({ is_multi_key: true, multi_key_size: 3, multi_key_mode: 'polling' });
    expect((await call<ChannelDto>('GET', `/api/channel/${id}`)).data.key).toBe(r.key);
  });

  it('keeps the batch mode (one channel per line) and the flat body without a mode', async () => {
    const batch = await call<number[]>('POST', '/api/channel/', { mode: 'batch', channel: { name: 'b', key: 'k1\nk2', models: 'gpt-4o' } });
    expect(batch.data).toHaveLength(2);
    const flat = await call<number[]>('POST', '/api/channel/', { name: 'f', key: 'k3\nk4', models: 'gpt-4o' });
    expect(flat.data).toHaveLength(2);
    expect((await row(flat.data[0])).channel_info).toBeNull();
    const single = await call<number[]>('POST', '/api/channel/', { mode: 'single', name: 's', key: 'k5\nk6', models: 'gpt-4o' });
    expect(single.data).toHaveLength(1);
    expect((await row(single.data[0])).key).toBe('k5\nk6');
    expect(await call('POST', '/api/channel/', { mode: 'weird', name: 's', key: 'k', models: 'gpt-4o' })).toMatchObject({ success: false, message: '不支持的添加模式' });
    expect(await call('POST', '/api/channel/', { mode: 'multi_to_single', multi_key_mode: 'sticky', name: 's', key: 'k', models: 'gpt-4o' })).toMatchObject({
      success: false,
      message: '不支持的多密钥模式',
    });
    expect(await call('POST', '/api/channel/', { mode: 'multi_to_single', name: 's', key: '\n', models: 'gpt-4o' })).toMatchObject({
      success: false,
      message: '请填写渠道名称和渠道密钥！',
    });
  });

  it('splits a JSON array of Vertex service accounts into one key per object', async () => {
    const sa = (n: number) => ({ type: 'service_account', project_id: `p${n}`, private_key: 'x', client_email: `a${n}@x` });
    const body = await call<number[]>('POST', '/api/channel/', {
      mode: 'multi_to_single',
      multi_key_mode: 'random',
      channel: { name: 'vx', type: 41, other: 'us-central1', key: JSON.stringify([sa(1), sa(2)]), models: 'gemini-1.5-pro' },
    });
    expect(body.success, body.message).toBe(true);
    const r = await row(body.data[0]);
    expect(r.key.split('\n').map((k) => JSON.parse(k) as object)).toEqual([sa(1), sa(2)]);
    expect(JSON.parse(r.channel_info!)).toMatchObject({ multi_key_size: 2, multi_key_mode: 'random' });
  });

  it('lists key status with paging, a status filter and counts', async () => {
    const id = await createPool(['sk-111111111111', 'sk-2', 'sk-333333333333']);
    expect(await manage({ channel_id: id, action: 'disable_key', key_index: 1 })).toMatchObject({ success: true, message: '密钥已禁用' });
    const page = (await manage<ChannelKeyPage>({ channel_id: id, action: 'get_key_status', page: 1, page_size: 2 })).data;
    expect(page).toMatchObject({ total: 3, page: 1, page_size: 2, total_pages: 2, enabled_count: 2, manual_disabled_count: 1, auto_disabled_count: 0 });
    expect(page.keys).toEqual([
      { index: 0, status: 1, key_preview: 'sk-1111111...' },
      { index: 1, status: 2, disabled_time: expect.any(Number), key_preview: 'sk-2' },
    ]);
    const disabled = (await manage<ChannelKeyPage>({ channel_id: id, action: 'get_key_status', status: 2 })).data;
    expect(disabled.keys.map((k) => k.index)).toEqual([1]);
    expect(disabled).toMatchObject({ total: 1, enabled_count: 2, manual_disabled_count: 1 });
  });

  it('enables and disables keys; the channel goes off with its last key and comes back with one', async () => {
    const id = await createPool(['k-a', 'k-b']);
    expect(await manage({ channel_id: id, action: 'disable_key', key_index: 0 })).toMatchObject({ success: true });
    expect((await row(id)).status).toBe(1);
    expect(t.app.ctx.routing.channel(id)!.keyPool!.enabled.map((k) => k.index)).toEqual([1]);
    expect(await manage({ channel_id: id, action: 'disable_all_keys' })).toMatchObject({ success: true, message: '已禁用 1 个密钥' });
    let r = await row(id);
    expect(r.status).toBe(3);
    expect(JSON.parse(r.other_info)).toMatchObject({ status_reason: 'All keys are disabled' });
    expect(t.app.ctx.routing.tiers('default', 'gpt-4o').flat().some((c) => c.id === id)).toBe(false);
    expect(await manage({ channel_id: id, action: 'disable_all_keys' })).toMatchObject({ success: false, message: '没有可禁用的密钥' });
    expect(await manage({ channel_id: id, action: 'enable_key', key_index: 1 })).toMatchObject({ success: true, message: '密钥已启用' });
    r = await row(id);
    expect(r.status).toBe(1);
    expect(t.app.ctx.routing.tiers('default', 'gpt-4o').flat().some((c) => c.id === id)).toBe(true);
    expect(await manage({ channel_id: id, action: 'enable_all_keys' })).toMatchObject({ success: true, message: '已启用 1 个密钥' });
    expect(JSON.parse((await row(id)).channel_info!).multi_key_status_list).toBeUndefined();
    // A channel disabled by hand stays off whatever its keys do.
    await call('PUT', '/api/channel/', { id, status: 2 });
    await manage({ channel_id: id, action: 'disable_all_keys' });
    await manage({ channel_id: id, action: 'enable_all_keys' });
    expect((await row(id)).status).toBe(2);
  });

  it('deletes one key or every auto-disabled key, renumbering the statuses of the rest', async () => {
    const id = await createPool(['k0', 'k1', 'k2', 'k3']);
    const info = { is_multi_key: true, multi_key_size: 4, multi_key_status_list: { '1': 3, '3': 2 }, multi_key_disabled_reason: { '1': 'status 401: bad' }, multi_key_disabled_time: { '1': 100, '3': 200 }, multi_key_polling_index: 0, multi_key_mode: 'random' };
    await t.app.ctx.db.kysely.updateTable('channels').set({ channel_info: JSON.stringify(info) }).where('id', '=', id).execute();
    expect(await manage({ channel_id: id, action: 'delete_key', key_index: 0 })).toMatchObject({ success: true, message: '密钥已删除' });
    let r = await row(id);
    expect(r.key).toBe('k1\nk2\nk3');
    expect(JSON.parse(r.channel_info!)).toMatchObject({ multi_key_size: 3, multi_key_status_list: { '0': 3, '2': 2 }, multi_key_disabled_reason: { '0': 'status 401: bad' } });
    expect(await manage({ channel_id: id, action: 'delete_disabled_keys' })).toEqual({ success: true, message: '已删除 1 个自动禁用的密钥', data: 1 });
    r = await row(id);
    expect(r.key).toBe('k2\nk3');
    expect(JSON.parse(r.channel_info!)).toMatchObject({ multi_key_size: 2, multi_key_status_list: { '1': 2 }, multi_key_disabled_time: { '1': 200 } });
    expect(await manage({ channel_id: id, action: 'delete_disabled_keys' })).toMatchObject({ success: false, message: '没有需要删除的自动禁用密钥' });
    expect(await manage({ channel_id: id, action: 'delete_key', key_index: 5 })).toMatchObject({ success: false, message: '密钥索引超出范围' });
    expect(await manage({ channel_id: id, action: 'delete_key' })).toMatchObject({ success: false, message: '未指定要删除的密钥索引' });
    await manage({ channel_id: id, action: 'delete_key', key_index: 0 });
    expect(await manage({ channel_id: id, action: 'delete_key', key_index: 0 })).toMatchObject({ success: false, message: '不能删除最后一个密钥' });
  });

  it('refuses single-key channels, unknown channels and actions, and anyone below admin', async () => {
    const [single] = (await call<number[]>('POST', '/api/channel/', { name: 'one', key: 'k', models: 'gpt-4o' })).data;
    expect(await manage({ channel_id: single, action: 'get_key_status' })).toMatchObject({ success: false, message: '该渠道不是多密钥模式' });
    expect(await manage({ channel_id: 999999, action: 'get_key_status' })).toMatchObject({ success: false, message: '渠道不存在' });
    const id = await createPool(['a', 'b']);
    expect(await manage({ channel_id: id, action: 'explode' })).toMatchObject({ success: false, message: '不支持的操作' });
    expect(await manage({ channel_id: id, action: 'disable_key' })).toMatchObject({ success: false, message: '未指定要禁用的密钥索引' });
    expect(await manage({ channel_id: id, action: 'enable_key' })).toMatchObject({ success: false, message: '未指定要启用的密钥索引' });
    expect(await manage({ channel_id: id, action: 'get_key_status' }, admin)).toMatchObject({ success: true });
    const denied = await t.call(alice, { method: 'POST', url: '/api/channel/multi_key/manage', payload: { channel_id: id, action: 'disable_all_keys' } });
    expect(denied.json()).toMatchObject({ success: false });
    const anonymous = await t.call(null, { method: 'POST', url: '/api/channel/multi_key/manage', payload: { channel_id: id, action: 'get_key_status' } });
    expect(anonymous.statusCode).toBe(401);
    expect(JSON.parse((await row(id)).channel_info!).multi_key_status_list).toBeUndefined();
  });

  it('updates the mode, appends keys keeping their statuses, or replaces the pool', async () => {
    const id = await createPool(['a', 'b']);
    await manage({ channel_id: id, action: 'disable_key', key_index: 1 });
    expect(await call('PUT', '/api/channel/', { id, key: 'b\nc', key_mode: 'append', multi_key_mode: 'random' })).toMatchObject({ success: true });
    let r = await row(id);
    expect(r.key).toBe('a\nb\nc');
    expect(JSON.parse(r.channel_info!)).toMatchObject({ multi_key_size: 3, multi_key_mode: 'random', multi_key_status_list: { '1': 2 } });
    // A blank key keeps the pool as it is.
    await call('PUT', '/api/channel/', { id, key: '', name: 'renamed' });
    expect((await row(id)).key).toBe('a\nb\nc');
    // The edit form sends the whole list back: unchanged keys keep their statuses wherever they now stand.
    await call('PUT', '/api/channel/', { id, key: 'c\nb\na' });
    r = await row(id);
    expect(r.key).toBe('c\nb\na');
    expect(JSON.parse(r.channel_info!)).toMatchObject({ multi_key_size: 3, multi_key_status_list: { '1': 2 } });
    await call('PUT', '/api/channel/', { id, key: 'x\ny' });
    r = await row(id);
    expect(r.key).toBe('x\ny');
    expect(JSON.parse(r.channel_info!)).toEqual({ is_multi_key: true, multi_key_size: 2, multi_key_polling_index: 0, multi_key_mode: 'random' });
  });
});
