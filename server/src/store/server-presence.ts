import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { takeLease } from './job-leases.js';

type Db = Kysely<Database>;

/*
 * A running server process keeps a row of its own in `job_leases` (name `server:<id>`, holder: host and pid),
 * renewed while it runs and removed when it stops. `npm run import` refuses a database that has a live one. A row
 * of a process that was killed stops counting when it runs out: a crash never blocks an import for good.
 */

const PREFIX = 'server:';

export interface LiveServer {
  /** host/pid of the process. */
  holder: string;
  /** When its row runs out (ms) unless renewed. */
  expiresAt: number;
}

/** Announces or renews the process `id` until `until` (ms). */
export async function announceServer(db: Db, id: string, holder: string, now: number, until: number): Promise<void> {
  await takeLease(db, `${PREFIX}${id}`, holder.slice(0, 64), now, until);
}

export async function withdrawServer(db: Db, id: string): Promise<void> {
  await db.deleteFrom('job_leases').where('name', '=', `${PREFIX}${id}`).execute();
}

/** The processes whose rows have not run out at `now` (ms); the rows that have are removed. */
export async function liveServers(db: Db, now: number): Promise<LiveServer[]> {
  const ours = sql<boolean>`${sql.ref('name')} like ${`${PREFIX}%`}`;
  await db.deleteFrom('job_leases').where(ours).where('expires_at', '<', now).execute();
  const rows = await db.selectFrom('job_leases').select(['holder', 'expires_at']).where(ours).execute();
  return rows.map((r) => ({ holder: r.holder, expiresAt: Number(r.expires_at) }));
}
