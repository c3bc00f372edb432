import { sql, type Insertable, type Kysely, type Transaction, type Updateable } from 'kysely';
import { LOG_TYPE } from '@switchyard/shared';
import type { Database, MidjourneysTable, NewLog, TasksTable } from '../db/schema.js';
import { nowSeconds } from '../lib/time.js';
import { MIDJOURNEY_DEFAULTS, TASK_DEFAULTS } from './async-tasks.js';
import { storableRow } from './storable-text.js';

/*
 * The money of drawing and music tasks, each move in one transaction with the row it concerns.
 *
 * A task is charged when its upstream accepted it: the row is inserted with what it cost, the balances the
 * reservation already took are counted as used, and the consume log is written — all or nothing, so a task row
 * exists exactly when its charge does.
 *
 * A task ends once. SUCCESS and FAILURE are final: every later update of the row is conditional on its status not
 * being final, and the refund of a failed task is made in the same transaction as the update that moved the row to
 * FAILURE. Whichever end is written first wins; the other finds no row to update and does nothing. So a refund and
 * a late success racing each other (two pollers, a timeout and the upstream's last answer) give exactly one
 * outcome: either the task succeeded and stays charged, or it failed and was refunded once — never both.
 */

type Db = Kysely<Database>;

export type TaskTable = 'midjourneys' | 'tasks';

export const FINAL_STATUSES = ['SUCCESS', 'FAILURE'] as const;

export type TaskRowInput =
  | { table: 'midjourneys'; row: Partial<Insertable<MidjourneysTable>> }
  | { table: 'tasks'; row: Partial<Insertable<TasksTable>> };

export interface TaskCharge {
  userId: number;
  /** 0 when the call had no token (never for the relay routes; kept general). */
  tokenId: number;
  /** What the reservation took from the token's remaining quota (0 for an unlimited token). */
  tokenQuota: number;
  quota: number;
  channelId: number;
  /** The consume log (null when consume logs are off). */
  log: NewLog | null;
  /** The journal row of the reservation this charge settles (store/reservations.ts). */
  reservationId?: string;
}

/**
 * Records an accepted task with its charge. The reservation already took `quota` from the user and `tokenQuota`
 * from the token; this counts it as used, once. Returns the new row's id.
 */
export async function recordChargedTask(db: Db, input: TaskRowInput, charge: TaskCharge): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const money = { quota: charge.quota, token_id: charge.tokenId, token_quota: charge.tokenQuota };
    const id = await insertRow(trx, input, money);
    await countUsed(trx, charge.userId, charge.tokenId, charge.channelId, charge.quota, 1);
    if (charge.log) await trx.insertInto('logs').values(charge.log).execute();
    if (charge.reservationId) await trx.deleteFrom('reservations').where('id', '=', charge.reservationId).execute();
    return id;
  });
}

/** PostgreSQL reports no insert id without RETURNING, MySQL has no RETURNING; SQLite has both. */
async function insertRow(trx: Transaction<Database>, input: TaskRowInput, money: { quota: number; token_id: number; token_quota: number }): Promise<number> {
  const returning = trx.getExecutor().adapter.supportsReturning;
  if (input.table === 'midjourneys') {
    const q = trx.insertInto('midjourneys').values({ ...MIDJOURNEY_DEFAULTS, ...storableRow(input.row), ...money });
    return Number(returning ? (await q.returning('id').executeTakeFirstOrThrow()).id : (await q.executeTakeFirstOrThrow()).insertId);
  }
  const q = trx.insertInto('tasks').values({ ...TASK_DEFAULTS, ...storableRow(input.row), ...money });
  return Number(returning ? (await q.returning('id').executeTakeFirstOrThrow()).id : (await q.executeTakeFirstOrThrow()).insertId);
}

/** Used quota and request counts of a charge (a negative quota takes a refunded charge back out of them). */
async function countUsed(trx: Transaction<Database>, userId: number, tokenId: number, channelId: number, quota: number, requests: number): Promise<void> {
  await trx
    .updateTable('users')
    .set({ used_quota: sql`used_quota + ${quota}`, request_count: sql`request_count + ${requests}` })
    .where('id', '=', userId)
    .execute();
  if (tokenId > 0) await trx.updateTable('tokens').set({ used_quota: sql`used_quota + ${quota}` }).where('id', '=', tokenId).execute();
  if (channelId > 0 && quota !== 0) await trx.updateTable('channels').set({ used_quota: sql`used_quota + ${quota}` }).where('id', '=', channelId).execute();
}

