import type { RoutedChannel } from '../../../cache/routing.js';
import type { AppContext } from '../../../context.js';
import { nowSeconds } from '../../../lib/time.js';
import type { TaskRow } from '../../../store/async-tasks.js';
import { unfinishedTasks } from '../../../store/platform-tasks.js';
import type { TaskUpdate } from '../../../store/task-money.js';
import { failTask, finishTaskSucceeded, updateUnfinishedTask } from '../finish.js';
import { pollByChannel } from '../poll.js';
import { callTaskUpstream, POLL_TIMEOUT_MS } from '../upstream-call.js';
import { baseUrlOf, PLATFORM, upstreamHeaders } from './submit.js';
import { fetchedStates, type SunoTaskState } from './wire.js';

/*
 * One polling round: every unfinished Suno task, one `POST {base}/suno/fetch {ids}` per channel batch. Each task
 * the upstream reports takes its status, progress, times and clips; SUCCESS and FAILURE end it (a failure is
 * refunded, once). A task still unfinished an hour after it was submitted — the upstream lost it, keeps it
 * running, or cannot be reached — is failed and refunded, as drawings are: music takes minutes, and a charge must
 * not stay open forever. A success the upstream reports after that does not take the refund back (task-money.ts).
 */

/** The system log's words for a refunded task: `异步任务执行失败 <id>，补偿 <amount>`. */
export const FAILED_LOG = '异步任务执行失败';
export const TASK_TIMEOUT_SECONDS = 3600;
export const TIMEOUT_REASON = '上游任务超时（超过1小时）';

export async function pollSuno(ctx: AppContext): Promise<void> {
  const tasks = await unfinishedTasks(ctx.db.kysely, PLATFORM);
  if (tasks.length === 0) return;
  await pollByChannel(ctx, {
    tasks,
    poll: (channel, batch) => pollChannel(ctx, channel, batch),
    orphaned: async (batch) => {
      for (const task of batch) await fail(ctx, task, `获取渠道信息失败，请联系管理员，渠道ID：${task.channel_id}`);
    },
  });
}

async function pollChannel(ctx: AppContext, channel: RoutedChannel, batch: TaskRow[]): Promise<void> {
  const ended = new Set<number>();
  const states = await fetchStates(ctx, channel, batch);
  if (states) {
    const byTaskId = new Map<string, TaskRow[]>();
    for (const task of batch) byTaskId.set(task.task_id, [...(byTaskId.get(task.task_id) ?? []), task]);
    for (const state of states) {
      for (const task of byTaskId.get(state.taskId) ?? []) {
        if (await apply(ctx, task, state)) ended.add(task.id);
      }
    }
  }
  const deadline = nowSeconds() - TASK_TIMEOUT_SECONDS;
  for (const task of batch) {
    if (!ended.has(task.id) && task.submit_time <= deadline) await fail(ctx, task, TIMEOUT_REASON);
  }
}

/** The upstream's states of a batch; null (logged) when it could not tell. */
async function fetchStates(ctx: AppContext, channel: RoutedChannel, batch: TaskRow[]): Promise<SunoTaskState[] | null> {
  const body = JSON.stringify({ ids: [...new Set(batch.map((t) => t.task_id))] });
  const url = `${baseUrlOf(channel)}/suno/fetch`;
  const result = await callTaskUpstream(ctx, channel, { url, method: 'POST', headers: upstreamHeaders(channel), body }, POLL_TIMEOUT_MS);
  if (result.kind === 'unreachable') {
    ctx.log.warn({ channel: channel.id, reason: result.reason }, 'polling Suno tasks: upstream unreachable');
    return null;
  }
  const states = result.status === 200 ? fetchedStates(result.json) : null;
  if (!states) ctx.log.warn({ channel: channel.id, status: result.status, body: result.text.slice(0, 300) }, 'polling Suno tasks: upstream refused');
  return states;
}

/** Brings one task to the upstream's state; true when the task has ended (here or before). */
async function apply(ctx: AppContext, task: TaskRow, state: SunoTaskState): Promise<boolean> {
  const now = nowSeconds();
  const final = state.status === 'SUCCESS' || state.status === 'FAILURE';
  const started = state.status === 'IN_PROGRESS' || final;
  const set: TaskUpdate = {
    status: state.status,
    progress: final ? '100%' : (state.progress ?? task.progress),
    start_time: state.startTime || task.start_time || (started ? now : 0),
    fail_reason: state.failReason || task.fail_reason,
    data: state.data === undefined ? task.data : JSON.stringify(state.data),
  };
  if (state.status === 'SUCCESS') {
    await finishTaskSucceeded(ctx.db.kysely, task.id, { table: 'tasks', set: { ...set, finish_time: state.finishTime || now, updated_at: now } });
    return true;
  }
  if (state.status === 'FAILURE') {
    await fail(ctx, task, state.failReason || '任务失败', { ...set, finish_time: state.finishTime || now });
    return true;
  }
  const changed = (Object.keys(set) as (keyof typeof set)[]).some((k) => set[k] !== task[k as keyof TaskRow]);
  if (changed) await updateUnfinishedTask(ctx.db.kysely, task.id, { table: 'tasks', set: { ...set, updated_at: now } });
  return false;
}

async function fail(ctx: AppContext, task: TaskRow, reason: string, set: TaskUpdate = {}): Promise<void> {
  const now = nowSeconds();
  const update: TaskUpdate = { progress: '100%', finish_time: now, ...set, fail_reason: reason, updated_at: now };
  await failTask(ctx, { table: 'tasks', set: update }, task, FAILED_LOG, task.task_id);
}
