import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOG_TYPE } from '@switchyard/shared';
import { testDatabases } from '../test/databases.js';
import { startTestApp, type Session, type TestApp } from '../test/app.js';
import { findUserById, findUserByUsername } from '../store/users.js';
import type { OptionKey } from '../options/index.js';

const UNIT = 500_000;

describe.each(testDatabases())('invites on $name', (database) => {
  let t: TestApp;
  const changed = new Map<OptionKey, string>();
  beforeAll(async () => {
    t = await startTestApp(database);
  });
  afterAll(() => t.close());
  afterEach(async () => {
    for (const [key, value] of changed) await t.app.ctx.options.set(key, value);
    changed.clear();
  });

  async function setOption(key: OptionKey, value: string) {
    if (!changed.has(key)) changed.set(key, JSON.stringify(t.app.ctx.options.get(key)));
    expect(await t.app.ctx.options.set(key, value)).toBeNull();
  }
  const db = () => t.app.ctx.db.kysely;
  const row = async (id: number) => (await findUserById(db(), id))!;
  const byName = async (username: string) => (await findUserByUsername(db(), username))!;
  const logsOf = (userId: number) => db().selectFrom('logs').selectAll().where('user_id', '=', userId).orderBy('id').execute();
  const register = (payload: Record<string, unknown>) =>
    t.call(null, { method: 'POST', url: '/api/user/register', payload }).then((r) => r.json() as { success: boolean; message: string });
  const affCode = async (s: Session) => {
    const body = (await t.call(s, { method: 'GET', url: '/api/user/aff' })).json() as { success: boolean; data: string };
    expect(body.success).toBe(true);
    return body.data;
  };
  const transfer = (s: Session | null, payload: unknown) =>
    t.call(s, { method: 'POST', url: '/api/user/aff_transfer', payload: payload as object }).then((r) => ({
      status: r.statusCode,
      body: r.json() as { success: boolean; message: string },
    }));
  const giveEarnings = (id: number, amount: number) =>
    db().updateTable('users').set({ aff_quota: amount, aff_history_quota: amount }).where('id', '=', id).execute();

  describe('GET /api/user/aff', () => {
    it('returns one stable code per account, distinct between accounts', async () => {
      const a = await t.user('codeA');
      const b = await t.user('codeB');
      const first = await affCode(a);
      expect(first).toMatch(/^[A-Za-z0-9]{4,}$/);
      expect(await affCode(a)).toBe(first);
      expect(await affCode(b)).not.toBe(first);
    });

    it('draws a code for an account created without one, and keeps it', async () => {
      const s = await t.user('codeless');
      await db().updateTable('users').set({ aff_code: '' }).where('id', '=', s.userId).execute();
      const drawn = await affCode(s);
      expect(drawn).toMatch(/^[A-Za-z0-9]{4,}$/);
      expect((await row(s.userId)).aff_code).toBe(drawn);
      expect(await affCode(s)).toBe(drawn);
    });

    it('needs a signed-in user', async () => {
      expect((await t.call(null, { method: 'GET', url: '/api/user/aff' })).statusCode).toBe(401);
    });
  });

  describe('registering through an invite', () => {
    it('credits the new user QuotaForNewUser + QuotaForInvitee and the inviter QuotaForInviter on the invite balance', async () => {
      const inviter = await t.user('host1');
      const code = await affCode(inviter);
      const before = await row(inviter.userId);
      await setOption('QuotaForNewUser', String(2 * UNIT));
      await setOption('QuotaForInvitee', String(UNIT));
      await setOption('QuotaForInviter', String(3 * UNIT));

      expect(await register({ username: 'guest1', password: 'password123', password2: 'password123', aff_code: code })).toEqual({
        success: true,
        message: '',
      });
      const guest = await byName('guest1');
      expect(guest).toMatchObject({ quota: 3 * UNIT, inviter_id: inviter.userId, aff_count: 0, aff_quota: 0 });
      expect((await logsOf(guest.id)).map((l) => [l.type, l.content])).toEqual([
        [LOG_TYPE.SYSTEM, '新用户注册赠送 ＄2.000000 额度'],
        [LOG_TYPE.SYSTEM, '使用邀请码赠送 ＄1.000000 额度'],
      ]);
      expect(await row(inviter.userId)).toMatchObject({
        quota: before.quota,
        aff_count: before.aff_count + 1,
        aff_quota: before.aff_quota + 3 * UNIT,
        aff_history_quota: before.aff_history_quota + 3 * UNIT,
      });
      expect((await logsOf(inviter.userId)).map((l) => [l.type, l.content])).toEqual([[LOG_TYPE.SYSTEM, '邀请用户赠送 ＄3.000000 额度']]);
    });

    it('credits each side exactly once when the same sign-up arrives many times at once', async () => {
      const inviter = await t.user('host2');
      const code = await affCode(inviter);
      await setOption('QuotaForInvitee', String(UNIT));
      await setOption('QuotaForInviter', String(UNIT));
      const results = await Promise.all(
        Array.from({ length: 8 }, () => register({ username: 'twin', password: 'password123', aff_code: code })),
      );
      expect(results.filter((r) => r.success)).toHaveLength(1);
      for (const r of results.filter((x) => !x.success)) expect(r.message).toBe('用户名已存在，或已注销');
      const twin = await byName('twin');
      expect(twin.quota).toBe(UNIT);
      expect(await logsOf(twin.id)).toHaveLength(1);
      expect(await row(inviter.userId)).toMatchObject({ aff_count: 1, aff_quota: UNIT, aff_history_quota: UNIT });
      expect(await logsOf(inviter.userId)).toHaveLength(1);
    });

    it('counts every distinct invitee when several register at once', async () => {
      const inviter = await t.user('host3');
      const code = await affCode(inviter);
      await setOption('QuotaForInviter', '1000');
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => register({ username: `wave${i}`, password: 'password123', aff_code: code })),
      );
      expect(results.every((r) => r.success)).toBe(true);
      expect(await row(inviter.userId)).toMatchObject({ aff_count: 6, aff_quota: 6000, aff_history_quota: 6000 });
    });

    it('gives nothing to anyone for an unknown code, and no invitee reward to a sign-up without one', async () => {
      await setOption('QuotaForInvitee', String(UNIT));
      await setOption('QuotaForInviter', String(UNIT));
      await register({ username: 'nocode', password: 'password123', aff_code: 'zzzzzzzz' });
      await register({ username: 'plain', password: 'password123' });
      expect(await byName('nocode')).toMatchObject({ quota: 0, inviter_id: 0 });
      expect(await byName('plain')).toMatchObject({ quota: 0, inviter_id: 0 });
    });
  });

  describe('POST /api/user/aff_transfer', () => {
    it('moves earnings to the quota and logs the move', async () => {
      const s = await t.user('earner');
      await giveEarnings(s.userId, 3 * UNIT);
      expect(await transfer(s, { quota: 2 * UNIT })).toEqual({ status: 200, body: { success: true, message: '划转成功' } });
      expect(await row(s.userId)).toMatchObject({ quota: 2 * UNIT, aff_quota: UNIT, aff_history_quota: 3 * UNIT });
      expect((await logsOf(s.userId)).map((l) => [l.type, l.content])).toEqual([[LOG_TYPE.TOPUP, '邀请收益划转到余额 ＄2.000000 额度']]);
      // The last unit too: exactly the balance is allowed.
      expect((await transfer(s, { quota: UNIT })).body.success).toBe(true);
      expect(await row(s.userId)).toMatchObject({ quota: 3 * UNIT, aff_quota: 0, aff_history_quota: 3 * UNIT });
    });

    it('refuses less than one unit with the minimum as the console shows it', async () => {
      const s = await t.user('smallfry');
      await giveEarnings(s.userId, 10 * UNIT);
      for (const quota of [UNIT - 1, 0, -UNIT, '1']) {
        expect(await transfer(s, { quota })).toEqual({ status: 200, body: { success: false, message: '划转金额最低为 $1.00' } });
      }
      await setOption('DisplayInCurrencyEnabled', 'false');
      expect((await transfer(s, { quota: 10 })).body.message).toBe('划转金额最低为 500.0k');
      await setOption('QuotaPerUnit', '1000');
      expect((await transfer(s, { quota: 999 })).body.message).toBe('划转金额最低为 1000');
      expect((await transfer(s, { quota: 1000 })).body.success).toBe(true);
      expect(await row(s.userId)).toMatchObject({ quota: 1000, aff_quota: 10 * UNIT - 1000 });
    });

    it('refuses more than the earnings and leaves both balances alone', async () => {
      const s = await t.user('greedy');
      await giveEarnings(s.userId, UNIT);
      expect(await transfer(s, { quota: UNIT + 1 })).toEqual({ status: 200, body: { success: false, message: '邀请额度不足！' } });
      expect(await row(s.userId)).toMatchObject({ quota: 0, aff_quota: UNIT });
      expect(await logsOf(s.userId)).toEqual([]);
    });

    it('refuses amounts that are not whole quota', async () => {
      const s = await t.user('fraction');
      await giveEarnings(s.userId, 2 * UNIT);
      for (const payload of [{}, { quota: 600000.5 }, { quota: 'lots' }]) {
        expect((await transfer(s, payload)).body).toEqual({ success: false, message: '无效的参数：quota' });
      }
      expect((await row(s.userId)).aff_quota).toBe(2 * UNIT);
    });

    it('never moves more than the earnings under parallel transfers', async () => {
      const s = await t.user('racer');
      await giveEarnings(s.userId, 3 * UNIT);
      const results = await Promise.all(Array.from({ length: 10 }, () => transfer(s, { quota: UNIT })));
      expect(results.filter((r) => r.body.success)).toHaveLength(3);
      expect(results.filter((r) => !r.body.success).every((r) => r.body.message === '邀请额度不足！')).toBe(true);
      expect(await row(s.userId)).toMatchObject({ quota: 3 * UNIT, aff_quota: 0, aff_history_quota: 3 * UNIT });
      expect(await logsOf(s.userId)).toHaveLength(3);
    });

    it('lets the relay see the new balance at once', async () => {
      const s = await t.user('spender');
      await giveEarnings(s.userId, UNIT);
      expect((await t.app.ctx.authCache.user(s.userId))?.quota).toBe(0);
      await transfer(s, { quota: UNIT });
      expect((await t.app.ctx.authCache.user(s.userId))?.quota).toBe(UNIT);
    });

    it('needs a signed-in user', async () => {
      expect((await transfer(null, { quota: UNIT })).status).toBe(401);
    });
  });
});
