import type { AppContext } from '../../context.js';
import { logQuota } from '../../store/logs.js';
import { finishTaskFailed, type RefundableTask, type TaskRowUpdate } from '../../store/task-money.js';

export { finishTaskSucceeded, updateUnfinishedTask } from '../../store/task-money.js';

/**
 * Ends a task as failed and refunds it once (see store/task-money.ts for the rule), with the system log the
 * platform names: `<what> <upstream id>，补偿 <amount>` (构图失败 for drawings, 异步任务执行失败 for music).
 * False when the task had already ended.
 */
export async function failTask(ctx: AppContext, update: TaskRowUpdate, task: RefundableTask, what: string, upstreamId: string): Promise<boolean> {
  const display = { quotaPerUnit: ctx.options.get('QuotaPerUnit'), displayInCurrency: ctx.options.get('DisplayInCurrencyEnabled') };
  const won = await finishTaskFailed(ctx.db.kysely, update, { task, logContent: `${what} ${upstreamId}，补偿 ${logQuota(task.quota, display)}` });
  if (won && task.quota > 0) ctx.authCache.noteCharge('', task.user_id, -task.quota);
  return won;
}
