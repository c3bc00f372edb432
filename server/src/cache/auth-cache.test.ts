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
