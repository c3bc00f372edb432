import type { RoutedChannel } from '../../cache/routing.js';
import type { AppContext } from '../../context.js';
import { findChannel } from '../../store/channels.js';

/*
 * The polling half of the task framework: a platform's poller loads its unfinished tasks, and this runs one batch
 * per channel (the upstreams answer many ids per call), a few channels at a time, each call bounded by its own
 * timeout (upstream-call.ts). A task whose channel no longer exists is handed to `orphaned`, to be failed and
 * refunded. One channel's failure is logged and does not stop the others.
 */

/** Channels polled at once. */
export const POLL_CONCURRENCY = 4;
/** Ids per upstream call. */
export const POLL_BATCH = 100;

export interface PollPlan<T extends { channel_id: number }> {
  tasks: readonly T[];
  poll(channel: RoutedChannel, batch: T[]): Promise<void>;
  orphaned(batch: T[]): Promise<void>;
}

export async function pollByChannel<T extends { channel_id: number }>(ctx: AppContext, plan: PollPlan<T>): Promise<void> {
  const byChannel = new Map<number, T[]>();
  for (const task of plan.tasks) {
    const list = byChannel.get(task.channel_id) ?? [];
    list.push(task);
    byChannel.set(task.channel_id, list);
  }
  const work: (() => Promise<void>)[] = [];
  for (const [channelId, tasks] of byChannel) {
    const channel = ctx.routing.channel(channelId);
    for (let i = 0; i < tasks.length; i += POLL_BATCH) {
      const batch = tasks.slice(i, i + POLL_BATCH);
      work.push(async () => {
        if (channel) return plan.poll(channel, batch);
        // This node's routing may not have heard of a channel made a moment ago on another node: only a channel
        // the database does not hold either is gone.
        if (!(await findChannel(ctx.db.kysely, channelId))) await plan.orphaned(batch);
      });
    }
  }
  let next = 0;
  const lane = async () => {
    while (next < work.length) {
      const job = work[next++];
      try {
        await job();
      } catch (err) {
        ctx.log.error({ err }, 'polling a task channel failed');
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(POLL_CONCURRENCY, work.length) }, lane));
}
