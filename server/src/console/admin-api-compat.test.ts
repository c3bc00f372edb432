import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogPage, MidjourneyDto, Page, TaskDto, TokenDto, UserDto } from '@switchyard/shared';
import { testDatabases } from '../test/databases.js';
import { startTestApp, type Session, type TestApp } from '../test/app.js';
import { consoleCaller } from '../test/console-envelope.js';
import { nowSeconds } from '../lib/time.js';
import { insertChannels } from '../store/channels.js';
import { insertMidjourney, insertTask } from '../store/async-tasks.js';
import { recordConsumeLog } from '../store/logs.js';

/*
 * The established gateway's admin API as operators' scripts and its own console read it (docs/admin-api-compat.md):
 * each answer keeps the field names they use, and never the secrets this project keeps back. A field renamed or
 * dropped here breaks someone's script.
 */

const USER_FIELDS = [
  'id', 'username', 'display_name', 'role', 'status', 'email', 'github_id', 'wechat_id', 'telegram_id', 'oidc_id',
  'quota', 'used_quota', 'request_count', 'group', 'aff_code', 'aff_count', 'aff_quota', 'aff_history_quota', 'inviter_id', 'DeletedAt',
];
/** Kept back on purpose (the established gateway sends access_token in lists). */
const USER_SECRETS = ['password', 'access_token', 'setting'];

const TOKEN_FIELDS = [
  'id', 'user_id', 'key', 'status', 'name', 'created_time', 'accessed_time', 'expired_time', 'remain_quota',
  'unlimited_quota', 'used_quota', 'model_limits_enabled', 'model_limits', 'allow_ips', 'group',
];
const CHANNEL_FIELDS = [
  'id', 'type', 'name', 'status', 'openai_organization', 'test_model', 'weight', 'created_time', 'test_time', 'response_time',
  'base_url', 'other', 'balance', 'balance_updated_time', 'models', 'group', 'used_quota', 'model_mapping', 'status_code_mapping',
  'priority', 'auto_ban', 'other_info', 'tag', 'setting', 'param_override',
];
const REDEMPTION_FIELDS = ['id', 'user_id', 'key', 'status', 'name', 'quota', 'created_time', 'redeemed_time', 'used_user_id'];
const LOG_FIELDS = [
  'id', 'user_id', 'created_at', 'type', 'content', 'username', 'token_name', 'model_name', 'quota', 'prompt_tokens',
  'completion_tokens', 'use_time', 'is_stream', 'channel', 'channel_name', 'token_id', 'group', 'other',
];
const STATUS_FIELDS = [
  'version', 'start_time', 'email_verification', 'github_oauth', 'github_client_id', 'telegram_oauth', 'telegram_bot_name',
  'system_name', 'logo', 'footer_html', 'wechat_qrcode', 'wechat_login', 'server_address', 'price', 'min_topup', 'turnstile_check',
  'turnstile_site_key', 'top_up_link', 'quota_per_unit', 'display_in_currency', 'enable_batch_update', 'enable_drawing', 'enable_task',
  'enable_data_export', 'data_export_default_time', 'default_collapse_sidebar', 'enable_online_topup', 'mj_notify_enabled', 'chats',
  'docs_link', 'demo_site_enabled', 'self_use_mode_enabled', 'linuxdo_oauth', 'linuxdo_client_id', 'oidc_enabled', 'oidc_client_id',
  'oidc_authorization_endpoint', 'setup',
];

const keysOf = (o: object) => Object.keys(o);

