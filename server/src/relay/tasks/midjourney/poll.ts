import type { RoutedChannel } from '../../../cache/routing.js';
import type { AppContext } from '../../../context.js';
import type { MidjourneyRow } from '../../../store/async-tasks.js';
import type { MidjourneyUpdate } from '../../../store/task-money.js';
import { resolveBaseUrl } from '../../providers/base-url.js';
import { failTask, finishTaskSucceeded, updateUnfinishedTask } from '../finish.js';
import { pollByChannel } from '../poll.js';
import { callTaskUpstream, POLL_TIMEOUT_MS } from '../upstream-call.js';
import { unfinishedTasks } from './rows.js';
import { readTaskList, type ProxyTask } from './wire.js';

/*
 * The drawing poller: every unfinished task is asked of its channel's proxy (POST {base}/mj/task/list-by-condition
 * {ids}, many ids per call), and what changed is written with a conditional update. A task ends once
 * (store/task-money.ts): SUCCESS keeps its charge; FAILURE — said by the proxy, or a fail reason before 100%, or an
 * hour gone by without an end, or a channel that no longer exists — refunds it. A proxy that answers SUCCESS in the
 * same round as the hour runs out wins: the drawing was made.
 */

export const TASK_TIMEOUT_MS = 3_600_000;
export const TIMEOUT_REASON = '上游任务超时（超过1小时）';
/** The system log of a refund: `构图失败 <mj_id>，补偿 <amount>`. */
const REFUND_WHAT = '构图失败';

/** Column widths of `midjourneys` (MySQL refuses longer values). */
const WIDTH = { status: 20, progress: 30, text: 60_000 } as const;
const clip = (value: string, width: number) => (value.length > width ? value.slice(0, width) : value);

export type Settled = 'succeeded' | 'failed' | 'updated' | 'unchanged' | 'lost';

export async function pollMidjourney(ctx: AppContext): Promise<void> {
  const tasks = await unfinishedTasks(ctx.db.kysely);
  const polled: MidjourneyRow[] = [];
  for (const task of tasks) {
    // Accepted without an id (a proxy that answered code 1 and no result): nothing can ever be asked about it.
    if (task.mj_id) polled.push(task);
    else await endFailed(ctx, task, {}, task.fail_reason || '上游未返回任务 ID');
  }
  await pollByChannel(ctx, {
    tasks: polled,
    poll: (channel, batch) => pollChannel(ctx, channel, batch),
    orphaned: async (batch) => {
      for (const task of batch) await endFailed(ctx, task, {}, `获取渠道信息失败，请联系管理员，渠道ID：${task.channel_id}`);
    },
  });
}

/** One call for a batch of one channel's tasks, then each task settled with what the proxy said of it. */
export async function pollChannel(ctx: AppContext, channel: RoutedChannel, batch: readonly MidjourneyRow[], now = Date.now()): Promise<void> {
  const answer = await callTaskUpstream(
    ctx,
    channel,
    {
      url: `${resolveBaseUrl(channel)}/mj/task/list-by-condition`,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'mj-api-secret': channel.key },
      body: JSON.stringify({ ids: batch.map((t) => t.mj_id) }),
    },
    POLL_TIMEOUT_MS,
  );
  let seen = new Map<string, ProxyTask>();
  if (answer.kind === 'answer' && answer.status >= 200 && answer.status < 300) seen = readTaskList(answer.json);
  else ctx.log.warn({ channel: channel.id, answer: answer.kind === 'answer' ? answer.status : answer.reason }, 'polling Midjourney tasks failed');
  // Tasks the proxy did not report (or a proxy that could not be asked) still run out of time.
  for (const task of batch) await settleTask(ctx, task, seen.get(task.mj_id), now);
}

/**
 * Brings one task up to date with what its proxy reported (`seen`, absent when it said nothing of it). `task` is the
 * row as loaded: a stale copy is harmless, every write is conditional on the row not having ended meanwhile.
 */
export async function settleTask(ctx: AppContext, task: MidjourneyRow, seen: ProxyTask | undefined, now = Date.now()): Promise<Settled> {
  const set = seen ? changes(task, seen) : {};
  const db = ctx.db.kysely;
  if (seen?.status === 'SUCCESS') {
    const won = await finishTaskSucceeded(db, task.id, { table: 'midjourneys', set: { ...set, progress: '100%' } });
    return won ? 'succeeded' : 'lost';
  }
  const progress = typeof seen?.progress === 'string' ? seen.progress : task.progress;
  if (seen && (seen.status === 'FAILURE' || seen.status === 'CANCEL' || (progress !== '100%' && seen.failReason))) {
    return endFailed(ctx, task, set, clip(seen.failReason || seen.status || '', WIDTH.text));
  }
  if (now - Number(task.submit_time) > TASK_TIMEOUT_MS) return endFailed(ctx, task, set, TIMEOUT_REASON);
  if (Object.keys(set).length === 0) return 'unchanged';
  return (await updateUnfinishedTask(db, task.id, { table: 'midjourneys', set })) ? 'updated' : 'lost';
}

async function endFailed(ctx: AppContext, task: MidjourneyRow, set: MidjourneyUpdate, reason: string): Promise<Settled> {
  const update = { table: 'midjourneys' as const, set: { ...set, fail_reason: reason, progress: '100%' } };
  const refundable = {
    id: task.id,
    user_id: task.user_id,
    channel_id: task.channel_id,
    quota: Number(task.quota),
    token_id: task.token_id,
    token_quota: Number(task.token_quota),
  };
  return (await failTask(ctx, update, refundable, REFUND_WHAT, task.mj_id)) ? 'failed' : 'lost';
}

/** The columns whose reported value differs from the row's. */
function changes(task: MidjourneyRow, seen: ProxyTask): MidjourneyUpdate {
  const set: MidjourneyUpdate = {};
  if (task.code !== 1) set.code = 1;
  const text = (column: 'status' | 'progress' | 'image_url' | 'fail_reason' | 'prompt_en' | 'description' | 'state', value: unknown, width: number) => {
    if (typeof value !== 'string') return;
    const v = clip(value, width);
    if (v !== task[column]) set[column] = v;
  };
  text('status', seen.status, WIDTH.status);
  text('progress', seen.progress, WIDTH.progress);
  text('image_url', seen.imageUrl, WIDTH.text);
  text('fail_reason', seen.failReason, WIDTH.text);
  text('prompt_en', seen.promptEn, WIDTH.text);
  text('description', seen.description, WIDTH.text);
  text('state', seen.state, WIDTH.text);
  for (const [column, value] of [['start_time', seen.startTime], ['finish_time', seen.finishTime]] as const) {
    if (typeof value === 'number' && Number.isFinite(value) && value !== Number(task[column])) set[column] = Math.trunc(value);
  }
  const json = (column: 'buttons' | 'properties', value: unknown) => {
    if (value === null || value === undefined || typeof value !== 'object') return;
    const v = JSON.stringify(value);
    if (v.length <= WIDTH.text && v !== task[column]) set[column] = v;
  };
  json('buttons', seen.buttons);
  json('properties', seen.properties);
  return set;
}
