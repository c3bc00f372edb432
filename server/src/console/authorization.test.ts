import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { Access } from '../auth/guard.js';
import { isSecretKey, OPTION_DEFAULTS } from '../options/index.js';
import { recordLog } from '../store/logs.js';
import { insertMidjourney, insertTask } from '../store/async-tasks.js';
import { telegramHash } from '../auth/oauth/telegram.js';
import { testDatabases } from '../test/databases.js';
import { startTestApp, type Session, type TestApp } from '../test/app.js';

/*
 * The authorization matrix: every registered /api route x every kind of caller, with the exact answer each access
 * level gives each of them. GET routes are called with the ids of real rows (so answers can leak what they hold);
 * other methods with ids that match nothing and an empty body, so an allowed call answers with a business result.
 * Every answer is then scanned for what must never leave the server.
 */

type Principal =
  | 'anonymous'
  | 'user'
  | 'other'
  | 'admin'
  | 'root'
  | 'disabled'
  | 'deleted'
  | 'wrongHeader'
  | 'expired'
  | 'accessToken';

const PRINCIPALS: Principal[] = ['anonymous', 'user', 'other', 'admin', 'root', 'disabled', 'deleted', 'wrongHeader', 'expired', 'accessToken'];

interface Refusal {
  status: number;
  message: string;
}

const NOT_SIGNED_IN: Refusal = { status: 401, message: '无权进行此操作，未登录且未提供 access token' };
const BANNED: Refusal = { status: 403, message: '用户已被封禁' };
const MISMATCH: Refusal = { status: 401, message: '无权进行此操作，New-Api-User 与登录用户不匹配' };
const TOO_LOW: Refusal = { status: 403, message: '无权进行此操作，权限不足' };

/** What each caller gets from a route of each level: 'ok' (the route runs) or the refusal, exactly. */
const OUTCOME: Record<Access, Record<Principal, 'ok' | Refusal>> = {
  public: Object.fromEntries(PRINCIPALS.map((p) => [p, 'ok'])) as Record<Principal, 'ok'>,
  user: {
    anonymous: NOT_SIGNED_IN,
    user: 'ok',
    other: 'ok',
    admin: 'ok',
    root: 'ok',
    disabled: BANNED,
    deleted: NOT_SIGNED_IN,
    wrongHeader: MISMATCH,
    expired: NOT_SIGNED_IN,
    accessToken: 'ok',
  },
  admin: {
    anonymous: NOT_SIGNED_IN,
    user: TOO_LOW,
    other: TOO_LOW,
    admin: 'ok',
    root: 'ok',
    disabled: BANNED,
    deleted: NOT_SIGNED_IN,
    wrongHeader: MISMATCH,
    expired: NOT_SIGNED_IN,
    accessToken: TOO_LOW,
  },
  root: {
    anonymous: NOT_SIGNED_IN,
    user: TOO_LOW,
    other: TOO_LOW,
    admin: TOO_LOW,
    root: 'ok',
    disabled: BANNED,
    deleted: NOT_SIGNED_IN,
    wrongHeader: MISMATCH,
    expired: NOT_SIGNED_IN,
    accessToken: TOO_LOW,
  },
};

/** Routes that end or change the caller's own credentials: every caller gets throw-away accounts for them. */
const SELF_DESTRUCTIVE = new Set(['DELETE /api/user/self', 'GET /api/user/token', 'GET /api/user/logout']);

const MISSING_ID = '987654';
const CHANNEL_KEY = 'sk-channel-key-never-shown-7f3a9c';

interface Answer {
  route: string;
  principal: Principal;
  res: LightMyRequestResponse;
}

