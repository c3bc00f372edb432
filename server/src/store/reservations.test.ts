import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { migratedDatabase } from '../test/migrated-database.js';
import { insertToken } from './tokens.js';
import { insertUser } from './users.js';
import { applySettlements, reserveQuota, type Reservation } from './quota.js';
import { OWN_HOLDER, releaseDeadHoldersOfHost, releaseReservationsOf, reservationHolder, STALE_RESERVATION_SECONDS } from './reservations.js';

/*
 * The journal of reservations in flight: written with each reservation, deleted with its settlement, and given
 * back whole when its process died before settling — once.
 */
describe.each(testDatabases())('reservations in flight on $name', (database) => {
  const db = migratedDatabase(database);
  let n = 0;

  async function account(unlimited = false) {
    const k = db().kysely;
    const userId = await insertUser(k, { username: `r${++n}-${Date.now() % 100000}`, password: 'x', aff_code: `r${n}${Date.now() % 100000}`, quota: 10_000 });
    const token = await insertToken(k, {
      user_id: userId, name: 't', status: 1, expired_time: -1, remain_quota: 5_000, unlimited_quota: unlimited,
      model_limits_enabled: false, model_limits: '', allow_ips: '', group: '',
    });
    return { userId, tokenId: token.id };
  }

  const balances = async (userId: number, tokenId: number) => {
    const k = db().kysely;
    const user = await k.selectFrom('users').select('quota').where('id', '=', userId).executeTakeFirstOrThrow();
    const token = await k.selectFrom('tokens').select('remain_quota').where('id', '=', tokenId).executeTakeFirstOrThrow();
    return [Number(user.quota), Number(token.remain_quota)];
  };

  const journal = async (userId: number) =>
    (await db().kysely.selectFrom('reservations').select(['holder', 'amount', 'token_id']).where('user_id', '=', userId).execute()).map((r) => ({ ...r, amount: Number(r.amount) }));

  it('writes a journal row with each reservation and deletes it with the settlement', async () => {
    const a = await account();
    const r: Reservation = { ...a, tokenUnlimited: false, amount: 700 };
    expect(await reserveQuota(db().kysely, r)).toBe('ok');
    expect(r.id).toBeTruthy();
    expect(await journal(a.userId)).toEqual([{ holder: OWN_HOLDER, amount: 700, token_id: a.tokenId }]);
    await applySettlements(db().kysely, [{ reservation: r, cost: 300, channelId: 0, countsAsRequest: true, log: null }], 'b' + Date.now());
    expect(await journal(a.userId)).toEqual([]);
    expect(await balances(a.userId, a.tokenId)).toEqual([9_700, 4_700]);
  });

  it('writes no journal row for a refused reservation', async () => {
    const a = await account();
    expect(await reserveQuota(db().kysely, { ...a, tokenUnlimited: false, amount: 6_000 })).toBe('token_short');
    expect(await journal(a.userId)).toEqual([]);
  });

  it("gives back a dead holder's reservations to users and tokens, once", async () => {
    const a = await account();
    const b = await account(true);
    const holder = reservationHolder(999_999, 1_700_000_000_000, 'dead-host');
    const k = db().kysely;
    // Taken as the dead process took them: the balances moved and the journal says by whom.
    for (const [acc, amount, token] of [[a, 1_000, a.tokenId], [a, 500, a.tokenId], [b, 2_000, 0]] as const) {
      await k.updateTable('users').set({ quota: (eb) => eb('quota', '-', amount) }).where('id', '=', acc.userId).execute();
      if (token) await k.updateTable('tokens').set({ remain_quota: (eb) => eb('remain_quota', '-', amount) }).where('id', '=', token).execute();
      await k.insertInto('reservations').values({ id: `dead${++n}`, holder, user_id: acc.userId, token_id: token, amount, created_at: 0 }).execute();
    }
    expect(await balances(a.userId, a.tokenId)).toEqual([8_500, 3_500]);
    const [first, second] = await Promise.all([releaseReservationsOf(k, holder), releaseReservationsOf(k, holder)]);
    expect([first.calls + second.calls, first.quota + second.quota]).toEqual([3, 3_500]);
    expect(await balances(a.userId, a.tokenId)).toEqual([10_000, 5_000]);
    expect(await balances(b.userId, b.tokenId)).toEqual([10_000, 5_000]);
    expect(await releaseReservationsOf(k, holder)).toEqual({ calls: 0, quota: 0 });
  });

  it('at start, releases the holders of this host whose process is gone, and leaves the living and other hosts alone', async () => {
    const a = await account();
    const k = db().kysely;
    const rows = [
      { id: `h${++n}`, holder: reservationHolder(111, 5_000, 'this-host'), amount: 100 },
      { id: `h${++n}`, holder: reservationHolder(222, 6_000, 'this-host'), amount: 200 },
      // Its pid runs again, but another process started later: a restarted container counting pids from 1.
      { id: `h${++n}`, holder: reservationHolder(222, 1_000, 'this-host'), amount: 800 },
      { id: `h${++n}`, holder: reservationHolder(111, 5_000, 'other-host'), amount: 400 },
    ];
    const now = Math.floor(Date.now() / 1000);
    for (const row of rows) await k.insertInto('reservations').values({ ...row, user_id: a.userId, token_id: 0, created_at: now }).execute();
    await k.updateTable('users').set({ quota: 10_000 - 1_500 }).where('id', '=', a.userId).execute();
    const released = await releaseDeadHoldersOfHost(k, 'this-host', (pid, started) => pid === 222 && started === 6_000);
    expect(released).toEqual({ calls: 2, quota: 900 });
    expect((await journal(a.userId)).map((r) => r.amount).sort()).toEqual([200, 400]);
    expect(await balances(a.userId, a.tokenId)).toEqual([9_400, 5_000]);
  });

  it('at start, releases what any holder left more than a day ago', async () => {
    const a = await account();
    const k = db().kysely;
    const now = Math.floor(Date.now() / 1000);
    await k.insertInto('reservations').values({ id: `s${++n}`, holder: 'gone-host/7/1', user_id: a.userId, token_id: a.tokenId, amount: 300, created_at: now - STALE_RESERVATION_SECONDS - 5 }).execute();
    await k.insertInto('reservations').values({ id: `s${++n}`, holder: 'gone-host/7/1', user_id: a.userId, token_id: a.tokenId, amount: 50, created_at: now - 60 }).execute();
    await k.updateTable('users').set({ quota: 10_000 - 350 }).where('id', '=', a.userId).execute();
    await k.updateTable('tokens').set({ remain_quota: 5_000 - 350 }).where('id', '=', a.tokenId).execute();
    expect(await releaseDeadHoldersOfHost(k, 'this-host', () => true)).toEqual({ calls: 1, quota: 300 });
    expect(await balances(a.userId, a.tokenId)).toEqual([9_950, 4_950]);
    expect((await journal(a.userId)).map((r) => r.amount)).toEqual([50]);
  });

  it('tells a running process from a dead one with its pid by the start time /proc gives', async () => {
    const a = await account();
    const k = db().kysely;
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    const startedMs = Date.now();
    try {
      const now = Math.floor(Date.now() / 1000);
      const alive = reservationHolder(child.pid!, startedMs);
      const reused = reservationHolder(child.pid!, startedMs - 3_600_000);
      for (const [holder, amount] of [[alive, 10], [reused, 20]] as const) {
        await k.insertInto('reservations').values({ id: `p${++n}`, holder, user_id: a.userId, token_id: 0, amount, created_at: now }).execute();
      }
      expect(await releaseDeadHoldersOfHost(k)).toMatchObject({ calls: 1, quota: 20 });
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      expect(await releaseDeadHoldersOfHost(k)).toMatchObject({ calls: 1, quota: 10 });
    } finally {
      child.kill('SIGKILL');
    }
  });

});
