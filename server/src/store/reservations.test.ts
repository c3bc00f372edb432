import { describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { testDatabases } from '../test/databases.js';
import { migratedDatabase } from '../test/migrated-database.js';
import { insertToken } from './tokens.js';
import { insertUser } from './users.js';
import { applySettlements, reserveQuota, type Reservation } from './quota.js';
import { OWN_HOLDER, releaseDeadHoldersOfHost, releaseReservationsOf, reservationHolder } from './reservations.js';

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
    const holder = reservationHolder(999_999, 'dead-host');
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
      { id: `h${++n}`, holder: reservationHolder(111, 'this-host'), amount: 100 },
      { id: `h${++n}`, holder: reservationHolder(222, 'this-host'), amount: 200 },
      { id: `h${++n}`, holder: reservationHolder(111, 'other-host'), amount: 400 },
    ];
    for (const row of rows) await k.insertInto('reservations').values({ ...row, user_id: a.userId, token_id: 0, created_at: 0 }).execute();
    await k.updateTable('users').set({ quota: 10_000 - 700 }).where('id', '=', a.userId).execute();
    const released = await releaseDeadHoldersOfHost(k, 'this-host', (pid) => pid === 222);
    expect(released).toEqual({ calls: 1, quota: 100 });
    expect((await journal(a.userId)).map((r) => r.amount).sort()).toEqual([200, 400]);
  });

  it('at the first start in a process, releases rows in its own name: an earlier process with the same host and pid', async () => {
    // A module of its own: the first start in this process is the one under test.
    vi.resetModules();
    const { releaseDeadReservations } = await import('../cluster/dead-reservations.js');
    const a = await account();
    const k = db().kysely;
    const own = async (amount: number) => {
      await k.insertInto('reservations').values({ id: `o${++n}`, holder: OWN_HOLDER, amount, user_id: a.userId, token_id: a.tokenId, created_at: 0 }).execute();
      await k.updateTable('users').set({ quota: sql`quota - ${amount}` }).where('id', '=', a.userId).execute();
      await k.updateTable('tokens').set({ remain_quota: sql`remain_quota - ${amount}` }).where('id', '=', a.tokenId).execute();
    };
    const log = { warn: vi.fn(), error: vi.fn() };
    await own(300);
    await releaseDeadReservations(db(), log as never);
    expect(await journal(a.userId)).toEqual([]);
    expect(await balances(a.userId, a.tokenId)).toEqual([10_000, 5_000]);
    expect(log.warn).toHaveBeenCalledWith({ calls: 1, quota: 300 }, expect.any(String));
    // Later starts in the same process (another node built by a test) leave this process's rows alone: they are live.
    await own(50);
    await releaseDeadReservations(db(), log as never);
    expect((await journal(a.userId)).map((r) => r.amount)).toEqual([50]);
    expect(await releaseDeadHoldersOfHost(k, undefined, () => true)).toEqual({ calls: 0, quota: 0 });
  });
});
