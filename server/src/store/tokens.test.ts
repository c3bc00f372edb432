import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import type { Db } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import {
  consumeTokenQuota,
  findTokenByKey,
  generateTokenKey,
  insertToken,
  refundTokenQuota,
  type NewTokenInput,
} from './tokens.js';

const base: NewTokenInput = {
  user_id: 1,
  name: 'store',
  status: 1,
  expired_time: -1,
  remain_quota: 0,
  unlimited_quota: false,
  model_limits_enabled: false,
  model_limits: '',
  allow_ips: '',
  group: '',
};

describe.each(testDatabases())('token store on $name', (database) => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await database.open());
    await migrateToLatest(db);
  });
  afterAll(() => drop());

  const quotas = (id: number) =>
    db.kysely.selectFrom('tokens').select(['remain_quota', 'used_quota']).where('id', '=', id).executeTakeFirstOrThrow();

  it('never lets 20 parallel consumptions take a token below zero', async () => {
    const token = await insertToken(db.kysely, { ...base, remain_quota: 1000 });
    const results = await Promise.all(Array.from({ length: 20 }, () => consumeTokenQuota(db.kysely, token.id, 70)));
    expect(results.filter(Boolean)).toHaveLength(14);
    expect(await quotas(token.id)).toEqual({ remain_quota: 1000 - 14 * 70, used_quota: 14 * 70 });
  });

  it('spends exactly the remainder, then refuses even one unit', async () => {
    const token = await insertToken(db.kysely, { ...base, remain_quota: 50 });
    expect(await consumeTokenQuota(db.kysely, token.id, 50)).toBe(true);
    expect(await consumeTokenQuota(db.kysely, token.id, 1)).toBe(false);
    expect(await consumeTokenQuota(db.kysely, token.id, 0)).toBe(true);
    expect(await quotas(token.id)).toEqual({ remain_quota: 0, used_quota: 50 });
  });

  it('counts usage of an unlimited token without touching its remaining quota', async () => {
    const token = await insertToken(db.kysely, { ...base, remain_quota: 10, unlimited_quota: true });
    const results = await Promise.all(Array.from({ length: 20 }, () => consumeTokenQuota(db.kysely, token.id, 100)));
    expect(results.every(Boolean)).toBe(true);
    expect(await quotas(token.id)).toEqual({ remain_quota: 10, used_quota: 2000 });
  });

  it('refunds what was consumed and never drives used_quota negative', async () => {
    const token = await insertToken(db.kysely, { ...base, remain_quota: 100 });
    expect(await consumeTokenQuota(db.kysely, token.id, 60)).toBe(true);
    expect(await refundTokenQuota(db.kysely, token.id, 20)).toBe(true);
    expect(await quotas(token.id)).toEqual({ remain_quota: 60, used_quota: 40 });
    expect(await refundTokenQuota(db.kysely, token.id, 41)).toBe(false);
    expect(await quotas(token.id)).toEqual({ remain_quota: 60, used_quota: 40 });
  });

  it('refuses amounts that are not non-negative integers', async () => {
    await expect(consumeTokenQuota(db.kysely, 1, -1)).rejects.toThrow();
    await expect(consumeTokenQuota(db.kysely, 1, 0.5)).rejects.toThrow();
    await expect(refundTokenQuota(db.kysely, 1, Number.NaN)).rejects.toThrow();
  });

  it('retries with a fresh key when the generated one is already taken', async () => {
    const first = await insertToken(db.kysely, base);
    const fresh = generateTokenKey();
    const keys = [first.key, first.key, fresh];
    const second = await insertToken(db.kysely, base, () => keys.shift()!);
    expect(second.key).toBe(fresh);
    expect(second.id).not.toBe(first.id);
    await expect(insertToken(db.kysely, base, () => first.key)).rejects.toThrow();
  });

  it('finds a live token only by its exact key', async () => {
    const token = await insertToken(db.kysely, base);
    expect((await findTokenByKey(db.kysely, token.key))?.id).toBe(token.id);
    expect(await findTokenByKey(db.kysely, token.key.slice(0, 47))).toBeUndefined();
    expect(await findTokenByKey(db.kysely, `sk-${token.key}`)).toBeUndefined();
    const swapped = token.key.replace(/[a-zA-Z]/, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
    expect(await findTokenByKey(db.kysely, swapped)).toBeUndefined();
  });
});
