import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { startTestApp, type Session, type TestApp } from '../test/app.js';
import { telegramHash } from '../auth/oauth/telegram.js';
import { findUserById } from '../store/users.js';
import { nowSeconds } from '../lib/time.js';
import { optionChanges } from '../test/option-changes.js';

const BOT_TOKEN = '7000001:AAtest-bot-token';

describe.each(testDatabases())('Telegram sign-in on $name', (database) => {
  let t: TestApp;
  let nextId = 5000;
  const options = optionChanges(() => t);

  beforeAll(async () => {
    t = await startTestApp(database);
    await t.app.ctx.options.set('TelegramBotToken', BOT_TOKEN);
    await t.app.ctx.options.set('TelegramBotName', 'switchyard_test_bot');
    await t.app.ctx.options.set('TelegramOAuthEnabled', 'true');
  });
  afterAll(() => t.close());
  afterEach(async () => {
    await options.restore();
    vi.restoreAllMocks();
  });

  const setOption = options.set;
  const db = () => t.app.ctx.db.kysely;
  const countUsers = async () => (await db().selectFrom('users').select('id').execute()).length;

  /** What the widget hands the page for this Telegram account, signed with the bot's token. */
  function widgetData(id: number, overrides: Record<string, string> = {}, token = BOT_TOKEN): URLSearchParams {
    const fields = { id: String(id), first_name: 'Tele', username: `tg${id}`, photo_url: 'https://t.me/i/userpic/320/x.jpg', auth_date: String(nowSeconds()), ...overrides };
    return new URLSearchParams({ ...fields, hash: telegramHash(fields, token) });
  }
  const login = (params: URLSearchParams) => t.call(null, { method: 'GET', url: `/api/oauth/telegram/login?${params}` });
  const bind = (s: Session | null, params: URLSearchParams, headers: Record<string, string> = { accept: 'application/json' }) =>
    t.call(s, { method: 'GET', url: `/api/oauth/telegram/bind?${params}`, headers });

  it('binds Telegram to the signed-in account, which then signs in with it (lang from the console is fine)', async () => {
    const alice = await t.user('tgalice');
    const id = ++nextId;
    expect((await bind(alice, widgetData(id))).json()).toEqual({ success: true, message: 'Telegram 账户绑定成功！' });
    expect((await findUserById(db(), alice.userId))!.telegram_id).toBe(String(id));
    const params = widgetData(id);
    params.set('lang', 'zh-CN');
    const res = await login(params);
    expect(res.json()).toMatchObject({ success: true, message: '登录成功！', data: { id: alice.userId, username: 'tgalice' } });
    expect(res.cookies.map((c) => c.name)).toEqual(['session']);
  });

  it('sends the browser back to the personal settings when the widget opened the bind URL as a page', async () => {
    const bob = await t.user('tgbob');
    const id = ++nextId;
    const res = await bind(bob, widgetData(id), { accept: 'text/html,application/xhtml+xml' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/setting?tab=personal');
    expect((await findUserById(db(), bob.userId))!.telegram_id).toBe(String(id));
  });

  it('signs in bound accounts only: an unknown Telegram account creates nothing', async () => {
    const before = await countUsers();
    expect((await login(widgetData(++nextId))).json()).toEqual({ success: false, message: '该 Telegram 账户未绑定' });
    expect(await countUsers()).toBe(before);
  });

  it('refuses and logs forged, foreign, expired and future payloads', async () => {
    const warn = vi.spyOn(t.app.ctx.log, 'warn');
    const carol = await t.user('tgcarol');
    const id = ++nextId;
    expect((await bind(carol, widgetData(id))).json().success).toBe(true);
    const forged = widgetData(id);
    forged.set('id', String(id + 1));
    const cases: Array<[URLSearchParams, string]> = [
      [forged, '无效的请求'],
      [widgetData(id, {}, '999:another-bot'), '无效的请求'],
      [widgetData(id, { auth_date: String(nowSeconds() - 86_401) }), 'Telegram 登录信息已过期，请重新登录'],
      [widgetData(id, { auth_date: String(nowSeconds() + 600) }), 'Telegram 登录信息的时间无效，请重新登录'],
    ];
    for (const [params, message] of cases) {
      expect((await login(params)).json(), message).toEqual({ success: false, message });
      expect((await bind(carol, params)).json(), message).toEqual({ success: false, message });
    }
    expect(warn).toHaveBeenCalledTimes(cases.length * 2);
    expect(warn.mock.calls[2][0]).toMatchObject({ method: 'telegram', reason: '无效的请求' });
  });

  it('refuses malformed or missing parameters in Chinese', async () => {
    const good = widgetData(++nextId);
    const cases: Array<[string, string]> = [
      ['', '无效的参数：id'],
      [`${good}&id=2`, '无效的参数：id'],
      [new URLSearchParams([...good].filter(([k]) => k !== 'hash')).toString(), '无效的参数：hash'],
      [new URLSearchParams([...good].filter(([k]) => k !== 'auth_date')).toString(), '无效的参数：auth_date'],
    ];
    for (const [query, message] of cases) {
      expect((await t.call(null, { method: 'GET', url: `/api/oauth/telegram/login?${query}` })).json(), query).toEqual({ success: false, message });
    }
  });

  it('refuses binding an account another holds, binding without a session, and banned accounts', async () => {
    const dave = await t.user('tgdave');
    const erin = await t.user('tgerin');
    const id = ++nextId;
    expect((await bind(dave, widgetData(id))).json().success).toBe(true);
    expect((await bind(erin, widgetData(id))).json()).toEqual({ success: false, message: '该 Telegram 账户已被绑定' });
    expect((await findUserById(db(), erin.userId))!.telegram_id).toBe('');
    expect((await bind(null, widgetData(++nextId))).json()).toEqual({ success: false, message: '未登录或登录已过期，请重新登录！' });

    const root = await t.root();
    await t.call(root, { method: 'POST', url: '/api/user/manage', payload: { id: dave.userId, action: 'disable' } });
    expect((await login(widgetData(id))).json()).toEqual({ success: false, message: '用户已被封禁' });
    expect((await bind(dave, widgetData(++nextId))).json()).toEqual({ success: false, message: '用户已被封禁' });
  });

  it('refuses everything while Telegram sign-in is off', async () => {
    await setOption('TelegramOAuthEnabled', 'false');
    const frank = await t.user('tgfrank');
    expect((await bind(frank, widgetData(++nextId))).json()).toEqual({ success: false, message: '管理员未开启通过 Telegram 登录以及注册' });
    expect((await login(widgetData(nextId))).json()).toEqual({ success: false, message: '管理员未开启通过 Telegram 登录以及注册' });
  });
});
