import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenDto } from '@switchyard/shared';
import { testDatabases } from '../test/databases.js';
import { startTestApp, type Session, type TestApp } from '../test/app.js';
import { hashPassword } from '../auth/password.js';
import { insertUser } from '../store/users.js';
import { findTokenByKey } from '../store/tokens.js';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { randomAlphanumeric } from '../lib/random.js';
import { nowSeconds } from '../lib/time.js';

interface Body<T = unknown> {
  success: boolean;
  message: string;
  data: T;
}

describe.each(testDatabases())('tokens API on $name', (database) => {
  let t: TestApp;
  let alice: Session;
  let bob: Session;

  /** Registration lives in another area; these suites create their users directly. */
  async function makeUser(username: string, group = 'default'): Promise<Session> {
    await insertUser(t.app.ctx.db.kysely, {
      username,
      password: await hashPassword('password123'),
      aff_code: randomAlphanumeric(8),
      group,
    });
    return t.login(username, 'password123');
  }

  async function call<T = TokenDto>(session: Session, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object): Promise<Body<T>> {
    const res = await t.call(session, { method, url, payload });
    expect(res.statusCode).toBe(200);
    return res.json() as Body<T>;
  }

  const create = (session: Session, fields: object = {}) =>
    call(session, 'POST', '/api/token/', { name: 'test', remain_quota: 500000, expired_time: -1, unlimited_quota: false, ...fields });

  async function created(session: Session, fields: object = {}): Promise<TokenDto> {
    const body = await create(session, fields);
    expect(body.message).toBe('');
    expect(body.success).toBe(true);
    return body.data;
  }

  beforeAll(async () => {
    t = await startTestApp(database);
    alice = await makeUser('alice');
    bob = await makeUser('bob');
  });
  afterAll(() => t.close());

  it('creates a token with a 48-character alphanumeric key, returned without sk-', async () => {
    const token = await created(alice, {
      name: '  my key  ',
      model_limits_enabled: true,
      model_limits: 'gpt-4o, claude-3,gpt-4o',
      allow_ips: '1.2.3.4\n\n 10.0.0.0/8 \n',
      group: 'vip',
    });
    expect(token.key).toMatch(/^[a-zA-Z0-9]{48}$/);
    expect(token).toMatchObject({
      user_id: alice.userId,
      name: 'my key',
      status: 1,
      remain_quota: 500000,
      used_quota: 0,
      unlimited_quota: false,
      expired_time: -1,
      model_limits_enabled: true,
      model_limits: 'gpt-4o,claude-3',
      allow_ips: '1.2.3.4\n10.0.0.0/8',
      group: 'vip',
    });
    expect(Math.abs(token.created_time - nowSeconds())).toBeLessThan(5);
    const stored = await findTokenByKey(t.app.ctx.db.kysely, token.key);
    expect(stored?.id).toBe(token.id);
  });

  it('refuses anonymous callers with 401', async () => {
    const res = await t.call(null, { method: 'GET', url: '/api/token/?p=0&size=10' });
    expect(res.statusCode).toBe(401);
  });

  it('lists own tokens newest first, page by page, with the page size clamped to 1..100', async () => {
    const carol = await makeUser('carol');
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await created(carol, { name: `t${i}` })).id);
    const newestFirst = [...ids].reverse();
    const page0 = await call<TokenDto[]>(carol, 'GET', '/api/token/?p=0&size=2');
    expect(page0.data.map((x) => x.id)).toEqual(newestFirst.slice(0, 2));
    const page2 = await call<TokenDto[]>(carol, 'GET', '/api/token/?p=2&size=2');
    expect(page2.data.map((x) => x.id)).toEqual(newestFirst.slice(4));
    const beyond = await call<TokenDto[]>(carol, 'GET', '/api/token/?p=9&size=2');
    expect(beyond.data).toEqual([]);
    const tiny = await call<TokenDto[]>(carol, 'GET', '/api/token/?p=0&size=-3');
    expect(tiny.data).toHaveLength(1);
    const huge = await call<TokenDto[]>(carol, 'GET', '/api/token/?p=0&size=100000');
    expect(huge.data).toHaveLength(5);
    expect(huge.data.every((x) => x.user_id === carol.userId && !x.key.startsWith('sk-'))).toBe(true);
  });

  it('searches by name substring and by key, with or without sk-, exact or by prefix, trimming both', async () => {
    const dave = await makeUser('dave');
    const a = await created(dave, { name: 'Production 100%' });
    const b = await created(dave, { name: 'staging_1' });
    const search = async (query: string) =>
      (await call<TokenDto[]>(dave, 'GET', `/api/token/search?${query}`)).data.map((x) => x.id).sort();
    expect(await search('keyword=duct')).toEqual([a.id]);
    expect(await search('keyword=%20PRODUCTION%20')).toEqual([a.id]);
    expect(await search(`keyword=${encodeURIComponent('100%')}`)).toEqual([a.id]);
    expect(await search(`keyword=${encodeURIComponent('g_')}`)).toEqual([b.id]);
    expect(await search('keyword=nothing')).toEqual([]);
    expect(await search(`token=${b.key}`)).toEqual([b.id]);
    expect(await search(`token=sk-${b.key}`)).toEqual([b.id]);
    expect(await search(`token=${encodeURIComponent(`  sk-${a.key.slice(0, 10)} `)}`)).toEqual([a.id]);
    expect(await search(`token=${a.key.slice(0, 10)}&keyword=staging`)).toEqual([]);
    expect(await search(`token=${encodeURIComponent('%')}`)).toEqual([]);
    // Keys match case-sensitively, even where the database collation does not.
    const flipped = a.key.replace(/[a-zA-Z]/, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
    expect(await search(`token=${flipped}`)).toEqual([]);
    expect(await search('keyword=&token=')).toEqual([a.id, b.id].sort());
  });

  it('reads one token', async () => {
    const token = await created(alice, { name: 'read me' });
    const body = await call(alice, 'GET', `/api/token/${token.id}`);
    expect(body).toMatchObject({ success: true, data: { id: token.id, key: token.key, name: 'read me' } });
    expect((await call(alice, 'GET', '/api/token/999999')).message).toBe('令牌不存在');
    expect((await call(alice, 'GET', '/api/token/abc')).message).toBe('令牌不存在');
  });

  it('updates the sent fields and returns the token', async () => {
    const token = await created(alice, { name: 'before' });
    const later = nowSeconds() + 3600;
    const body = await call(alice, 'PUT', '/api/token/', {
      id: token.id,
      name: 'after',
      remain_quota: 42,
      expired_time: later,
      unlimited_quota: true,
      model_limits_enabled: true,
      model_limits: 'a,b',
      allow_ips: '::1\n2001:db8::/32',
      group: 'default',
      // Not changed by a full update: the status has its own call.
      status: 2,
      key: 'x'.repeat(48),
    });
    expect(body.success).toBe(true);
    expect(body.data).toMatchObject({
      id: token.id,
      key: token.key,
      name: 'after',
      remain_quota: 42,
      expired_time: later,
      unlimited_quota: true,
      model_limits_enabled: true,
      model_limits: 'a,b',
      allow_ips: '::1\n2001:db8::/32',
      group: 'default',
      status: 1,
    });
    const partial = await call(alice, 'PUT', '/api/token/', { id: token.id, name: 'renamed' });
    expect(partial.data).toMatchObject({ name: 'renamed', remain_quota: 42, expired_time: later });
  });

  it('switches status only, returning data.status, and refuses to enable expired or exhausted tokens', async () => {
    const db = t.app.ctx.db.kysely;
    const token = await created(alice, { remain_quota: 100 });
    const off = await call(alice, 'PUT', '/api/token/?status_only=true', { id: token.id, status: 2, name: 'ignored' });
    expect(off).toMatchObject({ success: true, data: { status: 2, name: 'test' } });
    const on = await call(alice, 'PUT', '/api/token/?status_only=true', { id: token.id, status: 1 });
    expect(on.data.status).toBe(1);
    expect((await call(alice, 'PUT', '/api/token/?status_only=true', { id: token.id, status: 3 })).message).toBe('无效的令牌状态');

    // Exhausted: reads as 4, cannot be enabled, revives once quota is added.
    await spend(db, token.id, 100);
    expect((await call(alice, 'GET', `/api/token/${token.id}`)).data.status).toBe(4);
    await call(alice, 'PUT', '/api/token/?status_only=true', { id: token.id, status: 2 });
    expect((await call(alice, 'PUT', '/api/token/?status_only=true', { id: token.id, status: 1 })).message).toBe(
      '令牌可用额度已用尽，无法启用，请先修改令牌剩余额度，或者设置为无限额度',
    );
    await call(alice, 'PUT', '/api/token/', { id: token.id, unlimited_quota: true });
    expect((await call(alice, 'PUT', '/api/token/?status_only=true', { id: token.id, status: 1 })).data.status).toBe(1);

    // Expired: reads as 3, cannot be enabled, revives once the expiry moves forward.
    await db.updateTable('tokens').set({ expired_time: nowSeconds() - 10, status: 2 }).where('id', '=', token.id).execute();
    expect((await call(alice, 'PUT', '/api/token/?status_only=true', { id: token.id, status: 1 })).message).toBe(
      '令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期',
    );
    const fixed = await call(alice, 'PUT', '/api/token/', { id: token.id, expired_time: -1 });
    expect(fixed.data.status).toBe(2);
    expect((await call(alice, 'PUT', '/api/token/?status_only=true', { id: token.id, status: 1 })).data.status).toBe(1);
  });

  it('reflects expiry and exhaustion in every read and writes the derived status back', async () => {
    const db = t.app.ctx.db.kysely;
    const erin = await makeUser('erin');
    const expiring = await created(erin, { name: 'expiring', expired_time: nowSeconds() + 3600 });
    const spent = await created(erin, { name: 'spent', remain_quota: 5 });
    const unlimited = await created(erin, { name: 'unlimited', remain_quota: 0, unlimited_quota: true });
    const empty = await created(erin, { name: 'empty', remain_quota: 0 });
    expect(unlimited.status).toBe(1);
    expect(empty.status).toBe(4);

    await db.updateTable('tokens').set({ expired_time: nowSeconds() - 1 }).where('id', '=', expiring.id).execute();
    await spend(db, spent.id, 5);

    const statuses = async (url: string) =>
      Object.fromEntries((await call<TokenDto[]>(erin, 'GET', url)).data.map((x) => [x.name, x.status]));
    expect(await statuses('/api/token/?p=0&size=10')).toEqual({ expiring: 3, spent: 4, unlimited: 1, empty: 4 });
    expect(await statuses('/api/token/search?keyword=e')).toMatchObject({ expiring: 3, spent: 4, empty: 4 });
    expect((await call(erin, 'GET', `/api/token/${expiring.id}`)).data.status).toBe(3);

    const stored = await db.selectFrom('tokens').select(['name', 'status']).where('user_id', '=', erin.userId).execute();
    expect(Object.fromEntries(stored.map((r) => [r.name, r.status]))).toEqual({ expiring: 3, spent: 4, unlimited: 1, empty: 4 });

    // An expired token can still be edited as long as the old expiry is sent back unchanged.
    const renamed = await call(erin, 'PUT', '/api/token/', { id: expiring.id, name: 'old', expired_time: (await db.selectFrom('tokens').select('expired_time').where('id', '=', expiring.id).executeTakeFirstOrThrow()).expired_time });
    expect(renamed).toMatchObject({ success: true, data: { name: 'old', status: 3 } });
  });

  it('validates fields with clear messages', async () => {
    const token = await created(alice);
    const now = nowSeconds();
    const cases: Array<[object, string]> = [
      [{ name: '很'.repeat(31) }, '令牌名称过长'],
      [{ name: 'x'.repeat(31) }, '令牌名称过长'],
      [{ remain_quota: -1 }, '令牌额度必须是不小于 0 的整数'],
      [{ remain_quota: 1.5 }, '令牌额度必须是不小于 0 的整数'],
      [{ remain_quota: '100' }, '令牌额度必须是不小于 0 的整数'],
      [{ expired_time: now - 60 }, '过期时间不能早于当前时间'],
      [{ expired_time: -2 }, '过期时间格式错误！'],
      [{ expired_time: 'tomorrow' }, '过期时间格式错误！'],
      [{ allow_ips: '1.2.3.4\nnot-an-ip' }, 'IP 白名单格式错误：not-an-ip'],
      [{ allow_ips: '10.0.0.0/33' }, 'IP 白名单格式错误：10.0.0.0/33'],
      [{ model_limits: 'm'.repeat(1025) }, '模型限制列表过长'],
      [{ group: 'svip' }, '无效的令牌分组'],
      [{ unlimited_quota: 'yes' }, '无效的参数：unlimited_quota'],
    ];
    for (const [fields, message] of cases) {
      expect(await create(alice, fields), JSON.stringify(fields)).toEqual({ success: false, message });
      const update = await call(alice, 'PUT', '/api/token/', { id: token.id, ...fields });
      expect(update, `update ${JSON.stringify(fields)}`).toEqual({ success: false, message });
    }
    // Exactly at the limits is fine.
    expect((await create(alice, { name: '很'.repeat(30), model_limits: 'm'.repeat(1024) })).success).toBe(true);
    expect((await call(alice, 'PUT', '/api/token/', { name: 'no id' })).message).toBe('无效的参数：id');
    expect((await call(alice, 'PUT', '/api/token/', { id: 999999, name: 'x' })).message).toBe('令牌不存在');
  });

  it('accepts the empty group, the usable groups and the user\'s own group', async () => {
    const root = await t.root();
    const frank = await makeUser('frank', 'special');
    expect((await created(frank, { group: '' })).group).toBe('');
    expect((await created(frank, { group: 'vip' })).group).toBe('vip');
    expect((await created(frank, { group: 'special' })).group).toBe('special');
    expect((await create(frank, { group: 'svip' })).message).toBe('无效的令牌分组');
    const set = await t.call(root, {
      method: 'PUT',
      url: '/api/option/',
      payload: { key: 'UserUsableGroups', value: JSON.stringify({ default: '默认分组', svip: 'svip' }) },
    });
    expect(set.json().success).toBe(true);
    expect((await created(frank, { group: 'svip' })).group).toBe('svip');
    expect((await create(frank, { group: 'vip' })).message).toBe('无效的令牌分组');
    await t.call(root, {
      method: 'PUT',
      url: '/api/option/',
      payload: { key: 'UserUsableGroups', value: JSON.stringify({ default: '默认分组', vip: 'vip分组' }) },
    });
  });

  it('soft-deletes a token: it disappears, its key no longer authenticates, and delete is not repeatable', async () => {
    const db = t.app.ctx.db.kysely;
    const token = await created(alice, { name: 'doomed' });
    const res = await t.call(alice, { method: 'DELETE', url: `/api/token/${token.id}/` });
    expect(res.json()).toMatchObject({ success: true });
    expect((await call(alice, 'GET', `/api/token/${token.id}`)).message).toBe('令牌不存在');
    expect(await findTokenByKey(db, token.key)).toBeUndefined();
    const list = await call<TokenDto[]>(alice, 'GET', '/api/token/?p=0&size=100');
    expect(list.data.some((x) => x.id === token.id)).toBe(false);
    const search = await call<TokenDto[]>(alice, 'GET', `/api/token/search?token=${token.key}`);
    expect(search.data).toEqual([]);
    expect((await call(alice, 'DELETE', `/api/token/${token.id}/`)).message).toBe('令牌不存在');
    expect((await call(alice, 'PUT', '/api/token/', { id: token.id, name: 'zombie' })).message).toBe('令牌不存在');
    const row = await db.selectFrom('tokens').select(['deleted_at', 'key']).where('id', '=', token.id).executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    expect(await findTokenByKey(db, row.key)).toBeUndefined();
  });

  it('keeps users apart: bob can neither see nor touch alice\'s tokens', async () => {
    const token = await created(alice, { name: 'alice secret' });
    const notFound = { success: false, message: '令牌不存在' };
    expect(await call(bob, 'GET', `/api/token/${token.id}`)).toEqual(notFound);
    expect(await call(bob, 'PUT', '/api/token/', { id: token.id, name: 'mine now' })).toEqual(notFound);
    expect(await call(bob, 'PUT', '/api/token/?status_only=true', { id: token.id, status: 2 })).toEqual(notFound);
    expect(await call(bob, 'DELETE', `/api/token/${token.id}/`)).toEqual(notFound);
    const byKey = await call<TokenDto[]>(bob, 'GET', `/api/token/search?token=sk-${token.key}`);
    expect(byKey.data).toEqual([]);
    const byName = await call<TokenDto[]>(bob, 'GET', '/api/token/search?keyword=alice');
    expect(byName.data).toEqual([]);
    const list = await call<TokenDto[]>(bob, 'GET', '/api/token/?p=0&size=100');
    expect(list.data.every((x) => x.user_id === bob.userId)).toBe(true);
    const still = await call(alice, 'GET', `/api/token/${token.id}`);
    expect(still.data).toMatchObject({ name: 'alice secret', status: 1 });
  });

  it('gives 20 parallel creates 20 distinct keys', async () => {
    const gina = await makeUser('gina');
    const tokens = await Promise.all(Array.from({ length: 20 }, (_, i) => created(gina, { name: `p${i}` })));
    expect(new Set(tokens.map((x) => x.key)).size).toBe(20);
    expect(new Set(tokens.map((x) => x.id)).size).toBe(20);
    const list = await call<TokenDto[]>(gina, 'GET', '/api/token/?p=0&size=100');
    expect(list.data).toHaveLength(20);
  });
});

/** Spends token quota the way a settled call does (the relay's own path is tested in store/quota.test.ts). */
async function spend(db: Kysely<Database>, id: number, amount: number): Promise<void> {
  await db
    .updateTable('tokens')
    .set((eb) => ({ remain_quota: eb('remain_quota', '-', amount), used_quota: eb('used_quota', '+', amount) }))
    .where('id', '=', id)
    .execute();
}
