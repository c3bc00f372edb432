import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_TYPE, REDEMPTION_STATUS } from '@switchyard/shared';
import { testDatabases } from '../test/databases.js';
import type { Db } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { insertUser } from './users.js';
import {
  findRedemption,
  generateRedemptionKey,
  insertRedemptions,
  listRedemptions,
  redeemCode,
  searchRedemptions,
  setRedemptionStatus,
  softDeleteRedemption,
  updateRedemption,
} from './redemptions.js';

const DISPLAY = { quotaPerUnit: 500_000, displayInCurrency: true };

describe.each(testDatabases())('redemption codes on $name', (database) => {
  let db: Db;
  let drop: () => Promise<void>;
  let n = 0;
  beforeAll(async () => {
    ({ db, drop } = await database.open());
    await migrateToLatest(db);
  });
  afterAll(() => drop());

  const newUser = (quota = 0) => insertUser(db.kysely, { username: `r${++n}`, password: 'x', aff_code: `r${n}`, quota });
  const quotaOf = async (userId: number) =>
    (await db.kysely.selectFrom('users').select('quota').where('id', '=', userId).executeTakeFirstOrThrow()).quota;
  const codeByKey = (key: string) => db.kysely.selectFrom('redemptions').selectAll().where('key', '=', key).executeTakeFirstOrThrow();
  const topUpLogs = (userId: number) =>
    db.kysely.selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', LOG_TYPE.TOPUP).execute();
  async function oneCode(quota = 1000, name = 'batch'): Promise<string> {
    const [key] = await insertRedemptions(db.kysely, { userId: 1, name, quota, count: 1 });
    return key;
  }

  it('creates codes of 128 random bits as 32 lowercase hex digits, all unused, in creation order', async () => {
    const keys = await insertRedemptions(db.kysely, { userId: 7, name: 'launch', quota: 250_000, count: 5 });
    expect(keys).toHaveLength(5);
    expect(new Set(keys).size).toBe(5);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{32}$/);
    const rows = await Promise.all(keys.map(codeByKey));
    expect(rows.map((r) => r.id)).toEqual([...rows.map((r) => r.id)].sort((a, b) => a - b));
    for (const row of rows) {
      expect(row).toMatchObject({ user_id: 7, name: 'launch', quota: 250_000, status: 1, used_user_id: 0, redeemed_time: 0 });
      expect(row.created_time).toBeGreaterThan(0);
    }
  });

  it('retries the whole batch with fresh keys when a key collides', async () => {
    const taken = await oneCode();
    const fresh = [generateRedemptionKey(), generateRedemptionKey()];
    const sequence = [taken, fresh[0], fresh[1]];
    const keys = await insertRedemptions(db.kysely, { userId: 1, name: 'retry', quota: 1, count: 2 }, () => sequence.shift() ?? generateRedemptionKey());
    expect(keys[0]).not.toBe(taken);
    const rows = await db.kysely.selectFrom('redemptions').select('key').where('name', '=', 'retry').execute();
    expect(rows).toHaveLength(2);
  });

  it('credits 20 parallel redeems of one code exactly once', async () => {
    const user = await newUser(100);
    const key = await oneCode(123_456);
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => redeemCode(db.kysely, user, key, DISPLAY)));
    const won = outcomes.filter((o) => o.ok);
    expect(won).toHaveLength(1);
    expect(outcomes.filter((o) => !o.ok).every((o) => !o.ok && o.reason === 'used')).toBe(true);
    expect(await quotaOf(user)).toBe(100 + 123_456);
    expect(await topUpLogs(user)).toHaveLength(1);
  });

  it('credits one of several users racing for the same code, and only that one', async () => {
    const users = await Promise.all(Array.from({ length: 10 }, () => newUser()));
    const key = await oneCode(5000);
    const outcomes = await Promise.all(users.map((u) => redeemCode(db.kysely, u, key, DISPLAY)));
    const winners = users.filter((_, i) => outcomes[i].ok);
    expect(winners).toHaveLength(1);
    const quotas = await Promise.all(users.map(quotaOf));
    expect(quotas.reduce((a, b) => a + b, 0)).toBe(5000);
    const code = await codeByKey(key);
    expect(code.used_user_id).toBe(winners[0]);
  });

  it('marks the code used by the user, with the time, and writes the top-up log', async () => {
    const user = await newUser();
    const key = await oneCode(1_000_000);
    const before = Math.floor(Date.now() / 1000);
    const outcome = await redeemCode(db.kysely, user, key, DISPLAY);
    const code = await codeByKey(key);
    expect(outcome).toEqual({ ok: true, quota: 1_000_000, redemptionId: code.id });
    expect(code.status).toBe(REDEMPTION_STATUS.USED);
    expect(code.used_user_id).toBe(user);
    expect(code.redeemed_time).toBeGreaterThanOrEqual(before);
    const [log] = await topUpLogs(user);
    expect(log.content).toBe(`通过兑换码充值 ＄2.000000 额度，兑换码ID ${code.id}`);
    expect(log.quota).toBe(1_000_000);
    expect(log.username).toBe(`r${n}`);
  });

  it('writes the amount in points when quota is not shown in currency', async () => {
    const user = await newUser();
    const key = await oneCode(777);
    await redeemCode(db.kysely, user, key, { quotaPerUnit: 500_000, displayInCurrency: false });
    const [log] = await topUpLogs(user);
    expect(log.content).toMatch(/^通过兑换码充值 777 点额度，兑换码ID \d+$/);
  });

  it('refuses unknown, disabled, used and deleted codes without touching the balance', async () => {
    const user = await newUser(50);
    expect(await redeemCode(db.kysely, user, generateRedemptionKey(), DISPLAY)).toEqual({ ok: false, reason: 'invalid' });

    const disabled = await oneCode();
    const disabledId = (await codeByKey(disabled)).id;
    expect(await setRedemptionStatus(db.kysely, disabledId, 2)).toBe('ok');
    expect(await redeemCode(db.kysely, user, disabled, DISPLAY)).toEqual({ ok: false, reason: 'disabled' });

    const used = await oneCode();
    expect((await redeemCode(db.kysely, await newUser(), used, DISPLAY)).ok).toBe(true);
    expect(await redeemCode(db.kysely, user, used, DISPLAY)).toEqual({ ok: false, reason: 'used' });

    const deleted = await oneCode();
    expect(await softDeleteRedemption(db.kysely, (await codeByKey(deleted)).id)).toBe(true);
    expect(await redeemCode(db.kysely, user, deleted, DISPLAY)).toEqual({ ok: false, reason: 'invalid' });

    expect(await quotaOf(user)).toBe(50);
    expect(await topUpLogs(user)).toHaveLength(0);
  });

  it('re-enables a disabled code, and then it redeems', async () => {
    const user = await newUser();
    const key = await oneCode(900);
    const id = (await codeByKey(key)).id;
    await setRedemptionStatus(db.kysely, id, 2);
    expect(await setRedemptionStatus(db.kysely, id, 1)).toBe('ok');
    expect((await redeemCode(db.kysely, user, key, DISPLAY)).ok).toBe(true);
    expect(await quotaOf(user)).toBe(900);
  });

  it('never lets a used code be switched back on or edited', async () => {
    const key = await oneCode(400);
    const id = (await codeByKey(key)).id;
    await redeemCode(db.kysely, await newUser(), key, DISPLAY);
    expect(await setRedemptionStatus(db.kysely, id, 1)).toBe('used');
    expect(await setRedemptionStatus(db.kysely, id, 2)).toBe('used');
    expect(await updateRedemption(db.kysely, id, { quota: 1_000_000 })).toBe('not_unused');
    const row = await findRedemption(db.kysely, id);
    expect(row).toMatchObject({ status: 3, quota: 400 });
    expect(await redeemCode(db.kysely, await newUser(), key, DISPLAY)).toEqual({ ok: false, reason: 'used' });
  });

  it('edits only unused codes, and a redeem credits the quota the code holds at that moment', async () => {
    const key = await oneCode(100);
    const id = (await codeByKey(key)).id;
    expect(await updateRedemption(db.kysely, id, { name: 'renamed', quota: 300 })).toBe('ok');
    expect(await updateRedemption(db.kysely, id, { name: 'renamed', quota: 300 })).toBe('ok');
    const user = await newUser();
    expect(await redeemCode(db.kysely, user, key, DISPLAY)).toMatchObject({ ok: true, quota: 300 });
    expect(await quotaOf(user)).toBe(300);

    const off = await oneCode();
    const offId = (await codeByKey(off)).id;
    await setRedemptionStatus(db.kysely, offId, 2);
    expect(await updateRedemption(db.kysely, offId, { name: 'x' })).toBe('not_unused');
    expect(await updateRedemption(db.kysely, 987_654, { name: 'x' })).toBe('missing');
    expect(await setRedemptionStatus(db.kysely, 987_654, 2)).toBe('missing');
  });

  it('credits either the old or the new quota when an edit races the redeem, never a mix', async () => {
    for (let round = 0; round < 5; round++) {
      const key = await oneCode(1000);
      const id = (await codeByKey(key)).id;
      const user = await newUser();
      const [edit, outcome] = await Promise.all([updateRedemption(db.kysely, id, { quota: 2000 }), redeemCode(db.kysely, user, key, DISPLAY)]);
      expect(outcome.ok).toBe(true);
      expect(await quotaOf(user)).toBe(edit === 'ok' ? 2000 : 1000);
      if (edit !== 'ok') expect(edit).toBe('not_unused');
    }
  });

  it('lists newest first without deleted codes, and searches by id or name', async () => {
    const [a] = await insertRedemptions(db.kysely, { userId: 1, name: 'Spring_Sale', quota: 1, count: 1 });
    const [b] = await insertRedemptions(db.kysely, { userId: 1, name: 'summer 100%', quota: 1, count: 1 });
    const [c] = await insertRedemptions(db.kysely, { userId: 1, name: 'gone', quota: 1, count: 1 });
    const ids = await Promise.all([a, b, c].map(async (k) => (await codeByKey(k)).id));
    await softDeleteRedemption(db.kysely, ids[2]);

    const page = await listRedemptions(db.kysely, 0, 2);
    expect(page.map((r) => r.id)).toEqual([ids[1], ids[0]]);
    expect((await listRedemptions(db.kysely, 1, 1)).map((r) => r.id)).toEqual([ids[0]]);

    expect((await searchRedemptions(db.kysely, String(ids[0]), 0, 10)).map((r) => r.id)).toContain(ids[0]);
    expect((await searchRedemptions(db.kysely, 'spring_', 0, 10)).map((r) => r.name)).toEqual(['Spring_Sale']);
    expect((await searchRedemptions(db.kysely, '100%', 0, 10)).map((r) => r.name)).toEqual(['summer 100%']);
    expect(await searchRedemptions(db.kysely, 'gone', 0, 10)).toEqual([]);
    expect(await searchRedemptions(db.kysely, 'spring%', 0, 10)).toEqual([]);
    expect(await findRedemption(db.kysely, ids[2])).toBeUndefined();
    expect(await softDeleteRedemption(db.kysely, ids[2])).toBe(false);
  });
});