describe.each(testDatabases())('authorization matrix on $name', (database) => {
  let t: TestApp;
  const sessions = {} as Record<Exclude<Principal, 'anonymous'>, Session>;
  let counter = 0;
  /** Real rows for GET routes' ids. */
  const ids: Record<string, number> = {};
  let aliceTokenKey = '';
  const secrets: string[] = [];
  const accessTokens: string[] = [];
  const answers: Answer[] = [];

  const root = () => sessions.root;
  async function asRoot(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
    const res = await t.call(root(), { method, url, payload });
    expect(res.json(), `${method} ${url}`).toMatchObject({ success: true });
    return res.json() as { data: unknown };
  }

  async function userRow(id: number) {
    return t.app.ctx.db.kysely.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  /** A new account signed in as the given kind of caller; null for anonymous. */
  async function principal(kind: Principal): Promise<Session | null> {
    if (kind === 'anonymous') return null;
    const name = `tmp${++counter}`;
    const session = await t.user(name);
    const db = t.app.ctx.db.kysely;
    switch (kind) {
      case 'admin':
        await asRoot('POST', '/api/user/manage', { id: session.userId, action: 'promote' });
        break;
      case 'root':
        // A second super admin is never made through the API; this one exists for the matrix only.
        await db.updateTable('users').set({ role: 100 }).where('id', '=', session.userId).execute();
        break;
      case 'disabled':
        await asRoot('POST', '/api/user/manage', { id: session.userId, action: 'disable' });
        break;
      case 'deleted':
        await asRoot('POST', '/api/user/manage', { id: session.userId, action: 'delete' });
        break;
      case 'wrongHeader':
        return { userId: session.userId, headers: { ...session.headers, 'new-api-user': String(session.userId + 1000) } };
      case 'expired':
        // A validly signed cookie of this account whose time is over.
        return t.signedSession(session.userId, Math.floor(Date.now() / 1000) - 60);
      case 'accessToken': {
        const token = (await t.call(session, { method: 'GET', url: '/api/user/token' })).json().data as string;
        accessTokens.push(token);
        return { userId: session.userId, headers: { authorization: token, 'new-api-user': String(session.userId) } };
      }
      default:
        break;
    }
    return session;
  }

  beforeAll(async () => {
    t = await startTestApp(database);
    sessions.root = await t.root();
    for (const kind of ['user', 'other', 'admin', 'disabled', 'deleted', 'wrongHeader', 'expired', 'accessToken'] as const) {
      sessions[kind] = (await principal(kind))!;
    }
    const alice = sessions.user;

    // Rows the GET routes read: alice's token, logs, drawing and task, a channel, a redemption code.
    const token = (await t.call(alice, {
      method: 'POST',
      url: '/api/token/',
      payload: { name: 'alice-private', remain_quota: 1000, expired_time: -1 },
    })).json().data as { id: number; key: string };
    ids.token = token.id;
    aliceTokenKey = token.key;
    await recordLog(t.app.ctx.db.kysely, { userId: alice.userId, username: 'alice', type: 2, content: 'alice-log-marker' });
    await insertMidjourney(t.app.ctx.db.kysely, { user_id: alice.userId, mj_id: 'alice-drawing', prompt: 'alice-prompt', submit_time: 1 });
    await insertTask(t.app.ctx.db.kysely, { user_id: alice.userId, task_id: 'alice-task', platform: 'suno', submit_time: 1 });
    const channelIds = (await asRoot('POST', '/api/channel/', {
      name: 'matrix',
      type: 1,
      key: CHANNEL_KEY,
      models: 'gpt-4o',
      // A port nothing listens on: channel tests and balance queries fail at once, without leaving the machine.
      base_url: 'http://127.0.0.1:9',
    })).data as number[];
    ids.channel = channelIds[0];
    await asRoot('POST', '/api/redemption/', { name: 'matrix', quota: 10, count: 1 });
    ids.redemption = ((await asRoot('GET', '/api/redemption/')).data as Array<{ id: number }>)[0].id;
    ids.user = alice.userId;

    // Every secret option gets a value that must never come back (the Turnstile site key is public by design).
    for (const key of Object.keys(OPTION_DEFAULTS)) {
      if (!isSecretKey(key) || key === 'TurnstileSiteKey') continue;
      const value = `secret-${key}-c0ffee`;
      await asRoot('PUT', '/api/option/', { key, value });
      secrets.push(value);
    }
    accessTokens.push((await t.call(alice, { method: 'GET', url: '/api/user/token' })).json().data as string);
  });
  afterAll(() => t.close());

  /** The path with real ids for reads, ids that match nothing otherwise. */
  function concreteUrl(method: string, url: string): string {
    if (method !== 'GET') return url.replace(/:[a-z_]+/gi, MISSING_ID);
    const area = url.includes('/token/') ? 'token' : url.includes('/channel/') ? 'channel' : url.includes('/redemption/') ? 'redemption' : 'user';
    return url.replace(/:[a-z_]+/gi, String(ids[area]));
  }

  it('answers every console route x every kind of caller exactly as its access level says', async () => {
    const table = t.app.accessTable;
    expect(table.length).toBeGreaterThan(50);
    const failures: string[] = [];
    for (const route of table) {
      const key = `${route.method} ${route.url}`;
      for (const kind of PRINCIPALS) {
        const session = SELF_DESTRUCTIVE.has(key) || kind === 'anonymous' ? await principal(kind) : sessions[kind];
        const res = await t.call(session, {
          method: route.method as 'GET',
          url: concreteUrl(route.method, route.url),
          ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
        });
        answers.push({ route: key, principal: kind, res });
        const expected = OUTCOME[route.access][kind];
        if (expected === 'ok') {
          if (res.statusCode !== 200) failures.push(`${key} as ${kind}: expected to run, got HTTP ${res.statusCode} ${res.body.slice(0, 120)}`);
        } else {
          const body = String(res.headers['content-type']).includes('json') ? res.json() : res.body;
          if (res.statusCode !== expected.status || JSON.stringify(body) !== JSON.stringify({ success: false, message: expected.message })) {
            failures.push(`${key} as ${kind}: expected ${expected.status} ${expected.message}, got ${res.statusCode} ${res.body.slice(0, 120)}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('admits to the playground (a relay call outside /api) only a live browser session, never an access token', async () => {
    const signedOut: Refusal = { status: 401, message: '未登录或登录已过期，请重新登录！' };
    const tokenRefused: Refusal = { status: 401, message: '暂不支持使用 access token' };
    // A model no channel serves: a caller let in gets the relay's own 404, never a charge.
    const admitted: Refusal = { status: 404, message: '当前分组 default 下对于模型 matrix-no-model 无可用渠道' };
    const expected: Record<Principal, Refusal> = {
      anonymous: signedOut,
      user: admitted,
      other: admitted,
      admin: admitted,
      root: admitted,
      disabled: BANNED,
      deleted: signedOut,
      wrongHeader: MISMATCH,
      expired: signedOut,
      accessToken: tokenRefused,
    };
    const failures: string[] = [];
    for (const kind of PRINCIPALS) {
      const session = kind === 'anonymous' ? null : sessions[kind];
      const res = await t.call(session, {
        method: 'POST',
        url: '/pg/chat/completions',
        payload: { model: 'matrix-no-model', messages: [{ role: 'user', content: 'hi' }], stream: true },
      });
      const message = (res.json() as { error?: { message?: string } }).error?.message;
      if (res.statusCode !== expected[kind].status || message !== expected[kind].message) {
        failures.push(`${kind}: expected ${expected[kind].status} ${expected[kind].message}, got ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('guards the mailbox routes as their callers need: public before sign-in, signed-in to bind', () => {
    const level = (key: string) => t.app.accessTable.find((r) => `${r.method} ${r.url}` === key)?.access;
    expect(level('GET /api/verification')).toBe('public');
    expect(level('GET /api/reset_password')).toBe('public');
    expect(level('POST /api/user/reset')).toBe('public');
    expect(level('GET /api/oauth/email/bind')).toBe('user');
  });

  it('never sends a channel key to anyone but an administrator reading that channel', () => {
    const leaks = answers
      .filter((a) => a.res.body.includes(CHANNEL_KEY))
      .filter((a) => !(a.route === 'GET /api/channel/:id' && (a.principal === 'admin' || a.principal === 'root')))
      .map((a) => `${a.route} as ${a.principal}`);
    expect(leaks).toEqual([]);
    expect(answers.some((a) => a.route === 'GET /api/channel/:id' && a.principal === 'admin' && a.res.body.includes(CHANNEL_KEY))).toBe(true);
  });

  it('never sends an option secret back, to anyone, from any route', () => {
    expect(secrets.length).toBeGreaterThanOrEqual(7);
    const leaks = answers.filter((a) => secrets.some((s) => a.res.body.includes(s))).map((a) => `${a.route} as ${a.principal}`);
    expect(leaks).toEqual([]);
  });

  it('never sends a password hash or a known access token in any answer', async () => {
    const users = await t.app.ctx.db.kysely.selectFrom('users').select(['password', 'access_token']).execute();
    const hashes = users.map((u) => u.password);
    // The hash as stored, and its digest alone (the last field of scrypt$N$r$p$salt$hash).
    const needles = [...hashes, ...hashes.map((h) => h.split('$').pop()!), ...accessTokens, ...users.map((u) => u.access_token).filter((x): x is string => !!x)];
    const leaks = answers
      .filter((a) => a.route !== 'GET /api/user/token')
      .filter((a) => needles.some((n) => a.res.body.includes(n)))
      .map((a) => `${a.route} as ${a.principal}`);
    expect(leaks).toEqual([]);
  });

  it("shows a user's token only to that user", () => {
    const seen = answers.filter((a) => a.res.body.includes(aliceTokenKey)).map((a) => `${a.route} as ${a.principal}`);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((s) => !s.endsWith(' as user'))).toEqual([]);
  });

  it("keeps one user's objects invisible and unchangeable to another through every id-taking route", async () => {
    const bob = sessions.other;
    // Every user-level route that names an object: when one is added, it must be covered here.
    const idRoutes = t.app.accessTable.filter((r) => r.access === 'user' && r.url.includes(':')).map((r) => `${r.method} ${r.url}`);
    expect(idRoutes.sort()).toEqual(['DELETE /api/token/:id', 'DELETE /api/token/:id/', 'GET /api/token/:id']);
    const before = await t.call(sessions.user, { method: 'GET', url: `/api/token/${ids.token}` });
    for (const route of idRoutes) {
      const [method, url] = route.split(' ');
      const res = await t.call(bob, { method: method as 'GET', url: url.replace(':id', String(ids.token)) });
      expect(res.json(), route).toEqual({ success: false, message: '令牌不存在' });
    }
    for (const [url, payload] of [
      ['/api/token/', { id: ids.token, name: 'hijacked', remain_quota: 0 }],
      ['/api/token/?status_only=true', { id: ids.token, status: 2 }],
    ] as const) {
      const res = await t.call(bob, { method: 'PUT', url, payload });
      expect(res.json(), url).toEqual({ success: false, message: '令牌不存在' });
    }
    const after = await t.call(sessions.user, { method: 'GET', url: `/api/token/${ids.token}` });
    expect(after.json()).toEqual(before.json());

    // Filters cannot reach another user's rows either.
    for (const url of [
      `/api/token/search?keyword=alice-private`,
      `/api/token/search?token=${aliceTokenKey}`,
      '/api/log/self/?username=alice&type=2',
      '/api/log/self/stat?username=alice',
      '/api/data/self?username=alice',
      '/api/mj/self/?mj_id=alice-drawing',
      '/api/mj/self/?channel_id=0&start_timestamp=0',
      '/api/task/self?task_id=alice-task',
      '/api/task/self/?channel_id=0',
    ]) {
      const res = await t.call(bob, { method: 'GET', url });
      expect(res.json().success, url).toBe(true);
      expect(res.body, url).not.toContain('alice');
      expect(res.body, url).not.toContain(aliceTokenKey);
    }
  });

  it('lets an administrator neither read nor change an account of equal or higher rank', async () => {
    const admin = sessions.admin;
    const rootId = root().userId;
    const rootBefore = await userRow(rootId);
    expect((await t.call(admin, { method: 'GET', url: `/api/user/${rootId}` })).json()).toEqual({ success: false, message: '无权获取同级或更高等级用户的信息' });
    for (const [url, payload] of [
      ['/api/user/', { id: rootId, password: 'takeover123', quota: 1 }],
      ['/api/user/manage', { id: rootId, action: 'disable' }],
      ['/api/user/manage', { id: rootId, action: 'demote' }],
    ] as const) {
      const method = url === '/api/user/' ? 'PUT' : 'POST';
      expect((await t.call(admin, { method, url, payload })).json(), url).toEqual({
        success: false,
        message: '无权更新同权限等级或更高权限等级的用户信息',
      });
    }
    expect(await userRow(rootId)).toEqual(rootBefore);
  });

  it('refuses every malformed or foreign New-Api-User, with a session or an access token', async () => {
    const alice = sessions.user;
    const token = sessions.accessToken;
    const cases: Array<[string | string[], string]> = [
      ['', '无权进行此操作，未提供 New-Api-User'],
      ['-1', '无权进行此操作，New-Api-User 格式错误'],
      ['abc', '无权进行此操作，New-Api-User 格式错误'],
      ['1.5', '无权进行此操作，New-Api-User 格式错误'],
      [` ${alice.userId}`, '无权进行此操作，New-Api-User 格式错误'],
      ['99999999999999999999', '无权进行此操作，New-Api-User 与登录用户不匹配'],
      [String(root().userId), '无权进行此操作，New-Api-User 与登录用户不匹配'],
    ];
    for (const session of [alice, token]) {
      for (const [header, message] of cases) {
        const res = await t.call(null, { method: 'GET', url: '/api/user/self', headers: { ...session.headers, 'new-api-user': header } });
        expect(res.statusCode, JSON.stringify(header)).toBe(401);
        expect(res.json(), JSON.stringify(header)).toEqual({ success: false, message });
      }
      const { 'new-api-user': _omitted, ...without } = session.headers;
      const res = await t.call(null, { method: 'GET', url: '/api/user/self', headers: without });
      expect(res.json()).toEqual({ success: false, message: '无权进行此操作，未提供 New-Api-User' });
    }
  });

  it('knows the level of the calls the spec names', () => {
    const level = (method: string, url: string) => t.app.accessTable.find((r) => r.method === method && r.url === url)?.access;
    expect(level('GET', '/api/status')).toBe('public');
    expect(level('POST', '/api/user/login')).toBe('public');
    expect(level('POST', '/api/user/register')).toBe('public');
    expect(level('GET', '/api/user/self')).toBe('user');
    expect(level('GET', '/api/token/')).toBe('user');
    expect(level('GET', '/api/user/')).toBe('admin');
    expect(level('POST', '/api/user/manage')).toBe('admin');
    expect(level('GET', '/api/group/')).toBe('admin');
    expect(level('GET', '/api/option/')).toBe('root');
    expect(level('PUT', '/api/option/')).toBe('root');
    expect(level('GET', '/api/option/secret_status')).toBe('root');
    expect(level('POST', '/api/option/rest_model_ratio')).toBe('root');
    expect(level('GET', '/api/data/')).toBe('admin');
    expect(level('GET', '/api/data/self')).toBe('user');
    expect(level('GET', '/api/pricing')).toBe('public');
    expect(level('POST', '/api/user/aff_transfer')).toBe('user');
    expect(level('GET', '/api/oauth/state')).toBe('public');
    expect(level('GET', '/api/oauth/github')).toBe('public');
    expect(level('GET', '/api/oauth/wechat')).toBe('public');
    expect(level('GET', '/api/oauth/wechat/bind')).toBe('user');
    expect(level('GET', '/api/oauth/telegram/login')).toBe('public');
    expect(level('GET', '/api/oauth/telegram/bind')).toBe('public');
  });

  it("binds a Telegram account (a page the widget may open, so no New-Api-User needed) only to the browser's own live session", async () => {
    const options = t.app.ctx.options;
    await options.set('TelegramOAuthEnabled', 'true');
    const signedOut = '未登录或登录已过期，请重新登录！';
    const expected: Record<Principal, string> = {
      anonymous: signedOut,
      user: 'Telegram 账户绑定成功！',
      other: 'Telegram 账户绑定成功！',
      admin: 'Telegram 账户绑定成功！',
      root: 'Telegram 账户绑定成功！',
      disabled: '用户已被封禁',
      deleted: signedOut,
      wrongHeader: signedOut,
      expired: signedOut,
      accessToken: signedOut,
    };
    try {
      let telegramId = 90_000;
      for (const kind of PRINCIPALS) {
        const session = kind === 'anonymous' ? null : sessions[kind];
        const fields = { id: String(++telegramId), first_name: 'Matrix', auth_date: String(Math.floor(Date.now() / 1000)) };
        const query = new URLSearchParams({ ...fields, hash: telegramHash(fields, options.get('TelegramBotToken')) });
        const res = await t.call(session, { method: 'GET', url: `/api/oauth/telegram/bind?${query}`, headers: { accept: 'application/json' } });
        expect(res.json().message, kind).toBe(expected[kind]);
        const holders = await t.app.ctx.db.kysely.selectFrom('users').select('id').where('telegram_id', '=', fields.id).execute();
        expect(holders.map((h) => h.id), kind).toEqual(expected[kind] === 'Telegram 账户绑定成功！' ? [session!.userId] : []);
      }
    } finally {
      await options.set('TelegramOAuthEnabled', 'false');
    }
  });

  it('lets a disabled account do nothing, even with a session opened before the ban', async () => {
    const res = await t.call(sessions.disabled, { method: 'GET', url: '/api/user/self' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ success: false, message: '用户已被封禁' });
  });
});
