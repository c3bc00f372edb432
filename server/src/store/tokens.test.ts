import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import type { Db } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { findTokenByKey, generateTokenKey, insertToken, type NewTokenInput } from './tokens.js';

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
