import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

type Db = Kysely<Database>;

/**
 * Takes or renews the lease `name` for `holder` until `until` (ms): granted when nobody holds it, the holder
 * already does, or the last holder's lease ran out before `now`. One conditional update (or the first insert)
 * decides, so two nodes asking at once never both get it.
 */
export async function takeLease(db: Db, name: string, holder: string, now: number, until: number): Promise<boolean> {
  const renewed = await db
    .updateTable('job_leases')
    .set({ holder, expires_at: until })
    .where('name', '=', name)
    .where((eb) => eb.or([eb('holder', '=', holder), eb('expires_at', '<', now)]))
    .executeTakeFirst();
  if (Number(renewed.numUpdatedRows) === 1) return true;
  const exists = await db.selectFrom('job_leases').select('name').where('name', '=', name).executeTakeFirst();
  if (exists) return false;
  try {
    await db.insertInto('job_leases').values({ name, holder, expires_at: until }).execute();
    return true;
  } catch {
    // Another node inserted it first (primary key): theirs.
    return false;
  }
}

/** Gives the lease up at once (a node stopping), so another node need not wait for it to run out. */
export async function dropLease(db: Db, name: string, holder: string): Promise<void> {
  await db.updateTable('job_leases').set({ expires_at: 0 }).where('name', '=', name).where('holder', '=', holder).execute();
}