export type MidjourneyUpdate = Updateable<MidjourneysTable>;
export type TaskUpdate = Updateable<TasksTable>;
export type TaskRowUpdate = { table: 'midjourneys'; set: MidjourneyUpdate } | { table: 'tasks'; set: TaskUpdate };

/**
 * Changes an unfinished task (progress, times, upstream fields, made storable: an upstream's text may hold a NUL).
 * False when the row is gone or already final.
 */
export async function updateUnfinishedTask(db: Db | Transaction<Database>, id: number, update: TaskRowUpdate): Promise<boolean> {
  const result =
    update.table === 'midjourneys'
      ? await db.updateTable('midjourneys').set(storableRow(update.set)).where('id', '=', id).where('status', 'not in', FINAL_STATUSES).executeTakeFirst()
      : await db.updateTable('tasks').set(storableRow(update.set)).where('id', '=', id).where('status', 'not in', FINAL_STATUSES).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The parts of a task row a refund reads. */
export interface RefundableTask {
  id: number;
  user_id: number;
  channel_id: number;
  quota: number;
  token_id: number;
  token_quota: number;
}

/** The refund of a failed task: its system log's words (the quota is appended by the caller's display rules). */
export interface TaskRefund {
  task: RefundableTask;
  /** The system log's content, e.g. `构图失败 <id>，补偿 ＄0.100000 额度`. */
  logContent: string;
}

/**
 * Ends a task as a success. False when it had already ended (as a failure that was refunded, or a success):
 * a success after the refund does not take the refund back — the task stays failed.
 */
export async function finishTaskSucceeded(db: Db, id: number, update: TaskRowUpdate): Promise<boolean> {
  return updateUnfinishedTask(db, id, withStatus(update, 'SUCCESS'));
}

/**
 * Ends a task as a failure and refunds its charge, in one transaction: the user's quota and the token's remaining
 * quota get back what the charge took, used quota (user, token, channel) drops by it, and a system log records it
 * with the amount. False when the task had already ended: nothing changes.
 */
export async function finishTaskFailed(db: Db, update: TaskRowUpdate, refund: TaskRefund): Promise<boolean> {
  const { task } = refund;
  return db.transaction().execute(async (trx) => {
    if (!(await updateUnfinishedTask(trx, task.id, withStatus(update, 'FAILURE')))) return false;
    if (task.quota <= 0) return true;
    await trx.updateTable('users').set({ quota: sql`quota + ${task.quota}` }).where('id', '=', task.user_id).execute();
    if (task.token_id > 0 && task.token_quota > 0) {
      await trx.updateTable('tokens').set({ remain_quota: sql`remain_quota + ${task.token_quota}` }).where('id', '=', task.token_id).execute();
    }
    await countUsed(trx, task.user_id, task.token_id, task.channel_id, -task.quota, 0);
    const user = await trx.selectFrom('users').select('username').where('id', '=', task.user_id).executeTakeFirst();
    await trx.insertInto('logs').values(systemLog(task, user?.username ?? '', refund.logContent)).execute();
    return true;
  });
}

function withStatus(update: TaskRowUpdate, status: (typeof FINAL_STATUSES)[number]): TaskRowUpdate {
  return update.table === 'midjourneys' ? { table: 'midjourneys', set: { ...update.set, status } } : { table: 'tasks', set: { ...update.set, status } };
}

function systemLog(task: RefundableTask, username: string, content: string): NewLog {
  return {
    user_id: task.user_id,
    created_at: nowSeconds(),
    type: LOG_TYPE.SYSTEM,
    content,
    username,
    token_name: '',
    model_name: '',
    quota: task.quota,
    prompt_tokens: 0,
    completion_tokens: 0,
    use_time: 0,
    is_stream: 0,
    channel_id: task.channel_id,
    token_id: task.token_id,
    group: '',
    ip: '',
    other: '',
  };
}
