import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { startTestApp, type Session, type TestApp } from '../test/app.js';
import { startFakeGitHub, type FakeGitHub, type GitHubUser } from '../test/mocks/github.js';
import { closedPort } from '../test/unreachable.js';
import { findUserById, findUserByUsername } from '../store/users.js';
import { optionChanges } from '../test/option-changes.js';

const APP = { clientId: 'Iv1.test-client', clientSecret: 'test-client-secret' };

describe.each(testDatabases())('GitHub sign-in on $name', (database) => {
  let t: TestApp;
  let github: FakeGitHub;
  let nextId = 1000;
  const options = optionChanges(() => t);

  beforeAll(async () => {
    github = await startFakeGitHub(APP, { id: 1, login: 'nobody', name: null, email: null });
    t = await startTestApp(database, { GITHUB_OAUTH_URL: github.url, GITHUB_API_URL: github.url });
    for (const [key, value] of [['GitHubClientId', APP.clientId], ['GitHubClientSecret', APP.clientSecret], ['GitHubOAuthEnabled', 'true']] as const) {
      await t.app.ctx.options.set(key, value);
    }
  });
  afterAll(async () => {
    await t.close();
    await github.close();
  });
  afterEach(async () => {
    await options.restore();
    vi.restoreAllMocks();
  });

  const setOption = options.set;
  const db = () => t.app.ctx.db.kysely;
  const ghUser = (login: string, extra: Partial<GitHubUser> = {}): GitHubUser => ({ id: ++nextId, login, name: null, email: null, ...extra });
  const countUsers = async () => (await db().selectFrom('users').select('id').execute()).length;

  /** A browser's state: the state value and the cookie that binds it to the browser. */
  async function newState(query = '', cookie = ''): Promise<{ state: string; cookie: string }> {
    const res = await t.call(null, { method: 'GET', url: `/api/oauth/state${query}`, headers: cookie ? { cookie } : {} });
    const body = res.json() as { success: boolean; data: string };
    expect(body.success).toBe(true);
    const set = res.cookies.find((c) => c.name === 'oauth_state')!;
    return { state: body.data, cookie: `oauth_state=${set.value}` };
  }

  /** The callback page's call, from a browser holding `cookie` (and a session when signed in). */
  function callback(query: string, cookie: string, session?: Session) {
    const cookies = [cookie, session?.headers.cookie].filter(Boolean).join('; ');
    return t.call(null, { method: 'GET', url: `/api/oauth/github?${query}`, headers: { cookie: cookies, ...(session ? { 'new-api-user': String(session.userId) } : {}) } });
  }

  async function signIn(user: GitHubUser, session?: Session) {
    const { state, cookie } = await newState();
    const res = await callback(`code=${github.issueCode(user)}&state=${state}`, cookie, session);
    return { res, body: res.json() as { success: boolean; message: string; data?: { id: number; username: string } } };
  }

  it('gives a random state bound to the browser by its own short-lived cookie, leaving the session alone', async () => {
    const res = await t.call(null, { method: 'GET', url: '/api/oauth/state' });
    const body = res.json();
    expect(body).toMatchObject({ success: true });
    expect(body.data).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(res.cookies.map((c) => c.name)).toEqual(['oauth_state']);
    const cookie = res.cookies[0];
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/oauth', maxAge: 600 });
    expect(t.app.unsignCookie(cookie.value)).toEqual({ valid: true, renew: false, value: `${body.data}.` });
    const again = (await t.call(null, { method: 'GET', url: '/api/oauth/state' })).json().data;
    expect(again).not.toBe(body.data);
  });

  it('creates an account for a new GitHub user: name from the login, profile name, public email, default group', async () => {
    const gh = ghUser('octo-newbie', { name: 'Octo Newbie', email: 'newbie@example.com' });
    const { res, body } = await signIn(gh);
    expect(body).toMatchObject({ success: true, message: '登录成功！', data: { username: 'octo-newbie' } });
    const session = res.cookies.find((c) => c.name === 'session');
    expect(session?.httpOnly).toBe(true);
    expect(res.cookies.find((c) => c.name === 'oauth_state')?.value).toBe('');
    const row = (await findUserByUsername(db(), 'octo-newbie'))!;
    expect(row).toMatchObject({ github_id: String(gh.id), display_name: 'Octo Newbie', email: 'newbie@example.com', group: 'default', role: 1, status: 1 });
    // The session it opened works for the console.
    const self = await t.call(null, { method: 'GET', url: '/api/user/self', headers: { cookie: `session=${session!.value}`, 'new-api-user': String(row.id) } });
    expect(self.json().data).toMatchObject({ username: 'octo-newbie', github_id: String(gh.id) });
    // The same GitHub account later signs in to the same account, even under a new login (the id is what counts).
    const before = await countUsers();
    const again = await signIn({ ...gh, login: 'octo-renamed' });
    expect(again.body).toMatchObject({ success: true, data: { id: row.id, username: 'octo-newbie' } });
    expect(await countUsers()).toBe(before);
  });

  it('makes the username unique and at most 12 characters, and leaves out an email another account has', async () => {
    await t.user('octotaken');
    const first = await signIn(ghUser('octotaken', { email: 'dup@example.com' }));
    expect(first.body.data?.username).toBe('octotaken_2');
    const second = await signIn(ghUser('octotaken', { email: 'dup@example.com' }));
    expect(second.body.data?.username).toBe('octotaken_3');
    expect((await findUserByUsername(db(), 'octotaken_2'))!.email).toBe('dup@example.com');
    expect((await findUserByUsername(db(), 'octotaken_3'))!.email).toBe('');
    const long = await signIn(ghUser('a-very-long-github-login-name', { name: 'N'.repeat(40) }));
    expect(long.body.data?.username).toBe('a-very-long-');
    expect((await findUserByUsername(db(), 'a-very-long-'))!.display_name).toBe('N'.repeat(20));
  });

  it('rewards the inviter whose code the state carried, as password registration does', async () => {
    await setOption('QuotaForInviter', '3000');
    await setOption('QuotaForInvitee', '2000');
    await setOption('QuotaForNewUser', '100');
    const inviter = await t.user('ghinviter');
    const aff = (await t.call(inviter, { method: 'GET', url: '/api/user/aff' })).json().data as string;
    const { state, cookie } = await newState(`?aff=${aff}`);
    const body = (await callback(`code=${github.issueCode(ghUser('invitee-gh'))}&state=${state}`, cookie)).json();
    expect(body.success).toBe(true);
    const invitee = (await findUserByUsername(db(), 'invitee-gh'))!;
    expect(invitee).toMatchObject({ inviter_id: inviter.userId, quota: 2100 });
    expect(await findUserById(db(), inviter.userId)).toMatchObject({ aff_count: 1, aff_quota: 3000 });
  });

  it('refuses a malformed invite code in the state request', async () => {
    for (const aff of ['a.b', 'x'.repeat(33), '%E4%BD%A0']) {
      const res = await t.call(null, { method: 'GET', url: `/api/oauth/state?aff=${aff}` });
      expect(res.json(), aff).toEqual({ success: false, message: '无效的参数：aff' });
      expect(res.cookies).toEqual([]);
    }
  });

  it("binds GitHub to the signed-in account (answer 'bind'), which then signs in with it", async () => {
    const alice = await t.user('ghalice');
    const gh = ghUser('alice-gh');
    const before = await countUsers();
    const { body } = await signIn(gh, alice);
    expect(body).toEqual({ success: true, message: 'bind' });
    expect((await findUserById(db(), alice.userId))!.github_id).toBe(String(gh.id));
    expect(await countUsers()).toBe(before);
    const login = await signIn(gh);
    expect(login.body).toMatchObject({ success: true, data: { id: alice.userId, username: 'ghalice' } });
  });

  it('signs in instead of binding when the console holds no user or another one than the session', async () => {
    const dan = await t.user('ghdan');
    for (const header of ['-1', String(dan.userId + 1)]) {
      const gh = ghUser(`dan-other-${header}`.replace(/[^a-z0-9-]/g, ''));
      const { state, cookie } = await newState();
      const res = await t.call(null, {
        method: 'GET',
        url: `/api/oauth/github?code=${github.issueCode(gh)}&state=${state}`,
        headers: { cookie: `${cookie}; ${dan.headers.cookie}`, 'new-api-user': header },
      });
      expect(res.json(), header).toMatchObject({ success: true, message: '登录成功！' });
      expect(res.json().data.id).not.toBe(dan.userId);
    }
    expect((await findUserById(db(), dan.userId))!.github_id).toBe('');
  });

  it('refuses to bind a GitHub account that another account holds, and changes nothing', async () => {
    const gh = ghUser('held-gh');
    expect((await signIn(gh)).body.success).toBe(true);
    const bob = await t.user('ghbob');
    const { body } = await signIn(gh, bob);
    expect(body).toEqual({ success: false, message: '该 GitHub 账户已被绑定' });
    expect((await findUserById(db(), bob.userId))!.github_id).toBe('');
  });

  it('refuses and logs a state that is missing, different or not signed by this server', async () => {
    const warn = vi.spyOn(t.app.ctx.log, 'warn');
    const gh = ghUser('state-gh');
    const { state, cookie } = await newState();
    const other = await newState();
    const forged = `oauth_state=${encodeURIComponent(`${state}.`)}`;
    const cases: Array<[string, string]> = [
      [`code=${github.issueCode(gh)}&state=${state}`, ''],
      [`code=${github.issueCode(gh)}&state=${other.state}`, cookie],
      [`code=${github.issueCode(gh)}&state=${state}`, forged],
      [`code=${github.issueCode(gh)}&state=${state}`, other.cookie],
    ];
    const exchanges = github.requests.length;
    for (const [query, cookies] of cases) {
      expect((await callback(query, cookies)).json()).toEqual({ success: false, message: 'state 为空或不一致，请重新发起 GitHub 登录' });
    }
    expect(github.requests.length).toBe(exchanges);
    expect(await findUserByUsername(db(), 'state-gh')).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(cases.length);
    expect(warn.mock.calls[0][0]).toMatchObject({ method: 'github', reason: 'state 为空或不一致，请重新发起 GitHub 登录' });
  });

  it('refuses and logs a replayed code (GitHub refuses it) without a second account', async () => {
    const warn = vi.spyOn(t.app.ctx.log, 'warn');
    const gh = ghUser('replay-gh');
    const code = github.issueCode(gh);
    const first = await newState();
    expect((await callback(`code=${code}&state=${first.state}`, first.cookie)).json().success).toBe(true);
    const before = await countUsers();
    const second = await newState();
    expect((await callback(`code=${code}&state=${second.state}`, second.cookie)).json()).toEqual({
      success: false,
      message: 'GitHub 授权码无效或已被使用，请重新登录',
    });
    expect(await countUsers()).toBe(before);
    expect(warn.mock.calls.map((c) => (c[0] as { reason: string }).reason)).toEqual(['GitHub 授权码无效或已被使用，请重新登录']);
  });

  it('refuses malformed or missing parameters in Chinese', async () => {
    const { state, cookie } = await newState();
    const cases: Array<[string, string]> = [
      ['', '无效的参数：code'],
      [`state=${state}`, '无效的参数：code'],
      ['code=abc', '无效的参数：state'],
      [`code=a&code=b&state=${state}`, '无效的参数：code'],
      [`code=abc&state=${'s'.repeat(200)}`, '无效的参数：state'],
      [`code=${'c'.repeat(600)}&state=${state}`, '无效的参数：code'],
    ];
    for (const [query, message] of cases) expect((await callback(query, cookie)).json(), query).toEqual({ success: false, message });
  });

  it('refuses everything while GitHub sign-in is off, and logs it', async () => {
    await setOption('GitHubOAuthEnabled', 'false');
    const warn = vi.spyOn(t.app.ctx.log, 'warn');
    const { body } = await signIn(ghUser('off-gh'));
    expect(body).toEqual({ success: false, message: '管理员未开启通过 GitHub 登录以及注册' });
    expect(warn).toHaveBeenCalledOnce();
    expect(await findUserByUsername(db(), 'off-gh')).toBeUndefined();
  });

  it('creates no account while registration is closed, but still signs in bound accounts', async () => {
    const bound = ghUser('bound-closed');
    expect((await signIn(bound)).body.success).toBe(true);
    await setOption('RegisterEnabled', 'false');
    const before = await countUsers();
    expect((await signIn(ghUser('new-closed'))).body).toEqual({ success: false, message: '管理员关闭了新用户注册' });
    expect(await countUsers()).toBe(before);
    expect((await signIn(bound)).body).toMatchObject({ success: true, data: { username: 'bound-closed' } });
  });

  it('refuses banned and deregistered accounts, and binding to a banned one', async () => {
    const root = await t.root();
    const banned = ghUser('banned-gh');
    const bannedId = ((await signIn(banned)).body.data as { id: number }).id;
    await t.call(root, { method: 'POST', url: '/api/user/manage', payload: { id: bannedId, action: 'disable' } });
    expect((await signIn(banned)).body).toEqual({ success: false, message: '用户已被封禁' });

    const gone = ghUser('gone-gh');
    const goneId = ((await signIn(gone)).body.data as { id: number }).id;
    await t.call(root, { method: 'POST', url: '/api/user/manage', payload: { id: goneId, action: 'delete' } });
    expect((await signIn(gone)).body).toEqual({ success: false, message: '用户已注销' });

    const carol = await t.user('ghcarol');
    await t.call(root, { method: 'POST', url: '/api/user/manage', payload: { id: carol.userId, action: 'disable' } });
    expect((await signIn(ghUser('carol-gh'), carol)).body).toEqual({ success: false, message: '用户已被封禁' });
    expect((await findUserById(db(), carol.userId))!.github_id).toBe('');
  });

  it('never gives one GitHub account two accounts, even when two sign-ins race', async () => {
    const gh = ghUser('racer-gh');
    const before = await countUsers();
    const results = await Promise.all([0, 1, 2, 3, 4, 5].map(() => signIn(gh)));
    expect(results.every((r) => r.body.success)).toBe(true);
    expect(new Set(results.map((r) => r.body.data?.id)).size).toBe(1);
    expect(await countUsers()).toBe(before + 1);
  });

  it('says so when GitHub cannot be reached or refuses the app', async () => {
    await setOption('GitHubClientSecret', 'wrong-secret');
    expect((await signIn(ghUser('badsecret-gh'))).body).toEqual({ success: false, message: 'GitHub Client Id 或 Client Secret 错误，请联系管理员' });
    const nowhere = `http://127.0.0.1:${await closedPort()}`;
    const offline = await startTestApp(database, { GITHUB_OAUTH_URL: nowhere, GITHUB_API_URL: nowhere });
    try {
      await offline.app.ctx.options.set('GitHubClientId', APP.clientId);
      await offline.app.ctx.options.set('GitHubClientSecret', APP.clientSecret);
      await offline.app.ctx.options.set('GitHubOAuthEnabled', 'true');
      const res = await offline.call(null, { method: 'GET', url: '/api/oauth/state' });
      const cookie = `oauth_state=${res.cookies[0].value}`;
      const body = (await offline.call(null, { method: 'GET', url: `/api/oauth/github?code=abc&state=${res.json().data}`, headers: { cookie } })).json();
      expect(body).toEqual({ success: false, message: '无法连接至 GitHub 服务器，请稍后重试！' });
    } finally {
      await offline.close();
    }
  });
});
