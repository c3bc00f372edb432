import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { startTestApp, type TestApp } from '../test/app.js';

describe.each(testDatabases())('status and options on $name', (database) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(database);
  });
  afterAll(() => t.close());

  it('serves every client-cached status field from the options', async () => {
    const res = await t.call(null, { method: 'GET', url: '/api/status' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    for (const field of [
      'system_name', 'logo', 'footer_html', 'quota_per_unit', 'display_in_currency', 'enable_drawing', 'enable_task',
      'enable_data_export', 'chats', 'data_export_default_time', 'default_collapse_sidebar', 'mj_notify_enabled',
      'chat_link', 'chat_link2', 'github_oauth', 'github_client_id', 'wechat_login', 'wechat_qrcode', 'telegram_oauth',
      'telegram_bot_name', 'turnstile_check', 'turnstile_site_key', 'email_verification', 'server_address',
      'top_up_link', 'min_topup', 'enable_online_topup',
    ]) {
      expect(body.data, field).toHaveProperty(field);
    }
    expect(body.data.quota_per_unit).toBe(500000);
    expect(body.data.root_default_password).toBe(true);
  });

  it('lets the super admin change an option and shows the change at once', async () => {
    const root = await t.root();
    const put = await t.call(root, { method: 'PUT', url: '/api/option/', payload: { key: 'SystemName', value: '测试网关' } });
    expect(put.json()).toMatchObject({ success: true });
    const status = await t.call(null, { method: 'GET', url: '/api/status' });
    expect(status.json().data.system_name).toBe('测试网关');
  });

  it('never returns secret options', async () => {
    const root = await t.root();
    await t.call(root, { method: 'PUT', url: '/api/option/', payload: { key: 'SMTPToken', value: 'hunter2' } });
    const res = await t.call(root, { method: 'GET', url: '/api/option/' });
    const keys = (res.json().data as Array<{ key: string }>).map((o) => o.key);
    expect(keys).toContain('SystemName');
    expect(keys.filter((k) => /(Token|Secret|Key)$/.test(k))).toEqual([]);
  });

  it('rejects JSON options that are not valid JSON with the spec message', async () => {
    const root = await t.root();
    const res = await t.call(root, { method: 'PUT', url: '/api/option/', payload: { key: 'TopupGroupRatio', value: '{bad' } });
    expect(res.json()).toEqual({ success: false, message: '充值分组倍率不是合法的 JSON 字符串' });
    const ratio = await t.call(root, { method: 'PUT', url: '/api/option/', payload: { key: 'GroupRatio', value: '[1,2]' } });
    expect(ratio.json().success).toBe(false);
  });

  it('requires credentials before enabling GitHub OAuth', async () => {
    const root = await t.root();
    const res = await t.call(root, { method: 'PUT', url: '/api/option/', payload: { key: 'GitHubOAuthEnabled', value: 'true' } });
    expect(res.json().message).toBe('无法启用 GitHub OAuth，请先填入 GitHub Client Id 以及 GitHub Client Secret！');
  });

  it('refuses anonymous callers and a mismatched New-Api-User header with 401', async () => {
    const anon = await t.call(null, { method: 'GET', url: '/api/option/' });
    expect(anon.statusCode).toBe(401);
    const root = await t.root();
    const wrong = await t.call(root, { method: 'GET', url: '/api/option/', headers: { 'new-api-user': '999' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe('无权进行此操作，New-Api-User 与登录用户不匹配');
  });
});
