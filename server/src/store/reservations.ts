import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/*
 * The journal of reservations in flight (migration 010). quota.ts writes a row with each reservation and deletes it
 * with the settlement, in the same transactions; this file names the holders and gives back what a dead holder
 * left.
 */

type Db = Kysely<Database>;

/** The holder name of a process: its host and pid (unique among the processes alive on a host). */
export const reservationHolder = (pid: number, host: string = hostname()): string => `${host}/${pid}`.slice(0, 128);

/** This process's holder name. */
export const OWN_HOLDER = reservationHolder(process.pid);

const ID_PREFIX = randomBytes(6).toString('hex');
let counter = 0;

/** A new reservation id: unique across processes (a random prefix per process), cheap within one (a counter). */
export function newReservationId(): string {
  return ID_PREFIX + (counter++).toString(36);
}

export interface Released {
  calls: number;
  quota: number;
}

/**
 * Gives back to users and tokens what the holder's reservations took, and deletes them, in one transaction: the
 * calls they belonged to died with their process before settling, so nothing of them was charged.
 */
export async function releaseReservationsOf(db: Db, holder: string): Promise<Released> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx.selectFrom('reservations').selectAll().where('holder', '=', holder).orderBy('id').execute();
    const users = new Map<number, number>();
    const tokens = new Map<number, number>();
    const released: Released = { calls: 0, quota: 0 };
    for (const r of rows) {
      // Given back only by whoever deletes the row: a second release running at the same time finds it gone.
      const gone = await trx.deleteFrom('reservations').where('id', '=', r.id).executeTakeFirst();
      if (Number(gone.numDeletedRows) !== 1) continue;
      const amount = Number(r.amount);
      released.calls++;
      released.quota += amount;
      users.set(r.user_id, (users.get(r.user_id) ?? 0) + amount);
      if (r.token_id > 0) tokens.set(r.token_id, (tokens.get(r.token_id) ?? 0) + amount);
    }
    for (const [id, amount] of users) await trx.updateTable('users').set({ quota: sql`quota + ${amount}` }).where('id', '=', id).execute();
    for (const [id, amount] of tokens) await trx.updateTable('tokens').set({ remain_quota: sql`remain_quota + ${amount}` }).where('id', '=', id).execute();
    return released;
  });
}

/** Whether a process of this host is alive (signal 0 tests without sending anything). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, owned by someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * At start: gives back what processes of this host that are no longer running left reserved (a process killed
 * outright, with no primary to see it go). Holders on other hosts are left to their own hosts. Rows in this
 * process's own name are given back only when `ownAreStale`: at the first start in a process they were left by an
 * earlier process with the same pid (a restarted container keeps its hostname, and its processes their pids).
 */
export async function releaseDeadHoldersOfHost(
  db: Db,
  host: string = hostname(),
  isAlive: (pid: number) => boolean = alive,
  ownAreStale = false,
): Promise<Released> {
  const prefix = `${host}/`;
  const holders = await db.selectFrom('reservations').select('holder').distinct().where('holder', 'like', `${prefix}%`).execute();
  const total: Released = { calls: 0, quota: 0 };
  for (const { holder } of holders) {
    const pid = Number(holder.slice(prefix.length));
    if (!Number.isInteger(pid) || (pid === process.pid ? !ownAreStale : isAlive(pid))) continue;
    const r = await releaseReservationsOf(db, holder);
    total.calls += r.calls;
    total.quota += r.quota;
  }
  return total;
}
