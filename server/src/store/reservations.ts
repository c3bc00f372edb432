import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/*
 * The journal of reservations in flight (migration 010). quota.ts writes a row with each reservation and deletes it
 * with the settlement, in the same transactions; this file names the holders and gives back what a dead holder
 * left.
 */

type Db = Kysely<Database>;

/**
 * The holder name of a process: its host, pid and start time (ms). A pid is unique among the processes alive on a
 * host, but is used again later (a restarted container counts from 1): the start time tells a live process from a
 * dead one that had its pid.
 */
export const reservationHolder = (pid: number, startedMs: number, host: string = hostname()): string =>
  `${host.slice(0, 80)}/${pid}/${Math.round(startedMs)}`;

/** This process's holder name. */
export const OWN_HOLDER = reservationHolder(process.pid, performance.timeOrigin);

/** Reservations older than this are given back at start whatever their holder: no call lasts a day. */
export const STALE_RESERVATION_SECONDS = 86_400;

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
  return releaseWhere(db, { holder });
}

/** What every process with this pid on this host left (the primary's dead worker, whatever its start time). */
export async function releaseReservationsOfProcess(db: Db, pid: number, host: string = hostname()): Promise<Released> {
  return releaseWhere(db, { holderLike: `${host.slice(0, 80)}/${pid}/%` });
}

/** At start: reservations older than STALE_RESERVATION_SECONDS, whatever their holder (a host that never came back). */
export async function releaseStaleReservations(db: Db, now: number = Math.floor(Date.now() / 1000)): Promise<Released> {
  return releaseWhere(db, { createdBefore: now - STALE_RESERVATION_SECONDS });
}

interface Which {
  holder?: string;
  holderLike?: string;
  createdBefore?: number;
}

async function releaseWhere(db: Db, which: Which): Promise<Released> {
  return db.transaction().execute(async (trx) => {
    let q = trx.selectFrom('reservations').selectAll();
    if (which.holder !== undefined) q = q.where('holder', '=', which.holder);
    if (which.holderLike !== undefined) q = q.where('holder', 'like', which.holderLike);
    if (which.createdBefore !== undefined) q = q.where('created_at', '<', which.createdBefore);
    const rows = await q.orderBy('id').execute();
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

/**
 * What /proc says of a process of this host: when it started (ms since the epoch) and whether it has exited (a
 * zombie: killed, its parent gone or not yet told — it keeps its pid until reaped). Null without /proc.
 */
function procState(pid: number): { startedMs: number; exited: boolean } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is the state (field 3); starttime (field 22) is in clock ticks since boot, USER_HZ 100 on Linux.
    const ticks = Number(fields[19]);
    const btime = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1]);
    if (!Number.isFinite(ticks) || !Number.isFinite(btime)) return null;
    return { startedMs: btime * 1000 + ticks * 10, exited: fields[0] === 'Z' || fields[0] === 'X' };
  } catch {
    return null;
  }
}

/** Whether the process a holder names is still the one running under its pid (running, and its start time matches). */
export function holderAlive(pid: number, startedMs: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: it exists, owned by someone else.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const proc = procState(pid);
  // Start times agree to the clock tick and the second the boot time is given in; without /proc, the pid decides.
  return proc === null || (!proc.exited && Math.abs(proc.startedMs - startedMs) < 2_000);
}

/**
 * At start: gives back what processes of this host that are no longer running left reserved (a process killed
 * outright, with no primary to see it go; a container restarted, its pids counted again from 1), and what any
 * holder left more than a day ago. Holders on other hosts are otherwise left to their own hosts.
 */
export async function releaseDeadHoldersOfHost(
  db: Db,
  host: string = hostname(),
  isAlive: (pid: number, startedMs: number) => boolean = holderAlive,
): Promise<Released> {
  const prefix = `${host.slice(0, 80)}/`;
  const holders = await db.selectFrom('reservations').select('holder').distinct().where('holder', 'like', `${prefix}%`).execute();
  const total = await releaseStaleReservations(db);
  for (const { holder } of holders) {
    if (holder === OWN_HOLDER) continue;
    const [pid, started] = holder.slice(prefix.length).split('/').map(Number);
    if (!Number.isInteger(pid) || isAlive(pid, started)) continue;
    const r = await releaseReservationsOf(db, holder);
    total.calls += r.calls;
    total.quota += r.quota;
  }
  return total;
}
