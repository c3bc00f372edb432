import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { startTestApp, type Session, type TestApp } from '../test/app.js';
import { findUserById } from '../store/users.js';
import { hashPassword, PRODUCTION_COST, TEST_COST, useProductionPasswordCost, useTestPasswordCost } from '../auth/password.js';

const USER_DTO_KEYS = [
  'DeletedAt', 'aff_code', 'aff_count', 'aff_history_quota', 'aff_quota', 'display_name', 'email', 'github_id', 'group',
  'id', 'inviter_id', 'oidc_id', 'quota', 'request_count', 'role', 'status', 'telegram_id', 'used_quota', 'username', 'wechat_id',
];

describe.each(testDatabases())('user self-service on $name', (database) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(database);
  });
  afterAll(() => t.close());

  const get = (s: Session | null, url: string, headers: Record<string, string> = {}) =>
    t.call(s, { method: 'GET', url, headers });
  const put = (s: Session, payload: Record<string, unknown>) =>
    t.call(s, { method: 'PUT', url: '/api/user/self', payload }).then((r) => r.json());
  const row = async (id: number) => (await findUserById(t.app.ctx.db.kysely, id))!;
  /** The session after a response that re-issued the cookie. */
  const renewed = (s: Session, res: { cookies: Array<{ name: string; value: string }> }): Session => ({
    ...s,
    headers: { ...s.headers, cookie: res.cookies.map((c) => `${c.name}=${c.value}`).join('; ') },
  });

  it('reads the own account as a UserDto without secrets', async () => {
    const s = await t.user('selfread');
    const res = await get(s, '/api/user/self');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(Object.keys(body.data).sort()).toEqual(USER_DTO_KEYS);
    expect(body.data).toMatchObject({ id: s.userId, username: 'selfread', role: 1, status: 1, group: 'default', quota: 0, DeletedAt: null });
    expect(JSON.stringify(body)).not.toContain('scrypt');
  });

  it('refuses anonymous callers with 401', async () => {
    for (const url of ['/api/user/self', '/api/user/token', '/api/user/aff', '/api/user/models', '/api/user/groups']) {
      const res = await get(null, url);
      expect(res.statusCode, url).toBe(401);
      expect(res.json().success).toBe(false);
    }
  });

  it('changes the display name', async () => {
    const s = await t.user('rename');
    expect(await put(s, { display_name: '新名字' })).toEqual({ success: true, message: '' });
    expect((await row(s.userId)).display_name).toBe('新名字');
    expect(await put(s, { display_name: '一二三四五六七八九十一二三四五六七八九十一' })).toEqual({
      success: false,
      message: '显示名称长度不得大于 20 位！',
    });
  });

  it('accepts an imported bcrypt hash at login once, then keeps its own hash instead', async () => {
    const s = await t.user('bcryptuser');
    const bcryptHash = '$2a$10$92IXUNpkjO0rOQ5byMi.Ye4oKoEa3Ro9llC/.og/at2.uheWG/igi'; // "password"
    await t.app.ctx.db.kysely.updateTable('users').set({ password: bcryptHash }).where('id', '=', s.userId).execute();
    await expect(t.login('bcryptuser', 'wrongpassword')).rejects.toThrow();
    expect((await row(s.userId)).password).toBe(bcryptHash);
    await expect(t.login('bcryptuser', 'password')).resolves.toMatchObject({ userId: s.userId });
    expect((await row(s.userId)).password).toMatch(/^scrypt\$/);
    await expect(t.login('bcryptuser', 'password')).resolves.toMatchObject({ userId: s.userId });
  });

  it('replaces a hash made at the test cost with one at the production cost at the first login', async () => {
    const s = await t.user('cheaphash');
    const cheap = await hashPassword('cheap-password');
    expect(cheap).toMatch(new RegExp(`^scrypt\\$${TEST_COST.N}\\$`));
    await t.app.ctx.db.kysely.updateTable('users').set({ password: cheap }).where('id', '=', s.userId).execute();
    // As in a production process (the test setup lowered the cost for this one): such a hash verifies, then gives way.
    useProductionPasswordCost();
    try {
      await expect(t.login('cheaphash', 'cheap-password')).resolves.toMatchObject({ userId: s.userId });
      const { N, r, p } = PRODUCTION_COST;
      expect((await row(s.userId)).password).toMatch(new RegExp(`^scrypt\\$${N}\\$${r}\\$${p}\\$`));
      await expect(t.login('cheaphash', 'cheap-password')).resolves.toMatchObject({ userId: s.userId });
    } finally {
      useTestPasswordCost();
    }
  });

  it('changes the password only with the right original password', async () => {
    const s = await t.user('pwchange', 'oldpassword');
    const other = await t.login('pwchange', 'oldpassword');
    expect(await put(s, { password: 'newpassword' })).toEqual({ success: false, message: '原密码错误' });
    expect(await put(s, { password: 'newpassword', original_password: 'wrongpassword' })).toEqual({ success: false, message: '原密码错误' });
    expect(await put(s, { password: 'short', original_password: 'oldpassword' })).toEqual({ success: false, message: '密码长度不得小于 8 位！' });
    expect(await put(s, { password: '123456789012345678901', original_password: 'oldpassword' })).toEqual({
      success: false,
      message: '密码长度不得大于 20 位！',
    });
    expect(await put(s, { password: 42, original_password: 'oldpassword' })).toEqual({ success: false, message: '无效的参数：password' });

    const res = await t.call(s, { method: 'PUT', url: '/api/user/self', payload: { password: 'newpassword', original_password: 'oldpassword' } });
    expect(res.json()).toEqual({ success: true, message: '' });
    await expect(t.login('pwchange', 'oldpassword')).rejects.toThrow();
    await expect(t.login('pwchange', 'newpassword')).resolves.toMatchObject({ userId: s.userId });
    // The caller's session continues with the renewed cookie; sessions opened with the old password end.
    expect((await get(renewed(s, res), '/api/user/self')).statusCode).toBe(200);
    expect((await get(other, '/api/user/self')).statusCode).toBe(401);
  });

  it('clears the default-password warning when root changes its password', async () => {
    const root = await t.root();
    const status = async () => (await get(null, '/api/status')).json().data.root_default_password;
    expect(await status()).toBe(true);
    const res = await t.call(root, { method: 'PUT', url: '/api/user/self', payload: { password: 'a-better-pw', original_password: '123456' } });
    expect(res.json().success).toBe(true);
    expect(await status()).toBe(false);
    const back = await t.call(renewed(root, res), {
      method: 'PUT',
      url: '/api/user/self',
      payload: { password: '12345678', original_password: 'a-better-pw' },
    });
    expect(back.json().success).toBe(true);
    // Put the default back directly (the API requires 8 characters) so other tests can sign in as root.
    await t.app.ctx.db.kysely.updateTable('users').set({ password: await hashPassword('123456') }).where('username', '=', 'root').execute();
    await t.app.ctx.accounts.refresh();
    expect(await status()).toBe(true);
  });

  it('issues a system access token that works with the New-Api-User header', async () => {
    const s = await t.user('tokenuser');
    const res = (await get(s, '/api/user/token')).json();
    expect(res.success).toBe(true);
    expect(res.data).toMatch(/^[A-Za-z0-9]{32}$/);
    expect((await row(s.userId)).access_token).toBe(res.data);

    const viaToken = (headers: Record<string, string>) => get(null, '/api/user/self', headers);
    const ok = await viaToken({ authorization: res.data, 'new-api-user': String(s.userId) });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.username).toBe('tokenuser');
    expect((await viaToken({ authorization: `Bearer ${res.data}`, 'new-api-user': String(s.userId) })).statusCode).toBe(200);
    expect((await viaToken({ authorization: res.data })).statusCode).toBe(401);
    expect((await viaToken({ authorization: res.data, 'new-api-user': String(s.userId + 1000) })).statusCode).toBe(401);
    expect((await viaToken({ authorization: 'x'.repeat(32), 'new-api-user': String(s.userId) })).statusCode).toBe(401);

    // A new token replaces the old one.
    const next = (await get(s, '/api/user/token')).json().data;
    expect(next).not.toBe(res.data);
    expect((await viaToken({ authorization: res.data, 'new-api-user': String(s.userId) })).statusCode).toBe(401);
    expect((await viaToken({ authorization: next, 'new-api-user': String(s.userId) })).statusCode).toBe(200);
  });

  it('returns the invite code, drawing one when the account has none', async () => {
    const s = await t.user('affuser');
    const first = (await get(s, '/api/user/aff')).json();
    expect(first).toEqual({ success: true, message: '', data: (await row(s.userId)).aff_code });
    await t.app.ctx.db.kysely.updateTable('users').set({ aff_code: '' }).where('id', '=', s.userId).execute();
    const drawn = (await get(s, '/api/user/aff')).json().data;
    expect(drawn).toMatch(/^[A-Za-z0-9]{4}$/);
    expect((await row(s.userId)).aff_code).toBe(drawn);
    expect((await get(s, '/api/user/aff')).json().data).toBe(drawn);
  });

  it('deletes the own account softly and ends the session', async () => {
    const s = await t.user('leaver');
    const token = (await get(s, '/api/user/token')).json().data;
    const res = await t.call(s, { method: 'DELETE', url: '/api/user/self' });
    expect(res.json()).toEqual({ success: true, message: '' });
    expect(res.cookies.find((c) => c.name === 'session')?.value).toBe('');
    const gone = await row(s.userId);
    expect(gone.deleted_at).toBeGreaterThan(0);
    expect(gone.access_token).toBeNull();
    expect((await get(s, '/api/user/self')).statusCode).toBe(401);
    expect((await get(null, '/api/user/self', { authorization: token, 'new-api-user': String(s.userId) })).statusCode).toBe(401);
    await expect(t.login('leaver', 'password123')).rejects.toThrow();
  });

  it('does not let the super admin delete itself', async () => {
    const root = await t.root();
    expect((await t.call(root, { method: 'DELETE', url: '/api/user/self' })).json()).toEqual({
      success: false,
      message: '不能删除超级管理员账户',
    });
    expect((await get(root, '/api/user/self')).statusCode).toBe(200);
  });
});
