import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Db } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { insertUser } from '../store/users.js';
import { testDatabases } from '../test/databases.js';
import { GRACE_MS, QuotaGate } from './quota-gate.js';

/*
 * A call that does not fit waits for the balance its user's calls in flight give back, until that balance is
 * written: a settlement queued but held back (the database refusing the batch for a moment) is still on its way.
 */

const [sqlite] = testDatabases(['sqlite']);

describe('the quota gate', () => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await sqlite.open());
    await migrateToLatest(db);
  });
  afterAll(() => drop());

  it('keeps a call waiting while the settlement that frees its balance is queued but not yet written', async () => {
    const userId = await insertUser(db.kysely, { username: 'gate', password: 'x', aff_code: 'gate', quota: 1000 });
    const gate = new QuotaGate(db.kysely, () => {});
    const reservation = { userId, tokenId: 0, tokenUnlimited: true, amount: 800 };
    expect(await gate.reserve(reservation)).toBe('ok');
    let outcome: string | null = null;
    const second = gate.reserve(reservation).then((o) => (outcome = o));
    // The first call ends: its settlement is queued, and the database does not take it for a while.
    gate.release(userId);
    await new Promise((r) => setTimeout(r, GRACE_MS + 300));
    expect(outcome).toBeNull();
    // Written at last: the 800 come back (the call cost nothing) and the waiting call gets its reservation.
    await sql`update users set quota = quota + 800 where id = ${userId}`.execute(db.kysely);
    gate.settled([userId]);
    await second;
    expect(outcome).toBe('ok');
  });
});
