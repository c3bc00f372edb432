import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import type { Db } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { insertUser } from './users.js';
import { completeTopUp, findTopUpByTradeNo, insertTopUp } from './topups.js';

describe.each(testDatabases())('top-up orders on $name', (database) => {
  let db: Db;
  let drop: () => Promise<void>;
  let n = 0;
  beforeAll(async () => {
    ({ db, drop } = await database.open());
    await migrateToLatest(db);
  });
  afterAll(() => drop());

  async function order(quota: number) {
    const userId = await insertUser(db.kysely, { username: `t${++n}`, password: 'x', aff_code: `t${n}`, quota: 100 });
    const tradeNo = `USR${userId}NOtest${n}`;
    await insertTopUp(db.kysely, { user_id: userId, amount: 1, quota, money: 7.3, trade_no: tradeNo, payment_method: 'alipay', create_time: 1 });
    return { userId, tradeNo };
  }
  const quotaOf = async (id: number) =>
    (await db.kysely.selectFrom('users').select('quota').where('id', '=', id).executeTakeFirstOrThrow()).quota;
  const topUpLogs = (id: number) =>
    db.kysely.selectFrom('logs').select(['type', 'quota', 'content']).where('user_id', '=', id).execute();

  it('credits a pending order once, with its log, and marks it paid', async () => {
    const { userId, tradeNo } = await order(500_000);
    const credited = await completeTopUp(db.kysely, tradeNo, 42, (o) => `paid ${o.quota}`);
    expect(credited?.quota).toBe(500_000);
    expect(await quotaOf(userId)).toBe(500_100);
    expect(await topUpLogs(userId)).toEqual([{ type: 1, quota: 500_000, content: 'paid 500000' }]);
    const row = await findTopUpByTradeNo(db.kysely, tradeNo);
    expect(row).toMatchObject({ status: 'success', complete_time: 42 });

    expect(await completeTopUp(db.kysely, tradeNo, 43, () => 'again')).toBeNull();
    expect(await quotaOf(userId)).toBe(500_100);
    expect(await topUpLogs(userId)).toHaveLength(1);
  });

  it('credits exactly once when 20 completions of the same order race', async () => {
    const { userId, tradeNo } = await order(1_000_000);
    const results = await Promise.all(Array.from({ length: 20 }, () => completeTopUp(db.kysely, tradeNo, 1, () => 'paid')));
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect(await quotaOf(userId)).toBe(1_000_100);
    expect(await topUpLogs(userId)).toHaveLength(1);
  });

  it('keeps trade numbers unique and knows nothing of unknown ones', async () => {
    const { userId, tradeNo } = await order(1);
    await expect(
      insertTopUp(db.kysely, { user_id: userId, amount: 1, quota: 1, money: 1, trade_no: tradeNo, payment_method: 'wxpay', create_time: 1 }),
    ).rejects.toThrow();
    expect(await findTopUpByTradeNo(db.kysely, 'nope')).toBeUndefined();
    expect(await completeTopUp(db.kysely, 'nope', 1, () => 'x')).toBeNull();
  });
});
