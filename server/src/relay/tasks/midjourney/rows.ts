import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { FINAL_STATUSES } from '../../../store/task-money.js';
import type { MidjourneyRow } from '../../../store/async-tasks.js';
import type { Caller } from '../../auth.js';
import { ACCEPTED_CODES } from './wire.js';

type Db = Kysely<Database>;

/**
 * Whose drawings a caller may read or build on: always its own user's; a token pinned to a channel (administrators
 * only) sees that channel's among them.
 */
export interface TaskScope {
  userId: number;
  channelId: number | null;
}

export const scopeOf = (caller: Caller): TaskScope => ({ userId: caller.user.id, channelId: caller.pinnedChannelId });

function scoped(db: Db, scope: TaskScope) {
  let q = db.selectFrom('midjourneys').selectAll().where('user_id', '=', scope.userId);
  if (scope.channelId !== null) q = q.where('channel_id', '=', scope.channelId);
  return q;
}

/** The caller's task with this upstream id (the newest, should the upstream have reused one). */
export async function findOwnTask(db: Db, scope: TaskScope, mjId: string): Promise<MidjourneyRow | undefined> {
  if (!mjId) return undefined;
  return scoped(db, scope).where('mj_id', '=', mjId).orderBy('id', 'desc').executeTakeFirst();
}

/** The caller's tasks among these upstream ids, oldest first. */
export async function listOwnTasks(db: Db, scope: TaskScope, mjIds: readonly string[]): Promise<MidjourneyRow[]> {
  const ids = [...new Set(mjIds.filter((id) => id !== ''))];
  if (ids.length === 0) return [];
  return scoped(db, scope).where('mj_id', 'in', ids).orderBy('id', 'asc').execute();
}

/** Any task with this upstream id and an image: what the unauthenticated image route may fetch. */
export async function findImage(db: Db, mjId: string): Promise<{ url: string; channelId: number } | undefined> {
  if (!mjId) return undefined;
  const row = await db.selectFrom('midjourneys').select(['image_url', 'channel_id']).where('mj_id', '=', mjId).where('image_url', '!=', '').orderBy('id', 'desc').executeTakeFirst();
  return row ? { url: row.image_url, channelId: Number(row.channel_id) } : undefined;
}

/**
 * Every task still to be brought up to date: not final, and accepted when submitted (imported rows of refused
 * submissions, never charged, are left alone).
 */
export async function unfinishedTasks(db: Db): Promise<MidjourneyRow[]> {
  const open = db.selectFrom('midjourneys').selectAll().where((eb) => eb.and([eb('status', 'not in', FINAL_STATUSES), eb('code', 'in', ACCEPTED_CODES)]));
  return open.orderBy('id', 'asc').execute();
}
