import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOG_TYPE } from '@switchyard/shared';
import { testDatabases } from '../test/databases.js';
import { startTestApp, type TestApp } from '../test/app.js';
import { findUserByUsername } from '../store/users.js';
import type { OptionKey } from '../options/index.js';

describe.each(testDatabases())('user registration on $name', (database) => {
  let t: TestApp;
  const changed = new Set<OptionKey>();
  beforeAll(async () => {
    t = await startTestApp(database);
  });
  afterAll(() => t.close());
  afterEach(async () => {
    // Each test starts from the default switches.
    for (const key of changed) await t.app.ctx.options.set(key, String(defaults[key]));
    changed.clear();
  });
  const defaults: Partial<Record<OptionKey, unknown>> = {
    QuotaForNewUser: 0, QuotaForInvitee: 0, QuotaForInviter: 0, RegisterEnabled: true, PasswordRegisterEnabled: true,
    TurnstileCheckEnabled: false, EmailVerificationEnabled: false, DisplayInCurrencyEnabled: true,
  };
  async function setOption(key: OptionKey, value: string) {
    changed.add(key);
    expect(await t.app.ctx.options.set(key, value)).toBeNull();
  }

  async function issue(email: string): Promise<string> {
    const issued = await t.app.ctx.emailCodes.issue('verify', email);
    if (!issued.sent) throw new Error('code refused');
    return issued.code;
  }

  const register = (payload: Record<string, unknown>, url = '/api/user/register') =>
    t.call(null, { method: 'POST', url, payload }).then((r) => r.json());
  const row = async (username: string) => (await findUserByUsername(t.app.ctx.db.kysely, username))!;
  const logsOf = (userId: number) =>
    t.app.ctx.db.kysely.selectFrom('logs').selectAll().where('user_id', '=', userId).orderBy('id').execute();

  it('creates a common user in the default group with a 4-character invite code', async () => {
    const body = await register({ username: 'alice', password: 'password123', password2: 'password123' });
    expect(body).toEqual({ success: true, message: '' });
    const alice = await row('alice');
    expect(alice).toMatchObject({
      role: 1, status: 1, group: 'default', quota: 0, display_name: 'alice', inviter_id: 0, email: '', deleted_at: null,
      aff_count: 0, aff_quota: 0, aff_history_quota: 0, access_token: null,
    });
    expect(alice.aff_code).toMatch(/^[A-Za-z0-9]{4}$/);
    expect(alice.password).not.toContain('password123');
    expect(await logsOf(alice.id)).toEqual([]);
    await expect(t.login('alice', 'password123')).resolves.toMatchObject({ userId: alice.id });
  });

  it('accepts a registration without password2 and trims the username', async () => {
    expect(await register({ username: '  bob  ', password: 'password123' })).toMatchObject({ success: true });
    expect((await row('bob')).username).toBe('bob');
  });

  it('gives QuotaForNewUser and writes a system log', async () => {
    await setOption('QuotaForNewUser', '1000000');
    expect(await register({ username: 'carol', password: 'password123' })).toMatchObject({ success: true });
    const carol = await row('carol');
    expect(carol.quota).toBe(1000000);
    const logs = await logsOf(carol.id);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ type: LOG_TYPE.SYSTEM, username: 'carol', content: '新用户注册赠送 ＄2.000000 额度' });
  });

  it('formats the gift in points when amounts do not show in currency', async () => {
    await setOption('QuotaForNewUser', '1234');
    await setOption('DisplayInCurrencyEnabled', 'false');
    await register({ username: 'points', password: 'password123' });
    const logs = await logsOf((await row('points')).id);
    expect(logs[0].content).toBe('新用户注册赠送 1234 点额度');
  });

  it('rewards the invitee on quota and the inviter on the invite balance only', async () => {
    await register({ username: 'inviter', password: 'password123' });
    const inviterSession = await t.login('inviter', 'password123');
    const aff = (await t.call(inviterSession, { method: 'GET', url: '/api/user/aff' })).json();
    expect(aff.success).toBe(true);
    const before = await row('inviter');
    expect(aff.data).toBe(before.aff_code);

    await setOption('QuotaForNewUser', '100');
    await setOption('QuotaForInvitee', '300');
    await setOption('QuotaForInviter', '700');
    const body = await register({ username: 'invitee', password: 'password123', password2: 'password123', aff_code: aff.data });
    expect(body).toMatchObject({ success: true });
    const invitee = await row('invitee');
    expect(invitee.inviter_id).toBe(before.id);
    expect(invitee.quota).toBe(400);
    const inviter = await row('inviter');
    expect(inviter).toMatchObject({ quota: before.quota, aff_count: 1, aff_quota: 700, aff_history_quota: 700 });
    expect((await logsOf(invitee.id)).map((l) => l.content)).toEqual([
      '新用户注册赠送 ＄0.000200 额度',
      '使用邀请码赠送 ＄0.000600 额度',
    ]);
    expect((await logsOf(inviter.id)).map((l) => [l.type, l.content])).toEqual([[LOG_TYPE.SYSTEM, '邀请用户赠送 ＄0.001400 额度']]);

    // A second invitation adds up; without rewards configured the count still grows.
    await setOption('QuotaForInviter', '0');
    await register({ username: 'invitee2', password: 'password123', aff_code: aff.data });
    expect(await row('inviter')).toMatchObject({ aff_count: 2, aff_quota: 700, aff_history_quota: 700 });
  });

  it('ignores an unknown invite code', async () => {
    expect(await register({ username: 'lonely', password: 'password123', aff_code: 'zzzz' })).toMatchObject({ success: true });
    expect((await row('lonely')).inviter_id).toBe(0);
  });

  it('checks the username and password with the spec messages', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ username: '', password: 'password123' }, '用户名不能为空'],
      [{ password: 'password123' }, '用户名不能为空'],
      [{ username: 'abcdefghijklm', password: 'password123' }, '用户名长度不得大于 12 位！'],
      [{ username: 'shortpw', password: '1234567' }, '密码长度不得小于 8 位！'],
      [{ username: 'shortpw' }, '密码长度不得小于 8 位！'],
      [{ username: 'longpw', password: '123456789012345678901' }, '密码长度不得大于 20 位！'],
      [{ username: 'mismatch', password: 'password123', password2: 'password124' }, '两次输入的密码不一致'],
      [{ username: 123, password: 'password123' }, '无效的参数：username'],
    ];
    for (const [payload, message] of cases) {
      expect(await register(payload), message).toEqual({ success: false, message });
    }
    // Limits are counted in characters: twelve Chinese characters and a 20-character password are fine.
    expect(await register({ username: '一二三四五六七八九十壹贰', password: '12345678901234567890' })).toMatchObject({ success: true });
  });

  it('refuses a username that is taken, also by a deleted account', async () => {
    await register({ username: 'dave', password: 'password123' });
    expect(await register({ username: 'dave', password: 'password123' })).toEqual({ success: false, message: '用户名已存在，或已注销' });
    const dave = await t.login('dave', 'password123');
    expect((await t.call(dave, { method: 'DELETE', url: '/api/user/self' })).json()).toMatchObject({ success: true });
    expect(await register({ username: 'dave', password: 'password123' })).toEqual({ success: false, message: '用户名已存在，或已注销' });
  });

  it('lets exactly one of several simultaneous sign-ups with one name through', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, () => register({ username: 'racer', password: 'password123' })),
    );
    expect(results.filter((r) => r.success)).toHaveLength(1);
    for (const r of results.filter((r) => !r.success)) expect(r.message).toBe('用户名已存在，或已注销');
  });

  it('obeys the registration switches', async () => {
    await setOption('PasswordRegisterEnabled', 'false');
    expect(await register({ username: 'nope', password: 'password123' })).toEqual({
      success: false,
      message: '管理员关闭了通过密码进行注册，请使用第三方账户验证的形式进行注册',
    });
    await setOption('RegisterEnabled', 'false');
    expect(await register({ username: 'nope', password: 'password123' })).toEqual({ success: false, message: '管理员关闭了新用户注册' });
  });

  it('checks the email code when email verification is on', async () => {
    await setOption('EmailVerificationEnabled', 'true');
    expect(await register({ username: 'mailer', password: 'password123' })).toEqual({
      success: false,
      message: '管理员开启了邮箱验证，请输入邮箱地址和验证码',
    });
    expect(await register({ username: 'mailer', password: 'password123', email: 'm@example.com' })).toEqual({
      success: false,
      message: '管理员开启了邮箱验证，请输入邮箱地址和验证码',
    });
    const email = `m-${database.name}@example.com`;
    const code = await issue(email);
    expect(await register({ username: 'mailer', password: 'password123', email, verification_code: 'wrong1' })).toEqual({
      success: false,
      message: '验证码错误或已过期',
    });
    // A code for another address does not count.
    expect(await register({ username: 'mailer', password: 'password123', email: 'x@example.com', verification_code: code })).toEqual({
      success: false,
      message: '验证码错误或已过期',
    });
    expect(await register({ username: 'mailer', password: 'password123', email, verification_code: code })).toMatchObject({ success: true });
    expect((await row('mailer')).email).toBe(email);
    // The code is used up, and the address is now taken.
    expect(await register({ username: 'mailer2', password: 'password123', email, verification_code: code })).toEqual({
      success: false,
      message: '验证码错误或已过期',
    });
    // A new code after the resend gap (the code's clock set back instead of waiting).
    await t.app.ctx.db.kysely.updateTable('email_codes').set({ created_at: 0 }).execute();
    const again = await issue(email);
    expect(await register({ username: 'mailer2', password: 'password123', email, verification_code: again })).toEqual({
      success: false,
      message: '用户名已存在，或已注销',
    });
  });
});
