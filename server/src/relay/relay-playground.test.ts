import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../test/app.js';
import { testDatabases } from '../test/databases.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';
import { startMockOpenAI, type MockOpenAI } from '../test/mock-openai.js';

/*
 * The console's playground (POST /pg/chat/completions): the signed-in user calls a model in a group of their choice
 * through the relay, charged to their own quota only (their tokens untouched), logged as playground-<group>.
 */

const MODEL = 'gpt-4o-mini';
const BALANCE = 10_000_000;
const chat = (extra: Record<string, unknown> = {}) => ({ model: MODEL, messages: [{ role: 'user', content: 'hi' }], ...extra });

interface OpenAIError {
  error: { message: string; type: string; code: string | null };
}

describe.each(testDatabases())('the playground on $name', (database) => {
  let f: RelayFixture;
  let upstream: MockOpenAI;
  let alice: Session;
  let aliceToken = 0;

  const db = () => f.t.app.ctx.db.kysely;
  const post = (headers: Record<string, string>, body: unknown) =>
    fetch(`${f.baseUrl}/pg/chat/completions`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  async function balances() {
    await f.flush();
    const user = await db().selectFrom('users').select(['quota', 'used_quota', 'request_count']).where('id', '=', alice.userId).executeTakeFirstOrThrow();
    const token = await db().selectFrom('tokens').select(['remain_quota', 'used_quota']).where('id', '=', aliceToken).executeTakeFirstOrThrow();
    return { user, token };
  }

  async function lastLog() {
    await f.flush();
    return db().selectFrom('logs').selectAll().where('type', '=', 2).where('user_id', '=', alice.userId).orderBy('id', 'desc').executeTakeFirst();
  }

  beforeAll(async () => {
    upstream = await startMockOpenAI('sk-pg-upstream');
    f = await startRelay(database);
    await f.setOption('ModelRatio', JSON.stringify({ [MODEL]: 2 }));
    await f.setOption('GroupRatio', JSON.stringify({ default: 1, vip: 2, svip: 3 }));
    await f.channel({ base_url: upstream.url, key: upstream.key, models: MODEL, group: 'default,vip,svip' });
    alice = await f.t.user('alice');
    await db().updateTable('users').set({ quota: BALANCE }).where('id', '=', alice.userId).execute();
    const created = await f.t.call(alice, { method: 'POST', url: '/api/token/', payload: { name: 'alice-key', remain_quota: 5000, expired_time: -1 } });
    aliceToken = (created.json() as { data: { id: number } }).data.id;
  });
  afterEach(() => {
    upstream.behaviour = {};
  });
  afterAll(async () => {
    await f.close();
    await upstream.close();
  });

  it('streams a reply, charges only the user and logs it as playground-<group>', async () => {
    const before = await balances();
    const res = await post(alice.headers, chat({ stream: true, group: 'default', temperature: 0.7 }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const text = await res.text();
    expect(text).toContain('"content":"Hello"');
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    // The gateway's own field never reaches the upstream; the rest of the body does.
    const sent = upstream.requests.at(-1)!.json!;
    expect(sent).not.toHaveProperty('group');
    expect(sent).toMatchObject({ model: MODEL, stream: true, temperature: 0.7 });

    const log = (await lastLog())!;
    expect(log).toMatchObject({ token_name: 'playground-default', token_id: 0, group: 'default', is_stream: 1, model_name: MODEL });
    expect(log.quota).toBeGreaterThan(0);
    const after = await balances();
    expect(before.user.quota - after.user.quota).toBe(log.quota);
    expect(after.user.used_quota - before.user.used_quota).toBe(log.quota);
    expect(after.user.request_count - before.user.request_count).toBe(1);
    expect(after.token).toEqual(before.token);
  });

  it('answers a whole reply in the chosen group, priced at that group ratio', async () => {
    await post(alice.headers, chat({ group: 'default' }));
    const defaultCost = (await lastLog())!.quota;
    const before = await balances();
    const res = await post(alice.headers, chat({ group: 'vip' }));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { choices: Array<{ message: { content: string } }> };
    expect(body.choices[0].message.content).toBeTruthy();
    const log = (await lastLog())!;
    expect(log).toMatchObject({ token_name: 'playground-vip', token_id: 0, group: 'vip', is_stream: 0 });
    expect(log.quota).toBe(defaultCost * 2);
    const after = await balances();
    expect(before.user.quota - after.user.quota).toBe(log.quota);
    expect(after.token).toEqual(before.token);
  });

  it("uses the user's own group when none is chosen", async () => {
    expect((await post(alice.headers, chat())).status).toBe(200);
    expect(await lastLog()).toMatchObject({ token_name: 'playground-default', group: 'default' });
  });

  it('refuses a group the user may not use, before calling any upstream or charging anything', async () => {
    const calls = upstream.requests.length;
    const before = await balances();
    const res = await post(alice.headers, chat({ stream: true, group: 'svip' }));
    expect(res.status).toBe(403);
    const body = (await res.json()) as OpenAIError;
    expect(body.error).toMatchObject({ message: '无权访问分组 svip', code: 'group_forbidden' });
    expect(upstream.requests.length).toBe(calls);
    expect(await balances()).toEqual(before);
  });

  it('refuses a usable group that has no price any more', async () => {
    await f.setOption('GroupRatio', JSON.stringify({ default: 1, svip: 3 }));
    try {
      const res = await post(alice.headers, chat({ group: 'vip' }));
      expect(res.status).toBe(403);
      expect(((await res.json()) as OpenAIError).error.message).toBe('分组 vip 已被弃用');
    } finally {
      await f.setOption('GroupRatio', JSON.stringify({ default: 1, vip: 2, svip: 3 }));
    }
  });

  it('refuses a group that is not a string', async () => {
    const res = await post(alice.headers, chat({ group: 7 }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as OpenAIError).error.message).toBe('group 必须是字符串');
  });

  it('refuses callers without a console session, in OpenAI format', async () => {
    const key = (await f.t.call(alice, { method: 'GET', url: '/api/token/' })).json() as { data: Array<{ key: string }> };
    const accessToken = ((await f.t.call(alice, { method: 'GET', url: '/api/user/token' })).json() as { data: string }).data;
    const cases: Array<[string, Record<string, string>, number, string]> = [
      ['nobody', {}, 401, '未登录或登录已过期，请重新登录！'],
      ['an API key', { authorization: `Bearer sk-${key.data[0].key}` }, 401, '暂不支持使用 access token'],
      ['an access token', { authorization: accessToken, 'new-api-user': String(alice.userId) }, 401, '暂不支持使用 access token'],
      ['a session of the wrong signature', { cookie: alice.headers.cookie.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')), 'new-api-user': String(alice.userId) }, 401, '未登录或登录已过期，请重新登录！'],
      ['a session without New-Api-User', { cookie: alice.headers.cookie }, 401, '无权进行此操作，未提供 New-Api-User'],
      ["another user's id", { ...alice.headers, 'new-api-user': String(alice.userId + 1) }, 401, '无权进行此操作，New-Api-User 与登录用户不匹配'],
    ];
    const before = await balances();
    for (const [who, headers, status, message] of cases) {
      const res = await post(headers, chat({ stream: true }));
      expect(res.status, who).toBe(status);
      const body = (await res.json()) as OpenAIError;
      expect(body.error.message, who).toBe(message);
      if (status === 401 && !message.startsWith('无权')) expect(body.error.code, who).toBe(message.startsWith('暂不') ? 'access_token_unsupported' : 'not_signed_in');
    }
    const expired = await f.t.signedSession(alice.userId, Math.floor(Date.now() / 1000) - 1);
    expect((await post(expired.headers, chat())).status).toBe(401);
    expect(await balances()).toEqual(before);
  });

  it('refuses a banned user', async () => {
    const bob = await f.t.user('bob');
    await f.t.call(f.root, { method: 'POST', url: '/api/user/manage', payload: { id: bob.userId, action: 'disable' } });
    const res = await post(bob.headers, chat());
    expect(res.status).toBe(403);
    expect(((await res.json()) as OpenAIError).error.message).toBe('用户已被封禁');
  });

  it('answers an upstream failure in OpenAI format and charges nothing', async () => {
    upstream.behaviour = { fail: { status: 400, message: 'bad things upstream' } };
    const before = await balances();
    const logged = (await lastLog())?.id;
    const res = await post(alice.headers, chat({ stream: true }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as OpenAIError).error.message).toContain('bad things upstream');
    expect(await balances()).toEqual(before);
    expect((await lastLog())?.id).toBe(logged);
  });

  it('refuses a user whose quota is spent, leaving the balance as it was', async () => {
    await db().updateTable('users').set({ quota: 0 }).where('id', '=', alice.userId).execute();
    f.t.app.ctx.authCache.forgetUser(alice.userId);
    try {
      const res = await post(alice.headers, chat({ stream: true }));
      expect(res.status).toBe(403);
      expect(((await res.json()) as OpenAIError).error.code).toBe('insufficient_user_quota');
    } finally {
      await db().updateTable('users').set({ quota: BALANCE }).where('id', '=', alice.userId).execute();
      f.t.app.ctx.authCache.forgetUser(alice.userId);
    }
  });
});
