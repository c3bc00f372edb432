import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, MidjourneysTable, TasksTable } from '../db/schema.js';

/*
 * Drawing tasks (`midjourneys`) and async tasks (`tasks`): rows written by the relays, read by the console's task
 * logs. Both lists come newest first by id, filtered by owner, channel, upstream id and a submit-time window.
 */

type Db = Kysely<Database>;
export type MidjourneyRow = Selectable<MidjourneysTable>;
export type TaskRow = Selectable<TasksTable>;

export interface TaskFilter {
  /** The owner's rows only (the self views). */
  userId?: number;
  /** 0 = every channel. */
  channelId: number;
  /** The upstream task id, exact; '' = any. */
  upstreamId: string;
  /** Bounds on submit_time, in the column's own unit; 0 = open. */
  startTime: number;
  endTime: number;
}

export interface TaskPageRequest {
  offset: number;
  limit: number;
}

export const MIDJOURNEY_DEFAULTS = {
  code: 0, user_id: 0, action: '', mj_id: '', prompt: '', prompt_en: '', description: '', state: '', submit_time: 0,
  start_time: 0, finish_time: 0, image_url: '', status: '', progress: '', fail_reason: '', channel_id: 0, quota: 0,
  buttons: '', properties: '', token_id: 0, token_quota: 0,
} satisfies Insertable<MidjourneysTable>;

export const TASK_DEFAULTS = {
  created_at: 0, updated_at: 0, task_id: '', platform: '', user_id: 0, channel_id: 0, quota: 0, action: '', status: '',
  fail_reason: '', submit_time: 0, start_time: 0, finish_time: 0, progress: '', properties: '', data: '', token_id: 0, token_quota: 0,
} satisfies Insertable<TasksTable>;

export async function insertMidjourney(db: Db, row: Partial<Insertable<MidjourneysTable>>): Promise<void> {
  await db.insertInto('midjourneys').values({ ...MIDJOURNEY_DEFAULTS, ...row }).execute();
}

export async function insertTask(db: Db, row: Partial<Insertable<TasksTable>>): Promise<void> {
  await db.insertInto('tasks').values({ ...TASK_DEFAULTS, ...row }).execute();
}

export async function listMidjourneys(db: Db, filter: TaskFilter, page: TaskPageRequest): Promise<MidjourneyRow[]> {
  return listOf(db, 'midjourneys', 'mj_id', filter, page);
}

export async function listTasks(db: Db, filter: TaskFilter, page: TaskPageRequest): Promise<TaskRow[]> {
  return listOf(db, 'tasks', 'task_id', filter, page);
}

async function listOf<T extends 'midjourneys' | 'tasks'>(
  db: Db,
  table: T,
  upstreamColumn: 'mj_id' | 'task_id',
  filter: TaskFilter,
  { offset, limit }: TaskPageRequest,
): Promise<Selectable<Database[T]>[]> {
  // One query shape for both tables: their filter columns share names and types; only the upstream id differs.
  let q = (db as unknown as Kysely<Record<string, TasksTable & MidjourneysTable>>).selectFrom(table as 'tasks');
  if (filter.userId !== undefined) q = q.where('user_id', '=', filter.userId);
  if (filter.channelId) q = q.where('channel_id', '=', filter.channelId);
  if (filter.upstreamId) q = q.where(upstreamColumn, '=', filter.upstreamId);
  if (filter.startTime) q = q.where('submit_time', '>=', filter.startTime);
  if (filter.endTime) q = q.where('submit_time', '<=', filter.endTime);
  const items = await q.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute();
  return items as unknown as Selectable<Database[T]>[];
}
