import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../db/schema.js';
import { AuthCache } from './auth-cache.js';
import { LocalBus } from './bus.js';

/*
 * A read of a token or user that was under way when a change to it arrived may bring back the row as it was
 * before the change: kept, it would serve the revoked state for the cache's whole lifetime.
 */

/** A database whose one read answers only when the test says, with the row the test gives. */
function slowDb() {
  let answer!: (row: unknown) => void;
  const query = {
    selectAll: () => query,
    where: () => query,
    executeTakeFirst: () => new Promise((resolve) => (answer = resolve)),
  };
  const db = { selectFrom: () => query } as unknown as Kysely<Database>;
  return { db, answer: (row: unknown) => answer(row) };
}

describe('the auth cache and a change during a read', () => {
  it('does not keep a token read that was under way when the token changed', async () => {
    const { db, answer } = slowDb();
    const cache = new AuthCache(db, new LocalBus(), 60_000);
    const reading = cache.token('k1');
    await cache.forgetToken('k1');
    answer({ key: 'k1', user_id: 1, status: 1 });
    await reading;
    expect(cache.cachedToken('k1')).toBeTypeOf('symbol');
  });

  it('does not keep a user read that was under way when the user changed', async () => {
    const { db, answer } = slowDb();
    const cache = new AuthCache(db, new LocalBus(), 60_000);
    const reading = cache.user(1);
    await cache.forgetUser(1);
    answer({ id: 1, status: 1 });
    await reading;
    expect(cache.cachedUser(1)).toBeTypeOf('symbol');
  });

  it('keeps a read when nothing changed meanwhile', async () => {
    const { db, answer } = slowDb();
    const cache = new AuthCache(db, new LocalBus(), 60_000);
    const reading = cache.user(1);
    answer({ id: 1, status: 1 });
    await reading;
    expect(cache.cachedUser(1)).toEqual({ id: 1, status: 1 });
  });
});

/** A database that answers every token read with the row the test sets, counting the reads. */
function countingDb(row: Record<string, unknown>) {
  const state = { row, reads: 0 };
  const query = {
    selectAll: () => query,
    where: () => query,
    executeTakeFirst: async () => {
      state.reads++;
      return { ...state.row };
    },
  };
  return { db: { selectFrom: () => query } as unknown as Kysely<Database>, state };
}

/*
 * Balances noted here after charges are hints. A row read while a call's reservation was being written already
 * lacks it, and the call then notes its estimate on that row as well: a burst can make a funded token look spent.
 */
describe('the auth cache and a balance lowered by local bookkeeping', () => {
  const funded = { key: 'k1', user_id: 1, status: 1, remain_quota: 5000, unlimited_quota: 0 };

  it('answers the cached row itself while its balance is as read', async () => {
    const { db, state } = countingDb(funded);
    const cache = new AuthCache(db, new LocalBus(), 60_000);
    const row = (await cache.token('k1'))!;
    expect(cache.confirmedToken('k1', row)).toBe(row);
    expect(state.reads).toBe(1);
  });

  it('reads a token again, once for many callers, when noted charges made it look spent', async () => {
    const { db, state } = countingDb(funded);
    const cache = new AuthCache(db, new LocalBus(), 60_000);
    const row = (await cache.token('k1'))!;
    cache.noteCharge('k1', 1, 6000);
    expect(row.remain_quota).toBe(-1000);
    const confirming = Array.from({ length: 50 }, () => cache.confirmedToken('k1', row));
    const rows = await Promise.all(confirming);
    expect(state.reads).toBe(2);
    expect(rows.every((r) => r?.remain_quota === 5000)).toBe(true);
    // The fresh row replaces the hinted one, and is not itself a hint.
    const fresh = cache.cachedToken('k1') as typeof row;
    expect(fresh.remain_quota).toBe(5000);
    expect(cache.confirmedToken('k1', fresh)).toBe(fresh);
    expect(state.reads).toBe(2);
  });

  it('keeps answering from memory a token the database confirms as spent', async () => {
    const { db, state } = countingDb(funded);
    const cache = new AuthCache(db, new LocalBus(), 60_000);
    const row = (await cache.token('k1'))!;
    cache.noteCharge('k1', 1, 6000);
    state.row = { ...funded, remain_quota: 0 };
    const confirmed = (await cache.confirmedToken('k1', row))!;
    expect(confirmed.remain_quota).toBe(0);
    expect(cache.confirmedToken('k1', confirmed)).toBe(confirmed);
    expect(state.reads).toBe(2);
  });

  it('never treats a refund as a hint', async () => {
    const { db } = countingDb(funded);
    const cache = new AuthCache(db, new LocalBus(), 60_000);
    const row = (await cache.token('k1'))!;
    cache.noteCharge('k1', 1, -100);
    expect(cache.confirmedToken('k1', row)).toBe(row);
  });
});
