import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { startTestApp, type Session, type TestApp } from '../test/app.js';
import { startFakeWeChat, type FakeWeChat } from '../test/mocks/wechat.js';
import { closedPort } from '../test/unreachable.js';
import { findUserById } from '../store/users.js';
import { optionChanges } from '../test/option-changes.js';

const TOKEN = 'wechat-server-token';

describe.each(testDatabases())('WeChat sign-in on $name', (database) => {
  let t: TestApp;
  let wechat: FakeWeChat;
  let nextOpenId = 0;
  const options = optionChanges(() => t);

  beforeAll(async () => {
    wechat = await startFakeWeChat(TOKEN);
    t = await startTestApp(database);
    await t.app.ctx.options.set('WeChatServerAddress', `${wechat.url}/`);
    await t.app.ctx.options.set('WeChatServerToken', TOKEN);
    await t.app.ctx.options.set('WeChatAuthEnabled', 'true');
  });
  afterAll(async () => {
    await t.close();
    await wechat.close();
  });
  afterEach(async () => {
    await options.restore();
    vi.restoreAllMocks();
  });

  const setOption = options.set;
  const db = () => t.app.ctx.db.kysely;
  const openId = () => `oWx${++nextOpenId}-${Date.now()}`;
  const countUsers = async () => (await db().selectFrom('users').select('id').execute()).length;
  const login = (code: string) => t.call(null, { method: 'GET', url: `/api/oauth/wechat?code=${encodeURIComponent(code)}` });
  const bind = (s: Session, code: string) => t.call(s, { method: 'GET', url: `/api/oauth/wechat/bind?code=${encodeURIComponent(code)}` });

  it('asks the WeChat server with its token, and creates a wechat_<n> account for a new openid', async () => {
    const id = openId();
    const res = await login(wechat.issueCode(id));
    const body = res.json();
    expect(body).toMatchObject({ success: true, message: '登录成功！', data: { display_name: 'WeChat User', role: 1, status: 1, group: 'default' } });
    expect(body.data.username).toMatch(/^wechat_\d+$/);
    expect(res.cookies.map((c) => c.name)).toEqual(['session']);
    const asked = wechat.requests.at(-1)!;
    expect(asked.path).toMatch(/^\/api\/wechat\/user\?code=\d{6}$/);
    expect(asked.headers.authorization).toBe(TOKEN);
    expect((await findUserById(db(), body.data.id))!.wechat_id).toBe(id);
    // The same openid signs in to the same account.
    const before = await countUsers();
    expect((await login(wechat.issueCode(id))).json()).toMatchObject({ success: true, data: { id: body.data.id } });
    expect(await countUsers()).toBe(before);
  });

  it('refuses a wrong, used or empty code with the WeChat server\'s reason, and logs it', async () => {
    const warn = vi.spyOn(t.app.ctx.log, 'warn');
    const code = wechat.issueCode(openId());
    expect((await login(code)).json().success).toBe(true);
    expect((await login(code)).json()).toEqual({ success: false, message: '验证码错误或已过期' });
    expect((await login('000000')).json()).toEqual({ success: false, message: '验证码错误或已过期' });
    for (const url of ['/api/oauth/wechat', '/api/oauth/wechat?code=', '/api/oauth/wechat?code=%20', '/api/oauth/wechat?code=1&code=2', `/api/oauth/wechat?code=${'9'.repeat(200)}`]) {
      expect((await t.call(null, { method: 'GET', url })).json(), url).toEqual({ success: false, message: '无效的参数：code' });
    }
    expect(warn).toHaveBeenCalledTimes(7);
  });

  it('refuses while WeChat sign-in is off, creates nothing while registration is closed', async () => {
    await setOption('WeChatAuthEnabled', 'false');
    const code = wechat.issueCode(openId());
    expect((await login(code)).json()).toEqual({ success: false, message: '管理员未开启通过微信登录以及注册' });
    await setOption('WeChatAuthEnabled', 'true');
    await setOption('RegisterEnabled', 'false');
    const before = await countUsers();
    expect((await login(code)).json()).toEqual({ success: false, message: '管理员关闭了新用户注册' });
    expect(await countUsers()).toBe(before);
  });

  it('says so when the WeChat server is unreachable or refuses the token', async () => {
    await setOption('WeChatServerToken', 'wrong');
    expect((await login(wechat.issueCode(openId()))).json()).toEqual({ success: false, message: '无权进行此操作，未登录或 token 无效' });
    await setOption('WeChatServerAddress', `http://127.0.0.1:${await closedPort()}`);
    expect((await login('123456')).json()).toEqual({ success: false, message: '无法连接至微信服务器，请稍后重试！' });
  });

  it('binds WeChat to the signed-in account, which then signs in with it; refuses an openid another account holds', async () => {
    const alice = await t.user('wxalice');
    const id = openId();
    expect((await bind(alice, wechat.issueCode(id))).json()).toEqual({ success: true, message: '微信账户绑定成功！' });
    expect((await findUserById(db(), alice.userId))!.wechat_id).toBe(id);
    expect((await login(wechat.issueCode(id))).json()).toMatchObject({ success: true, data: { id: alice.userId } });

    const bob = await t.user('wxbob');
    expect((await bind(bob, wechat.issueCode(id))).json()).toEqual({ success: false, message: '该微信账号已被绑定' });
    expect((await findUserById(db(), bob.userId))!.wechat_id).toBe('');
    // Binding is for signed-in accounts only.
    const anonymous = await t.call(null, { method: 'GET', url: `/api/oauth/wechat/bind?code=${wechat.issueCode(openId())}` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('refuses banned and deregistered accounts', async () => {
    const root = await t.root();
    const banned = openId();
    const bannedId = (await login(wechat.issueCode(banned))).json().data.id as number;
    await t.call(root, { method: 'POST', url: '/api/user/manage', payload: { id: bannedId, action: 'disable' } });
    expect((await login(wechat.issueCode(banned))).json()).toEqual({ success: false, message: '用户已被封禁' });
    const gone = openId();
    const goneId = (await login(wechat.issueCode(gone))).json().data.id as number;
    await t.call(root, { method: 'POST', url: '/api/user/manage', payload: { id: goneId, action: 'delete' } });
    expect((await login(wechat.issueCode(gone))).json()).toEqual({ success: false, message: '用户已注销' });
  });
});
