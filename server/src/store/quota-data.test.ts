import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import type { Db } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { insertUser } from './users.js';
import { addQuotaData, hourOf, quotaDataSeries, type QuotaDataDelta } from './quota-data.js';

const H = 3600;
const BASE = 1_700_000_000 - (1_700_000_000 % H);

describe('hourOf', () => {
  it('cuts a moment down to the start of its hour', () => {
    expect(hourOf(BASE)).toBe(BASE);
    expect(hourOf(BASE + 1)).toBe(BASE);
    expect(hourOf(BASE + H - 1)).toBe(BASE);
    expect(hourOf(BASE + H)).toBe(BASE + H);
  });
});

describe.each(testDatabases())('quota_data on $name', (database) => {
  let db: Db;
  let drop: () => Promise<void>;
  let userSeq = 0;
  beforeAll(async () => {
    ({ db, drop } = await database.open());
    await migrateToLatest(db);
  });
  afterAll(() => drop());

  async function user(name = `qd${++userSeq}`): Promise<{ id: number; name: string }> {
    const id = await insertUser(db.kysely, { username: name, password: 'x', aff_code: name });
    return { id, name };
  }

  const delta = (u: { id: number; name: string }, modelName: string, createdAt: number, count: number, tokenUsed: number, quota: number): QuotaDataDelta => ({
    userId: u.id,
    username: u.name,
    modelName,
    createdAt,
    count,
    tokenUsed,
    quota,
    // Every token a prompt token, one cache read per call: the hit rate's sums are told apart from the rest.
    promptTokens: tokenUsed,
    cacheTokens: count,
  });

  async function rowsOf(userId: number) {
    return db.kysely
      .selectFrom('quota_data')
      .select(['model_name', 'created_at', 'count', 'token_used', 'quota', 'username', 'prompt_tokens', 'cache_tokens'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('model_name')
      .execute();
  }

  it('adds to the row of the same user, model and hour, and creates rows for new ones', async () => {
    const u = await user();
    await addQuotaData(db.kysely, db.dialect, [delta(u, 'gpt-4o', BASE, 2, 100, 1000), delta(u, 'claude-3', BASE, 1, 10, 50)]);
    await addQuotaData(db.kysely, db.dialect, [delta(u, 'gpt-4o', BASE, 3, 30, 300), delta(u, 'gpt-4o', BASE + H, 1, 5, 7)]);
    const rows = await rowsOf(u.id);
    const numbers = (r: (typeof rows)[number]) => ({
      ...r,
      created_at: Number(r.created_at),
      count: Number(r.count),
      token_used: Number(r.token_used),
      quota: Number(r.quota),
      prompt_tokens: Number(r.prompt_tokens),
      cache_tokens: Number(r.cache_tokens),
    });
    expect(rows.map(numbers)).toEqual([
      { model_name: 'claude-3', created_at: BASE, count: 1, token_used: 10, quota: 50, username: u.name, prompt_tokens: 10, cache_tokens: 1 },
      { model_name: 'gpt-4o', created_at: BASE, count: 5, token_used: 130, quota: 1300, username: u.name, prompt_tokens: 130, cache_tokens: 5 },
      { model_name: 'gpt-4o', created_at: BASE + H, count: 1, token_used: 5, quota: 7, username: u.name, prompt_tokens: 5, cache_tokens: 1 },
    ]);
  });

  it('keeps the newest username on a row', async () => {
    const u = await user();
    await addQuotaData(db.kysely, db.dialect, [delta(u, 'm', BASE, 1, 1, 1)]);
    await addQuotaData(db.kysely, db.dialect, [delta({ id: u.id, name: `${u.name}-renamed` }, 'm', BASE, 1, 1, 1)]);
    const [row] = await rowsOf(u.id);
    expect(row.username).toBe(`${u.name}-renamed`);
    expect(Number(row.count)).toBe(2);
  });

  it('loses nothing when many writers add to the same rows at once', async () => {
    const u = await user();
    const models = ['gpt-4o', 'gpt-4o-mini', 'claude-3-5-sonnet'];
    const hours = [BASE, BASE + H, BASE + 2 * H, BASE + 3 * H];
    // 8 concurrent transactions, each touching every row (first ones insert, later ones update, all at once),
    // in different orders so that lock ordering inside the store is what prevents deadlocks.
    const writers = Array.from({ length: 8 }, (_, w) => {
      const deltas = models.flatMap((m) => hours.map((h) => delta(u, m, h, 1, 10 + w, 100 * (w + 1))));
      return w % 2 === 0 ? deltas : deltas.reverse();
    });
    for (let round = 0; round < 3; round++) {
      await Promise.all(writers.map((deltas) => addQuotaData(db.kysely, db.dialect, deltas)));
    }
    const rows = await rowsOf(u.id);
    expect(rows).toHaveLength(models.length * hours.length);
    const tokenSum = 3 * Array.from({ length: 8 }, (_, w) => 10 + w).reduce((a, b) => a + b, 0);
    const quotaSum = 3 * Array.from({ length: 8 }, (_, w) => 100 * (w + 1)).reduce((a, b) => a + b, 0);
    for (const row of rows) {
      expect(Number(row.count)).toBe(24);
      expect(Number(row.token_used)).toBe(tokenSum);
      expect(Number(row.quota)).toBe(quotaSum);
    }
  });

  it('writes nothing for an empty batch', async () => {
    await expect(addQuotaData(db.kysely, db.dialect, [])).resolves.toBeUndefined();
  });

  describe('the series the dashboard reads', () => {
    let alice: { id: number; name: string };
    let bob: { id: number; name: string };
    const T = BASE + 100 * H;
    beforeAll(async () => {
      alice = await user(`alice${userSeq}`);
      bob = await user(`bob${userSeq}`);
      await addQuotaData(db.kysely, db.dialect, [
        delta(alice, 'gpt-4o', T, 2, 20, 200),
        delta(alice, 'gpt-4o', T + H, 1, 10, 100),
        delta(alice, 'claude-3', T + H, 4, 40, 400),
        delta(bob, 'gpt-4o', T, 3, 30, 300),
        delta(bob, 'gpt-4o', T + 5 * H, 9, 90, 900),
      ]);
    });

    it('sums every user per model and hour, oldest first', async () => {
      const rows = await quotaDataSeries(db.kysely, { start: T, end: T + 2 * H });
      expect(rows).toEqual([
        { user_id: 0, username: '', model_name: 'gpt-4o', created_at: T, count: 5, token_used: 50, quota: 500, prompt_tokens: 50, cache_tokens: 5 },
        { user_id: 0, username: '', model_name: 'claude-3', created_at: T + H, count: 4, token_used: 40, quota: 400, prompt_tokens: 40, cache_tokens: 4 },
        { user_id: 0, username: '', model_name: 'gpt-4o', created_at: T + H, count: 1, token_used: 10, quota: 100, prompt_tokens: 10, cache_tokens: 1 },
      ]);
    });

    it('selects one user by id or by name', async () => {
      const byId = await quotaDataSeries(db.kysely, { start: T, end: T + 10 * H, userId: bob.id });
      expect(byId.map((r) => [r.created_at, r.count])).toEqual([
        [T, 3],
        [T + 5 * H, 9],
      ]);
      const byName = await quotaDataSeries(db.kysely, { start: T, end: T + 10 * H, username: alice.name });
      expect(byName.map((r) => [r.model_name, r.created_at, r.quota])).toEqual([
        ['gpt-4o', T, 200],
        ['claude-3', T + H, 400],
        ['gpt-4o', T + H, 100],
      ]);
      expect(byName.every((r) => r.username === alice.name)).toBe(true);
      expect(await quotaDataSeries(db.kysely, { start: T, end: T + 10 * H, username: 'nobody-at-all' })).toEqual([]);
    });

    it('includes the hour that contains the start and ends at the end', async () => {
      const rows = await quotaDataSeries(db.kysely, { start: T + H + 1800, end: T + H + 1 });
      expect(rows.map((r) => r.model_name)).toEqual(['claude-3', 'gpt-4o']);
      expect(await quotaDataSeries(db.kysely, { start: T + H + 1800, end: T + H - 1, userId: alice.id })).toEqual([]);
    });
  });
});
