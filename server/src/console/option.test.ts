import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { OPTION_DEFAULTS } from '../options/index.js';
import { testDatabases } from '../test/databases.js';
import { needs } from '../test/services.js';
import { NO_ADDRESS_LIMITS, startTestApp, type Session, type TestApp } from '../test/app.js';
import { sharedRedisUrl } from '../test/shared-redis.js';

describe.each(testDatabases())('the option API on $name', (database) => {
  let t: TestApp;
  let root: Session;
  beforeAll(async () => {
    t = await startTestApp(database);
    root = await t.root();
  });
  afterAll(() => t.close());

  const put = async (key: string, value: string) =>
    (await t.call(root, { method: 'PUT', url: '/api/option/', payload: { key, value } })).json() as { success: boolean; message: string };
  const listed = async () =>
    Object.fromEntries(
      ((await t.call(root, { method: 'GET', url: '/api/option/' })).json().data as Array<{ key: string; value: string }>).map((o) => [o.key, o.value]),
    );
  const status = async () => (await t.call(null, { method: 'GET', url: '/api/status' })).json().data as Record<string, unknown>;

  it('refuses JSON options that do not parse, each with the name of its field', async () => {
    expect(await put('ModelRatio', '{"gpt-4o": 1,')).toEqual({ success: false, message: '模型倍率不是合法的 JSON 字符串' });
    expect(await put('CompletionRatio', 'nope')).toEqual({ success: false, message: '模型补全倍率不是合法的 JSON 字符串' });
    expect(await put('CacheRatio', '')).toEqual({ success: false, message: '缓存倍率不是合法的 JSON 字符串' });
    expect(await put('GroupRatio', '{')).toEqual({ success: false, message: '分组倍率不是合法的 JSON 字符串' });
    expect(await put('ModelPrice', '[')).toEqual({ success: false, message: '模型固定价格不是合法的 JSON 字符串' });
    expect(await put('UserUsableGroups', '{"a"')).toEqual({ success: false, message: '用户可选分组不是合法的 JSON 字符串' });
    expect(await put('Chats', '[{')).toEqual({ success: false, message: '聊天配置不是合法的 JSON 字符串' });
    expect(await put('TopupGroupRatio', 'x')).toEqual({ success: false, message: '充值分组倍率不是合法的 JSON 字符串' });
  });

  it('refuses JSON of the wrong shape: ratios and prices are maps of numbers at least 0', async () => {
    expect((await put('ModelRatio', '[1, 2]')).success).toBe(false);
    expect((await put('ModelRatio', '{"gpt-4o": "1"}')).success).toBe(false);
    expect((await put('ModelPrice', '{"dall-e-3": null}')).success).toBe(false);
    expect(await put('GroupRatio', '{"default": 1, "vip": -0.5}')).toEqual({ success: false, message: '分组倍率中 vip 的值不能为负数' });
    expect((await put('UserUsableGroups', '{"default": 1}')).success).toBe(false);
    expect((await put('UserUsableGroups', '["default"]')).success).toBe(false);
    // Chats: a list of {name: URL template}.
    expect((await put('Chats', '{"a": "b"}')).success).toBe(false);
    expect((await put('Chats', '[{"a": 1}]')).success).toBe(false);
    expect((await put('Chats', '[{}]')).success).toBe(false);
    expect((await put('Chats', '["https://x"]')).success).toBe(false);
    // Nothing refused was stored.
    const stored = await listed();
    expect(JSON.parse(stored.GroupRatio)).toEqual(OPTION_DEFAULTS.GroupRatio);
    expect(JSON.parse(stored.Chats)).toEqual(OPTION_DEFAULTS.Chats);
  });

  it('accepts well-formed JSON options and lists them as stored', async () => {
    expect(await put('GroupRatio', '{"default":1,"vip":0.8}')).toEqual({ success: true, message: '' });
    expect((await put('UserUsableGroups', '{"default":"默认分组","vip":"会员"}')).success).toBe(true);
    expect((await put('Chats', '[{"NextChat":"https://chat.example.com/#/?key={key}&url={address}"}]')).success).toBe(true);
    const stored = await listed();
    expect(stored.GroupRatio).toBe('{"default":1,"vip":0.8}');
    expect(stored.UserUsableGroups).toBe('{"default":"默认分组","vip":"会员"}');
    expect((await status()).chats).toEqual([{ NextChat: 'https://chat.example.com/#/?key={key}&url={address}' }]);
  });

  it('keeps numbers in range: quotas and monitor values at least 0, the export interval at least 1, a unit above 0', async () => {
    expect(await put('QuotaForNewUser', '-1')).toEqual({ success: false, message: '新用户初始额度不能小于 0' });
    expect(await put('PreConsumedQuota', '-5')).toEqual({ success: false, message: '请求预扣费额度不能小于 0' });
    expect(await put('QuotaRemindThreshold', '-1')).toEqual({ success: false, message: '额度提醒阈值不能小于 0' });
    expect(await put('ChannelDisableThreshold', '-0.5')).toEqual({ success: false, message: '最长响应时间不能小于 0' });
    expect(await put('DataExportInterval', '0')).toEqual({ success: false, message: '数据看板更新间隔不能小于 1' });
    expect(await put('RetryTimes', '-1')).toEqual({ success: false, message: '失败重试次数不能小于 0' });
    expect(await put('RetryTimes', '1.5')).toEqual({ success: false, message: '失败重试次数的值必须是整数' });
    expect(await put('QuotaPerUnit', '0')).toEqual({ success: false, message: '单位美元额度不能小于 1' });
    expect(await put('QuotaPerUnit', 'abc')).toEqual({ success: false, message: '单位美元额度的值必须是十进制数字' });
    expect(await put('QuotaRemindThreshold', '')).toEqual({ success: false, message: '额度提醒阈值不能为空' });
    expect((await put('ChannelDisableThreshold', '0')).success).toBe(true);
    expect((await put('ChannelDisableThreshold', '2.5')).success).toBe(true);
    expect((await put('DataExportInterval', '1')).success).toBe(true);
    expect((await put('RetryTimes', '3')).success).toBe(true);
    expect(await listed()).toMatchObject({ ChannelDisableThreshold: '2.5', DataExportInterval: '1', RetryTimes: '3', QuotaPerUnit: '500000' });
  });

  it('takes only true or false for switches, one of hour/day/week for the dashboard granularity, and no unknown key', async () => {
    expect(await put('DrawingEnabled', 'yes')).toEqual({ success: false, message: 'DrawingEnabled 的值必须是 true 或 false' });
    expect((await put('DrawingEnabled', '1')).success).toBe(false);
    expect((await put('DrawingEnabled', 'TRUE')).success).toBe(false);
    expect((await put('DataExportDefaultTime', 'month')).success).toBe(false);
    expect((await put('DataExportDefaultTime', 'week')).success).toBe(true);
    expect(await put('NoSuchOption', '1')).toEqual({ success: false, message: '未知的配置项：NoSuchOption' });
    const res = await t.call(root, { method: 'PUT', url: '/api/option/', payload: { value: 'x' } });
    expect(res.json().success).toBe(false);
  });

  it('never lists a secret, and tells only whether each one is set', async () => {
    const before = (await t.call(root, { method: 'GET', url: '/api/option/secret_status' })).json();
    expect(before).toMatchObject({ success: true, data: { SMTPToken: false, GitHubClientSecret: false, WorkerValidKey: false, EpayKey: false } });
    expect((await put('SMTPToken', 'smtp-pass-9f3')).success).toBe(true);
    expect((await put('WorkerValidKey', 'worker-key-1b2')).success).toBe(true);
    const after = await t.call(root, { method: 'GET', url: '/api/option/secret_status' });
    expect(after.json().data).toMatchObject({ SMTPToken: true, WorkerValidKey: true, GitHubClientSecret: false });
    for (const value of Object.values(after.json().data as Record<string, unknown>)) expect(typeof value).toBe('boolean');
    const list = await t.call(root, { method: 'GET', url: '/api/option/' });
    expect(list.body).not.toContain('smtp-pass-9f3');
    expect(list.body).not.toContain('worker-key-1b2');
    expect(Object.keys(await listed()).filter((k) => /(Token|Secret|Key)$/.test(k))).toEqual([]);
    // Only the super admin may ask.
    const user = await t.user('optionreader');
    expect((await t.call(user, { method: 'GET', url: '/api/option/secret_status' })).statusCode).toBe(403);
  });

  it('resets the model ratios to the built-in table', async () => {
    expect((await put('ModelRatio', '{"my-model": 3}')).success).toBe(true);
    expect(JSON.parse((await listed()).ModelRatio)).toEqual({ 'my-model': 3 });
    const res = await t.call(root, { method: 'POST', url: '/api/option/rest_model_ratio' });
    expect(res.json()).toMatchObject({ success: true });
    expect(JSON.parse((await listed()).ModelRatio)).toEqual(OPTION_DEFAULTS.ModelRatio);
    const user = await t.user('ratioreset');
    expect((await t.call(user, { method: 'POST', url: '/api/option/rest_model_ratio' })).statusCode).toBe(403);
  });

  it('shows a changed switch in /api/status at once', async () => {
    const cases: Array<[string, string, string, unknown]> = [
      ['DrawingEnabled', 'false', 'enable_drawing', false],
      ['TaskEnabled', 'false', 'enable_task', false],
      ['DataExportEnabled', 'false', 'enable_data_export', false],
      ['DefaultCollapseSidebar', 'true', 'default_collapse_sidebar', true],
      ['DisplayInCurrencyEnabled', 'false', 'display_in_currency', false],
      ['MjNotifyEnabled', 'true', 'mj_notify_enabled', true],
      ['RegisterEnabled', 'false', 'register_enabled', false],
      ['PasswordLoginEnabled', 'false', 'password_login_enabled', false],
      ['EmailVerificationEnabled', 'true', 'email_verification', true],
      ['DemoSiteEnabled', 'true', 'demo_site_enabled', true],
      ['SelfUseModeEnabled', 'true', 'self_use_mode_enabled', true],
      ['QuotaPerUnit', '1000', 'quota_per_unit', 1000],
      ['TopUpLink', 'https://shop.example.com', 'top_up_link', 'https://shop.example.com'],
      ['ChatLink', 'https://chat.example.com', 'chat_link', 'https://chat.example.com'],
      ['SystemName', '新网关', 'system_name', '新网关'],
      ['Logo', 'https://cdn.example.com/logo.png', 'logo', 'https://cdn.example.com/logo.png'],
      ['Footer', '<b>页脚</b>', 'footer_html', '<b>页脚</b>'],
    ];
    for (const [key, value, field, expected] of cases) {
      expect((await put(key, value)).success, key).toBe(true);
      expect((await status())[field], field).toEqual(expected);
    }
    // Turned back so later suites sharing nothing still read like defaults here.
    expect((await put('PasswordLoginEnabled', 'true')).success).toBe(true);
    expect((await put('QuotaPerUnit', '500000')).success).toBe(true);
  });

  it('serves the notice, about and home page content as stored', async () => {
    expect((await put('Notice', '# 维护通知\n周六停机')).success).toBe(true);
    expect((await put('About', 'https://about.example.com')).success).toBe(true);
    expect((await put('HomePageContent', '<h1>欢迎</h1>')).success).toBe(true);
    expect((await t.call(null, { method: 'GET', url: '/api/notice' })).json().data).toBe('# 维护通知\n周六停机');
    expect((await t.call(null, { method: 'GET', url: '/api/about' })).json().data).toBe('https://about.example.com');
    expect((await t.call(null, { method: 'GET', url: '/api/home_page_content' })).json().data).toBe('<h1>欢迎</h1>');
  });

  it('asks for the credentials of a sign-in method before turning it on, and keeps it off', async () => {
    expect(await put('TurnstileCheckEnabled', 'true')).toEqual({
      success: false,
      message: '无法启用 Turnstile 校验，请先填入 Turnstile 校验相关配置信息！',
    });
    expect((await put('WeChatAuthEnabled', 'true')).message).toBe('无法启用微信登录，请先填入微信登录相关配置信息！');
    expect((await put('TelegramOAuthEnabled', 'true')).message).toBe('无法启用 Telegram OAuth，请先填入 Telegram Bot Token 以及 Telegram Bot Name！');
    expect(await status()).toMatchObject({ turnstile_check: false, wechat_login: false, telegram_oauth: false });
    expect((await put('TurnstileSiteKey', 'site-key')).success).toBe(true);
    expect((await put('TurnstileSecretKey', 'secret-key')).success).toBe(true);
    expect((await put('TurnstileCheckEnabled', 'true')).success).toBe(true);
    expect(await status()).toMatchObject({ turnstile_check: true, turnstile_site_key: 'site-key' });
    expect((await put('TurnstileCheckEnabled', 'false')).success).toBe(true);
  });
});

