import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases, type TestDatabase } from '../test/databases.js';
import type { Db } from '../db/connect.js';
import type { Database } from '../db/schema.js';
import { sqliteHandleOf } from '../db/sqlite-handle.js';
import { migrateToLatest } from '../db/migrate.js';
import { insertUser } from './users.js';
import { insertToken } from './tokens.js';
import { applySettlements, reserveQuota, type Reservation } from './quota.js';

/*
 * On SQLite the balance writes run as prepared statements (quota-sqlite.ts); the Kysely statements of quota.ts run
 * there only while another transaction holds the connection, and always on PostgreSQL and MySQL. So SQLite runs every
 * case through both: the Kysely ones through a Kysely instance that carries no SQLite handle (sharing the same
 * connection), so a fault in either path fails on every machine, not only where a server database is set up.
 */
interface BalancePath {
  name: string;
  database: TestDatabase;
  kyselyStatements: boolean;
}

const paths: BalancePath[] = testDatabases().flatMap((database) =>
  database.name === 'sqlite'
    ? [
        { name: 'sqlite (prepared statements)', database, kyselyStatements: false },
        { name: 'sqlite (Kysely statements)', database, kyselyStatements: true },
      ]
    : [{ name: database.name, database, kyselyStatements: true }],
);

describe.each(paths)('balances on $name', ({ database, kyselyStatements }) => {
  let db: Db;
  /** What the balance functions are given: the connection itself, or (Kysely statements on SQLite) a handle-less view of it. */
  let store: Kysely<Database>;
  let drop: () => Promise<void>;
  let n = 0;
  beforeAll(async () => {
    ({ db, drop } = await database.open());
    await migrateToLatest(db);
    store = database.name === 'sqlite' && kyselyStatements ? db.kysely.withoutPlugins() : db.kysely;
    expect(sqliteHandleOf(store) !== undefined).toBe(!kyselyStatements);
  });
  afterAll(() => drop());

  async function account(userQuota: number, tokenQuota: number, unlimited = false) {
    const userId = await insertUser(db.kysely, { username: `q${++n}`, password: 'x', aff_code: `q${n}`, quota: userQuota });
    const token = await insertToken(db.kysely, {
      user_id: userId, name: 't', status: 1, expired_time: -1, remain_quota: tokenQuota, unlimited_quota: unlimited,
      model_limits_enabled: false, model_limits: '', allow_ips: '', group: '',
    });
    return { userId, tokenId: token.id };
  }

  const balances = async (userId: number, tokenId: number) => ({
    user: (await db.kysely.selectFrom('users').select(['quota', 'used_quota', 'request_count']).where('id', '=', userId).executeTakeFirstOrThrow()),
    token: (await db.kysely.selectFrom('tokens').select(['remain_quota', 'used_quota']).where('id', '=', tokenId).executeTakeFirstOrThrow()),
  });

  it('never lets 20 parallel reservations take a token below zero', async () => {
    const { userId, tokenId } = await account(1_000_000, 1000);
    const r: Reservation = { userId, tokenId, tokenUnlimited: false, amount: 70 };
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => reserveQuota(store, r)));
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(14);
    const b = await balances(userId, tokenId);
    expect(b.token.remain_quota).toBe(1000 - 14 * 70);
    expect(b.user.quota).toBe(1_000_000 - 14 * 70);
  });

  it('takes from both the user and the token, or from neither', async () => {
    const short = await account(50, 1000);
    expect(await reserveQuota(store, { ...short, tokenUnlimited: false, amount: 60 })).toBe('user_short');
    expect((await balances(short.userId, short.tokenId)).token.remain_quota).toBe(1000);
    const tokenShort = await account(1000, 50);
    expect(await reserveQuota(store, { ...tokenShort, tokenUnlimited: false, amount: 60 })).toBe('token_short');
    expect((await balances(tokenShort.userId, tokenShort.tokenId)).user.quota).toBe(1000);
  });

  it('leaves an unlimited token alone but still charges the user', async () => {
    const { userId, tokenId } = await account(1000, 0, true);
    expect(await reserveQuota(store, { userId, tokenId, tokenUnlimited: true, amount: 100 })).toBe('ok');
    const b = await balances(userId, tokenId);
    expect(b.user.quota).toBe(900);
    expect(b.token.remain_quota).toBe(0);
  });

  it('settles the difference, counts usage and requests, and writes each log in the same transaction', async () => {
    const { userId, tokenId } = await account(10_000, 10_000);
    const r: Reservation = { userId, tokenId, tokenUnlimited: false, amount: 500 };
    await reserveQuota(store, r);
    await reserveQuota(store, r);
    const log = (quota: number) => ({
      user_id: userId, created_at: 1, type: 2, content: '', username: 'u', token_name: 't', model_name: 'm', quota,
      prompt_tokens: 1, completion_tokens: 1, use_time: 0, is_stream: 0, channel_id: 0, token_id: tokenId, group: 'default', ip: '', other: '{}',
    });
    await applySettlements(store, [
      { reservation: r, cost: 120, channelId: 0, countsAsRequest: true, log: log(120) },
      { reservation: r, cost: 700, channelId: 0, countsAsRequest: true, log: log(700) },
    ]);
    const b = await balances(userId, tokenId);
    expect(b.user.quota).toBe(10_000 - 820);
    expect(b.token.remain_quota).toBe(10_000 - 820);
    expect(b.user.used_quota).toBe(820);
    expect(b.token.used_quota).toBe(820);
    expect(b.user.request_count).toBe(2);
    const logs = await db.kysely.selectFrom('logs').select('quota').where('token_id', '=', tokenId).execute();
    expect(logs.map((l) => l.quota).sort((a, b2) => a - b2)).toEqual([120, 700]);
  });

  it('writes batches of any size: logs of 1, 9, 10, 100 and 237 rows', async () => {
    const { userId, tokenId } = await account(1_000_000, 1_000_000);
    const r: Reservation = { userId, tokenId, tokenUnlimited: false, amount: 0 };
    const log = (quota: number) => ({
      user_id: userId, created_at: 2, type: 2, content: 'c', username: 'u', token_name: 't', model_name: 'm', quota,
      prompt_tokens: 1, completion_tokens: 1, use_time: 0, is_stream: 0, channel_id: 0, token_id: tokenId, group: 'default', ip: '', other: '{}',
    });
    let total = 0;
    let rows = 0;
    for (const size of [1, 9, 10, 100, 237]) {
      await applySettlements(store, Array.from({ length: size }, (_, i) => ({ reservation: r, cost: i + 1, channelId: 0, countsAsRequest: true, log: log(i + 1) })));
      total += (size * (size + 1)) / 2;
      rows += size;
    }
    const b = await balances(userId, tokenId);
    expect(b.user.quota).toBe(1_000_000 - total);
    expect(b.token.remain_quota).toBe(1_000_000 - total);
    expect(b.user.request_count).toBe(rows);
    const logs = await db.kysely.selectFrom('logs').select(({ fn }) => [fn.countAll<number>().as('n'), fn.sum<number>('quota').as('sum')]).where('token_id', '=', tokenId).executeTakeFirstOrThrow();
    expect(Number(logs.n)).toBe(rows);
    expect(Number(logs.sum)).toBe(total);
  });

  it('keeps a settlement made while another transaction is open, even when that transaction rolls back', async () => {
    const { userId, tokenId } = await account(10_000, 10_000);
    const r: Reservation = { userId, tokenId, tokenUnlimited: false, amount: 0 };
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let settled!: Promise<void>;
    const rolledBack = db.kysely.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ quota: 1 }).where('id', '=', userId).execute();
      // A settlement arrives while this transaction holds the connection (on SQLite: an open BEGIN).
      settled = applySettlements(store, [{ reservation: r, cost: 250, channelId: 0, countsAsRequest: true, log: null }]);
      await held;
      throw new Error('roll back');
    });
    release();
    await expect(rolledBack).rejects.toThrow('roll back');
    await settled;
    const b = await balances(userId, tokenId);
    expect(b.user.quota).toBe(10_000 - 250);
    expect(b.token.remain_quota).toBe(10_000 - 250);
  });

  it('keeps a reservation made while another transaction is open, even when that transaction rolls back', async () => {
    const { userId, tokenId } = await account(1000, 1000);
    let reserved!: Promise<string>;
    const rolledBack = db.kysely.transaction().execute(async (trx) => {
      await trx.updateTable('tokens').set({ name: 'renamed' }).where('id', '=', tokenId).execute();
      reserved = reserveQuota(store, { userId, tokenId, tokenUnlimited: false, amount: 300 });
      throw new Error('roll back');
    });
    await expect(rolledBack).rejects.toThrow('roll back');
    expect(await reserved).toBe('ok');
    const b = await balances(userId, tokenId);
    expect(b.user.quota).toBe(700);
    expect(b.token.remain_quota).toBe(700);
  });

  it('refunds a failed call in full without counting it as a request', async () => {
    const { userId, tokenId } = await account(1000, 1000);
    const r: Reservation = { userId, tokenId, tokenUnlimited: false, amount: 300 };
    await reserveQuota(store, r);
    await applySettlements(store, [{ reservation: r, cost: 0, channelId: 0, countsAsRequest: false, log: null }]);
    const b = await balances(userId, tokenId);
    expect(b.user.quota).toBe(1000);
    expect(b.token.remain_quota).toBe(1000);
    expect(b.user.request_count).toBe(0);
  });
});
