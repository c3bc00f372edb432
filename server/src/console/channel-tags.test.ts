import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelDto } from '@switchyard/shared';
import { testDatabases } from '../test/databases.js';
import { startTestApp, type Session, type TestApp } from '../test/app.js';
import { consoleCaller } from '../test/console-envelope.js';
import { SETTING_MESSAGES } from './channel-settings-input.js';

/*
 * The tag mode of the channel list and the tag operations, in the established gateway's paths and bodies, and the
 * checks of a channel's param_override and setting (proxy, system prompt) on save.
 */

describe.each(testDatabases())('channel tags and settings on $name', (database) => {
  let t: TestApp;
  let root: Session;
  let admin: Session;
  let alice: Session;

  const call = consoleCaller(() => t, () => root);

  async function create(name: string, fields: object = {}): Promise<number> {
    const body = await call<number[]>('POST', '/api/channel/', { name, key: `k-${name}`, models: 'gpt-4o', group: 'default', ...fields });
    expect(body.message).toBe('');
    return body.data[0];
  }

  const channel = async (id: number) => (await call<ChannelDto>('GET', `/api/channel/${id}`)).data;
  const abilities = (id: number) =>
    t.app.ctx.db.kysely.selectFrom('abilities').selectAll().where('channel_id', '=', id).orderBy('group').orderBy('model').execute();

  beforeAll(async () => {
    t = await startTestApp(database);
    root = await t.root();
    alice = await t.user('alice');
    const bob = await t.user('bob');
    await t.app.ctx.db.kysely.updateTable('users').set({ role: 10 }).where('id', '=', bob.userId).execute();
    admin = await t.login('bob', 'password123');
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.app.ctx.db.kysely.deleteFrom('channels').execute();
    await t.app.ctx.db.kysely.deleteFrom('abilities').execute();
    await t.app.ctx.routing.load();
  });

  it('lists tag mode a page of tags at a time, each with all its channels, untagged channels left out', async () => {
    const a1 = await create('a1', { tag: 'alpha', priority: 1 });
    const a2 = await create('a2', { tag: 'alpha', priority: 5 });
    const b1 = await create('b1', { tag: 'beta' });
    await create('plain');
    const c1 = await create('c1', { tag: 'gamma' });

    const page0 = await call<ChannelDto[]>('GET', '/api/channel/?p=0&page_size=2&tag_mode=true');
    expect(page0.data.map((c) => [c.tag, c.id])).toEqual([
      ['alpha', a2],
      ['alpha', a1],
      ['beta', b1],
    ]);
    expect(page0.data.every((c) => c.key === undefined)).toBe(true);
    const page1 = await call<ChannelDto[]>('GET', '/api/channel/?p=1&page_size=2&tag_mode=true');
    expect(page1.data.map((c) => c.id)).toEqual([c1]);
    const byId = await call<ChannelDto[]>('GET', '/api/channel/?p=0&page_size=10&tag_mode=true&id_sort=true');
    expect(byId.data.map((c) => c.id)).toEqual([a2, a1, b1, c1]);
    const plain = await call<ChannelDto[]>('GET', '/api/channel/?p=0&page_size=10');
    expect(plain.data).toHaveLength(5);

    const found = await call<ChannelDto[]>('GET', '/api/channel/search?keyword=a2&tag_mode=true');
    expect(found.data.map((c) => c.id).sort()).toEqual([a1, a2].sort());
  });

  it('disables and enables every channel of a tag, abilities and routing with them', async () => {
    const x = await create('x', { tag: 'team' });
    const y = await create('y', { tag: 'team' });
    const other = await create('z', { tag: 'other' });
    const disabled = await call('POST', '/api/channel/tag/disabled', { tag: 'team' });
    expect(disabled).toMatchObject({ success: true, message: '' });
    expect([(await channel(x)).status, (await channel(y)).status, (await channel(other)).status]).toEqual([2, 2, 1]);
    expect((await abilities(x)).map((a) => a.enabled)).toEqual([0]);
    expect(t.app.ctx.routing.tiers('default', 'gpt-4o').flat().map((c) => c.id)).toEqual([other]);

    expect((await call('POST', '/api/channel/tag/enabled', { tag: 'team' })).success).toBe(true);
    expect([(await channel(x)).status, (await channel(y)).status]).toEqual([1, 1]);
    expect(t.app.ctx.routing.tiers('default', 'gpt-4o').flat().map((c) => c.id).sort()).toEqual([x, y, other].sort());

    expect(await call('POST', '/api/channel/tag/disabled', {})).toMatchObject({ success: false, message: '参数错误' });
    expect(await call('POST', '/api/channel/tag/enabled', { tag: '' })).toMatchObject({ success: false, message: '参数错误' });
  });

  it('edits every channel of a tag: new tag, priority, weight, models, groups, model mapping, param_override', async () => {
    const x = await create('x', { tag: 'team', models: 'gpt-4o' });
    const y = await create('y', { tag: 'team', models: 'gpt-4o,gpt-4o-mini' });
    const edit = await call('PUT', '/api/channel/tag', {
      tag: 'team',
      new_tag: 'squad',
      priority: 7,
      weight: 3,
      models: 'gpt-4.1,o3',
      groups: 'default,vip',
      model_mapping: '{"o3":"o3-2025"}',
      param_override: '{"temperature":0.2}',
    });
    expect(edit).toMatchObject({ success: true, message: '' });
    for (const id of [x, y]) {
      expect(await channel(id)).toMatchObject({
        tag: 'squad',
        priority: 7,
        weight: 3,
        models: 'gpt-4.1,o3',
        group: 'default,vip',
        model_mapping: '{"o3":"o3-2025"}',
        param_override: '{"temperature":0.2}',
      });
      expect((await abilities(id)).map((a) => `${a.group}/${a.model}/${a.priority}/${a.weight}/${a.tag}`)).toEqual([
        'default/gpt-4.1/7/3/squad',
        'default/o3/7/3/squad',
        'vip/gpt-4.1/7/3/squad',
        'vip/o3/7/3/squad',
      ]);
    }
    expect(t.app.ctx.routing.tiers('vip', 'o3').flat().map((c) => c.id).sort()).toEqual([x, y].sort());
    expect(t.app.ctx.routing.channel(x)?.paramOverride).toEqual({ temperature: 0.2 });

    // Empty models and groups leave them as they are; absent fields too.
    expect((await call('PUT', '/api/channel/tag', { tag: 'squad', models: '', groups: '', weight: 9 })).success).toBe(true);
    expect(await channel(x)).toMatchObject({ models: 'gpt-4.1,o3', group: 'default,vip', weight: 9, priority: 7, tag: 'squad' });

    expect(await call('PUT', '/api/channel/tag', { new_tag: 'x' })).toMatchObject({ success: false, message: 'tag不能为空' });
    expect(await call('PUT', '/api/channel/tag', { tag: 'squad', model_mapping: '{bad' })).toMatchObject({ success: false, message: '模型映射必须是合法的 JSON 格式！' });
    expect(await call('PUT', '/api/channel/tag', { tag: 'squad', param_override: '{"stream":true}' })).toMatchObject({
      success: false,
      message: SETTING_MESSAGES.paramOverrideReserved,
    });
  });

  it('answers the longest model list of a tag', async () => {
    await create('x', { tag: 'team', models: 'gpt-4o' });
    await create('y', { tag: 'team', models: 'gpt-4o,gpt-4o-mini,o3' });
    await create('z', { tag: 'team', models: 'gpt-4o,o3' });
    expect(await call('GET', '/api/channel/tag/models?tag=team')).toEqual({ success: true, message: '', data: 'gpt-4o,gpt-4o-mini,o3' });
    expect(await call('GET', '/api/channel/tag/models?tag=none')).toEqual({ success: true, message: '', data: '' });
    expect(await call('GET', '/api/channel/tag/models')).toMatchObject({ success: false, message: 'tag不能为空' });
  });

  it('lets admins use the tag calls and nobody else', async () => {
    await create('x', { tag: 'team' });
    expect((await call('POST', '/api/channel/tag/disabled', { tag: 'team' }, admin)).success).toBe(true);
    expect((await call<ChannelDto[]>('GET', '/api/channel/?tag_mode=true', undefined, admin)).data).toHaveLength(1);
    for (const [method, url] of [
      ['GET', '/api/channel/?tag_mode=true'],
      ['POST', '/api/channel/tag/disabled'],
      ['POST', '/api/channel/tag/enabled'],
      ['PUT', '/api/channel/tag'],
      ['GET', '/api/channel/tag/models?tag=team'],
    ] as const) {
      expect((await t.call(alice, { method, url, payload: method === 'GET' ? undefined : { tag: 'team' } })).statusCode).toBe(403);
      expect((await t.call(null, { method, url, payload: method === 'GET' ? undefined : { tag: 'team' } })).statusCode).toBe(401);
    }
  });

  it('checks param_override on save: JSON, an object, no stream switch', async () => {
    const msg = async (param_override: unknown) => (await call('POST', '/api/channel/', { name: 'p', key: 'k', models: 'gpt-4o', param_override })).message;
    expect(await msg('{"temperature":')).toBe('参数覆盖必须是合法的 JSON 格式！');
    expect(await msg('[1,2]')).toBe(SETTING_MESSAGES.paramOverrideNotObject);
    expect(await msg('"text"')).toBe(SETTING_MESSAGES.paramOverrideNotObject);
    expect(await msg('{"stream":false}')).toBe(SETTING_MESSAGES.paramOverrideReserved);
    expect(await msg({ stream_options: { include_usage: false } })).toBe(SETTING_MESSAGES.paramOverrideReserved);
    expect(await msg(`{"x":"${'a'.repeat(70_000)}"}`)).toBe(SETTING_MESSAGES.paramOverrideTooLong);
    expect(await msg({ temperature: 0.5, max_tokens: 100 })).toBe('');
  });

  it('checks the setting on save: proxy URL, system prompt, override switch; keeps other keys', async () => {
    const msg = async (setting: unknown) => (await call('POST', '/api/channel/', { name: 's', key: 'k', models: 'gpt-4o', setting })).message;
    expect(await msg('{oops')).toBe('渠道额外设置必须是合法的 JSON 格式！');
    expect(await msg('["proxy"]')).toBe(SETTING_MESSAGES.settingNotObject);
    for (const proxy of ['127.0.0.1:1080', 'ftp://proxy:21', 'socks4://127.0.0.1:1080', 'http://', 'http://proxy:8080/path', 42]) {
      expect(await msg({ proxy }), String(proxy)).toBe(SETTING_MESSAGES.badProxy);
    }
    expect(await msg({ system_prompt: ['a'] })).toBe(SETTING_MESSAGES.badSystemPrompt);
    expect(await msg({ system_prompt: 'a'.repeat(100_001) })).toBe(SETTING_MESSAGES.systemPromptTooLong);
    expect(await msg({ system_prompt_override: 'yes' })).toBe(SETTING_MESSAGES.badSystemPromptOverride);
    for (const proxy of ['', 'http://127.0.0.1:8080', 'https://user:pw@proxy.example:8443', 'socks5://127.0.0.1:1080', 'socks5h://proxy.example']) {
      expect(await msg({ proxy }), proxy).toBe('');
    }
    const id = await create('kept', { setting: { proxy: 'socks5://127.0.0.1:1080', system_prompt: '你好', force_format: true } });
    expect(JSON.parse((await channel(id)).setting)).toEqual({ proxy: 'socks5://127.0.0.1:1080', system_prompt: '你好', force_format: true });
    expect(t.app.ctx.routing.channel(id)?.settings).toMatchObject({ proxy: 'socks5://127.0.0.1:1080', systemPrompt: '你好', systemPromptOverride: false });

    const update = await call('PUT', '/api/channel/', { id, setting: { proxy: 'nope' } });
    expect(update).toMatchObject({ success: false, message: SETTING_MESSAGES.badProxy });
  });
});