/* Two nodes on one server database and one Redis: a change made through one is served by the other at once. */
const redisUrl = sharedRedisUrl();
const sharedRedis = needs(['redis'], 'an option change on two nodes sharing a server database and Redis');
describe.each(sharedRedis ? testDatabases(['postgres', 'mysql']) : [])('an option change on two nodes sharing $name and Redis', (database) => {
  let t: TestApp;
  let other: FastifyInstance;
  beforeAll(async () => {
    t = await startTestApp(database, { REDIS_CONN_STRING: redisUrl! });
    const config = loadConfig({
      SQL_DSN: t.dbUrl!,
      REDIS_CONN_STRING: redisUrl!,
      SESSION_SECRET: 'test-secret-test-secret-test-secret',
      LOG_LEVEL: 'silent',
      NODE_TYPE: 'slave',
      ...NO_ADDRESS_LIMITS,
    });
    other = await buildApp(config, { logger: false });
  }, 60_000);
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  it('is seen by the other node in /api/status and the option list', async () => {
    const root = await t.root();
    const name = `节点-${Date.now()}`;
    for (const [key, value] of [['SystemName', name], ['DrawingEnabled', 'false'], ['GroupRatio', '{"default":1,"vip":0.7}']]) {
      const res = await t.call(root, { method: 'PUT', url: '/api/option/', payload: { key, value } });
      expect(res.json().success).toBe(true);
    }
    const statusOf = async () => (await other.inject({ method: 'GET', url: '/api/status' })).json().data as Record<string, unknown>;
    await expect.poll(async () => (await statusOf()).system_name, { timeout: 5000 }).toBe(name);
    await expect.poll(async () => (await statusOf()).enable_drawing, { timeout: 5000 }).toBe(false);
    await expect.poll(() => other.ctx.options.get('GroupRatio'), { timeout: 5000 }).toEqual({ default: 1, vip: 0.7 });
  });
});