describe.each(testDatabases())('the established admin API on $name', (database) => {
  let t: TestApp;
  let root: Session;
  let alice: Session;
  let token: TokenDto;
  const call = consoleCaller(() => t, () => root);

  beforeAll(async () => {
    t = await startTestApp(database);
    root = await t.root();
    alice = await t.user('alice');
    expect((await call('POST', '/api/token/', { name: 'scripted', remain_quota: 1000, expired_time: -1 }, alice)).success).toBe(true);
    [token] = (await call<TokenDto[]>('GET', '/api/token/?p=0&size=10', undefined, alice)).data;
    const db = t.app.ctx.db.kysely;
    await insertChannels(db, [
      {
        type: 1, key: 'sk-upstream-secret', openai_organization: '', test_model: '', status: 1, name: 'main', weight: 0, base_url: '', other: '',
        models: 'gpt-4o,o3', group: 'default', model_mapping: '', status_code_mapping: '', priority: 0, auto_ban: 1, tag: '', setting: '',
        param_override: '', max_input_tokens: 0,
      },
    ]);
    await t.app.ctx.routing.load();
    const base = {
      userId: alice.userId, username: 'alice', tokenId: token.id, tokenName: token.name, quota: 300, promptTokens: 20, completionTokens: 10,
      useTime: 1, isStream: false, channelId: 1, group: 'default', other: { admin_info: { use_channel: [1] } }, createdAt: nowSeconds(),
    };
    await recordConsumeLog(db, { ...base, modelName: 'gpt-4o' });
    await recordConsumeLog(db, { ...base, modelName: 'o3', tokenId: 0, tokenName: 'other' });
  });
  afterAll(() => t.close());

  it('lists, searches and reads users with the established field names and without secrets', async () => {
    const list = (await call<Page<UserDto>>('GET', '/api/user/?p=0&page_size=10')).data;
    const found = (await call<Page<UserDto>>('GET', '/api/user/search?keyword=alice&p=0&page_size=10')).data;
    const one = (await call<UserDto>('GET', `/api/user/${alice.userId}`)).data;
    const self = (await call<UserDto>('GET', '/api/user/self', undefined, alice)).data;
    // Pages as the established console reads them (data.items, data.total, data.page), p from 1 with 0 read as 1.
    expect(list).toMatchObject({ page: 1, page_size: 10, total: list.items.length });
    expect(found).toMatchObject({ page: 1, page_size: 10, total: 1 });
    for (const user of [...list.items, ...found.items, one, self]) {
      expect(keysOf(user)).toEqual(expect.arrayContaining(USER_FIELDS));
      for (const secret of USER_SECRETS) expect(user).not.toHaveProperty(secret);
    }
    expect(one).toMatchObject({ github_id: '', wechat_id: '', telegram_id: '', aff_count: 0, aff_quota: 0, aff_history_quota: 0, DeletedAt: null });
  });

  it('deletes a user with DELETE /api/user/:id as the manage action does (kept, marked deleted)', async () => {
    const bob = await t.user('bob');
    expect((await call('DELETE', `/api/user/${bob.userId}`)).success).toBe(true);
    const gone = (await call<Page<UserDto>>('GET', '/api/user/search?keyword=bob')).data.items[0];
    expect(gone.DeletedAt).not.toBeNull();
    expect((await call('DELETE', `/api/user/${bob.userId}`)).success).toBe(false);
    // The super admin cannot be deleted this way either.
    expect((await call('DELETE', `/api/user/${root.userId}`)).success).toBe(false);
    const relay = await t.call(null, { method: 'GET', url: '/v1/models', headers: { authorization: 'Bearer sk-nothing' } });
    expect(relay.statusCode).toBe(401);
  });

  it('lists tokens (p from 0, size), channels (p, page_size; no key) and redemption codes as plain lists', async () => {
    const tokens = (await call<TokenDto[]>('GET', '/api/token/?p=0&size=10', undefined, alice)).data;
    expect(keysOf(tokens[0])).toEqual(expect.arrayContaining(TOKEN_FIELDS));
    const channels = (await call<Array<Record<string, unknown>>>('GET', '/api/channel/?p=0&page_size=10&id_sort=true')).data;
    expect(keysOf(channels[0])).toEqual(expect.arrayContaining(CHANNEL_FIELDS));
    expect(JSON.stringify(channels)).not.toContain('sk-upstream-secret');
    const searched = (await call<Array<Record<string, unknown>>>('GET', '/api/channel/search?keyword=main&group=&model=')).data;
    expect(JSON.stringify(searched)).not.toContain('sk-upstream-secret');
    await call('POST', '/api/redemption/', { name: 'gift', quota: 100000, count: 1 });
    const codes = (await call<Array<Record<string, unknown>>>('GET', '/api/redemption/?p=0')).data;
    expect(keysOf(codes[0])).toEqual(expect.arrayContaining(REDEMPTION_FIELDS));
  });

  it('lists drawings and async tasks as plain lists, p from 0 and 10 rows unless page_size says', async () => {
    const db = t.app.ctx.db.kysely;
    for (let i = 0; i < 11; i += 1) {
      await insertMidjourney(db, { mj_id: `compat-mj-${i}`, user_id: alice.userId, submit_time: (nowSeconds() - 60) * 1000 });
      await insertTask(db, { task_id: `compat-task-${i}`, user_id: alice.userId, submit_time: nowSeconds() - 60, platform: 'suno' });
    }
    for (const [url, own] of [['/api/mj/', '/api/mj/self/'], ['/api/task/', '/api/task/self']]) {
      const first = (await call<Array<MidjourneyDto | TaskDto>>('GET', `${url}?p=0`)).data;
      expect(Array.isArray(first), url).toBe(true);
      expect(first, url).toHaveLength(10);
      expect((await call<unknown[]>('GET', `${url}?p=1`)).data, url).toHaveLength(1);
      expect((await call<unknown[]>('GET', `${url}?p=1&page_size=5`)).data, url).toHaveLength(5);
      expect((await call<unknown[]>('GET', `${own}?p=0`, undefined, alice)).data, own).toHaveLength(10);
    }
  });

  it('pages logs as {items, total, page, page_size} and answers stat with quota, rpm and tpm (and the hit rate\'s sums)', async () => {
    const page = (await call<LogPage>('GET', '/api/log/?p=1&page_size=10&type=2&username=alice&token_name=&model_name=&start_timestamp=0&end_timestamp=0&channel=0')).data;
    expect(page).toMatchObject({ total: 2, page: 1, page_size: 10 });
    for (const item of page.items) expect(keysOf(item)).toEqual(expect.arrayContaining(LOG_FIELDS));
    const own = (await call<LogPage>('GET', '/api/log/self/?p=1&page_size=10', undefined, alice)).data;
    expect(own.items).toHaveLength(2);
    expect(own.items.every((l) => !l.other.includes('admin_info') && l.channel === 0)).toBe(true);

    const stat = (await call<Record<string, unknown>>('GET', '/api/log/stat?type=2&username=alice')).data;
    expect(stat).toEqual({ quota: 600, rpm: 2, tpm: 60, prompt_tokens: 40, cache_tokens: 0 });
    const selfStat = (await call<Record<string, unknown>>('GET', '/api/log/self/stat?type=2', undefined, alice)).data;
    expect(selfStat).toEqual({ quota: 600, rpm: 2, tpm: 60, prompt_tokens: 40, cache_tokens: 0 });
  });

  it('searches logs by keyword (type number or start of content) as a list', async () => {
    const byType = (await call<Array<Record<string, unknown>>>('GET', '/api/log/search?keyword=2')).data;
    expect(byType.map((l) => l.model_name).sort()).toEqual(['gpt-4o', 'o3']);
    expect(keysOf(byType[0])).toEqual(expect.arrayContaining(LOG_FIELDS));
    const own = (await call<Array<Record<string, unknown>>>('GET', '/api/log/self/search?keyword=2', undefined, alice)).data;
    expect(own).toHaveLength(2);
    expect(own.every((l) => l.channel === 0 && !String(l.other).includes('admin_info'))).toBe(true);
    expect((await call<unknown[]>('GET', '/api/log/self/search?keyword=2', undefined, await t.user('carol'))).data).toEqual([]);
    expect((await call<unknown[]>('GET', '/api/log/search?keyword=nothing%25like')).data).toEqual([]);
  });

  it('answers GET /api/log/token?key= to whoever holds the key, with CORS, the owner\'s view of that key only', async () => {
    const res = await t.call(null, { method: 'GET', url: `/api/log/token?key=sk-${token.key}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const logs = (res.json() as { data: Array<Record<string, unknown>> }).data;
    expect(logs.map((l) => l.model_name)).toEqual(['gpt-4o']);
    expect(String(logs[0].other)).not.toContain('admin_info');
    const unknown = await t.call(null, { method: 'GET', url: '/api/log/token?key=sk-unknown' });
    expect(unknown.json()).toMatchObject({ success: false });
  });

  it('keeps the status fields the established console reads, and the smaller calls it makes', async () => {
    const status = (await call<Record<string, unknown>>('GET', '/api/status', undefined, alice)).data;
    expect(keysOf(status)).toEqual(expect.arrayContaining(STATUS_FIELDS));
    // Its setup wizard opens when setup is not true: never here, root exists from the first start.
    expect(status.setup).toBe(true);
    expect((await call('GET', '/api/setup', undefined, alice)).data).toEqual({ status: true, root_init: true, database_type: database.name });
    expect(await call('POST', '/api/setup', { username: 'x', password: 'password123', confirmPassword: 'password123' }, alice)).toMatchObject({
      success: false,
    });
    const groups = (await call<Record<string, { desc: string; ratio: number }>>('GET', '/api/user/self/groups', undefined, alice)).data;
    expect(groups).toEqual((await call('GET', '/api/user/groups', undefined, alice)).data);
    expect(groups.default).toMatchObject({ ratio: 1 });
    expect((await call<string[]>('GET', '/api/channel/models_enabled')).data).toEqual(['gpt-4o', 'o3']);
  });

  it('answers a call without login, or with a New-Api-User that is not the caller, with 401', async () => {
    expect((await t.call(null, { method: 'GET', url: '/api/user/self' })).statusCode).toBe(401);
    const other = { ...alice, headers: { ...alice.headers, 'new-api-user': String(root.userId) } };
    expect((await t.call(other, { method: 'GET', url: '/api/user/self' })).statusCode).toBe(401);
    // A signed-in user on an admin call: a business refusal, not a login problem.
    const refused = await t.call(alice, { method: 'GET', url: '/api/user/?p=0' });
    expect(refused.statusCode).not.toBe(401);
  });
});
