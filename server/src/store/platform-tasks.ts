import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { TaskRow } from './async-tasks.js';
import { FINAL_STATUSES } from './task-money.js';

/*
 * The `tasks` rows of one platform (suno, later video), as its relay reads them: a caller's own tasks by upstream
 * id (answers and follow-ups never reach another user's task), and the unfinished ones its poller brings up to date.
 */

type Db = Kysely<Database>;

/** The tasks of `userId` on `platform` among `taskIds` (and of `action`, when given), oldest first. */
export async function listOwnTasks(db: Db, platform: string, userId: number, taskIds: readonly string[], action = ''): Promise<TaskRow[]> {
  if (taskIds.length === 0) return [];
  let q = db.selectFrom('tasks').selectAll().where('platform', '=', platform).where('user_id', '=', userId).where('task_id', 'in', [...taskIds]);
  if (action) q = q.where('action', '=', action);
  return q.orderBy('id', 'asc').execute();
}

/** One task of `userId` on `platform` by its upstream id (the latest, should the upstream have reused an id). */
export async function findOwnTask(db: Db, platform: string, userId: number, taskId: string): Promise<TaskRow | undefined> {
  return (await listOwnTasks(db, platform, userId, [taskId])).at(-1);
}

/** Unfinished tasks read per polling round at most; the rest wait for the next (the oldest end first, one way or another). */
export const UNFINISHED_PER_ROUND = 10_000;

/** The tasks of `platform` that have not ended yet, oldest first. */
export async function unfinishedTasks(db: Db, platform: string): Promise<TaskRow[]> {
  const unfinished = db.selectFrom('tasks').selectAll().where('platform', '=', platform).where('status', 'not in', FINAL_STATUSES);
  return unfinished.orderBy('id', 'asc').limit(UNFINISHED_PER_ROUND).execute();
}
