import type { RoutedChannel } from '../../cache/routing.js';
import type { AppContext } from '../../context.js';
import { consumeLogRow } from '../../store/logs.js';
import type { Reservation } from '../../store/quota.js';
import { recordChargedTask, type TaskRowInput } from '../../store/task-money.js';
import { checkModelAllowed, loggedTokenName, type Caller } from '../auth.js';
import { unroutable } from '../availability.js';
import { chooseChannel } from '../distributor.js';
import { RelayError, settlementBacklog } from '../errors.js';
import { autoDisableChannel } from '../health.js';
import type { TextVisitor } from '../formats/prompt-text.js';
import { pinnedChannel, reserve } from '../pipeline.js';
import { refuseSensitiveTexts } from '../prompt-words.js';
import { taskLogText, taskPrice } from './pricing.js';

/*
 * The submit half of the task framework, the same for every platform: the caller's model access, the channel
 * choice (the caller's pinned channel, the original task's channel for a follow-up, or the routing's tiers with
 * RetryTimes retries), the sensitive-word check of the texts the submission sends, the price, the balance reserved before anything is sent, and then — only when the upstream
 * accepted the task — the row recorded with its charge and consume log in one transaction (store/task-money.ts).
 * Anything else gives the reservation back: a task the upstream refused is never charged.
 */

/** What the platform answers its client: the status and the body in the platform's own shape. */
export interface TaskReply {
  status: number;
  body: unknown;
}

export type TaskAttempt =
  /** The upstream took the task: record `record` (quota and token columns are filled in here) and charge it. */
  | { kind: 'accepted'; record: TaskRowInput; upstreamId: string; reply: TaskReply }
  /**
   * The upstream refused, or could not be reached. `retry`: another channel may take it. `disable`: the answer
   * means this channel cannot work (no account instance, a refused key) — the reason, when auto-disable is on.
   */
  | { kind: 'refused'; reply: TaskReply; retry: boolean; disable?: string };

export interface TaskSubmission {
  caller: Caller;
  /** The priced name: mj_imagine, swap_face, suno_music ... */
  model: string;
  /** The action as the consume log names it (IMAGINE, MUSIC ...). */
  action: string;
  ip: string;
  /** A follow-up of an earlier task: sent to that task's channel, which must still exist and be enabled. */
  channelId?: number;
  /** Free follow-ups (Midjourney's INPAINT and CUSTOM_ZOOM): nothing reserved or charged. */
  free?: boolean;
  /** Each text the submission sends upstream (its prompts), for the sensitive-word check. */
  promptTexts(visit: TextVisitor): void;
  attempt(channel: RoutedChannel): Promise<TaskAttempt>;
}

export async function submitTask(ctx: AppContext, s: TaskSubmission): Promise<TaskReply> {
  const { caller } = s;
  checkModelAllowed(caller.token, s.model);
  if (ctx.relay.settler.full) throw settlementBacklog();
  const fixed = caller.pinnedChannelId ?? s.channelId ?? null;
  const tiers = fixed !== null ? [[pinnedChannel(ctx, fixed)]] : ctx.routing.tiers(caller.group, s.model);
  if (tiers.length === 0) throw unroutable(ctx, caller.group, s.model);
  refuseSensitiveTexts(ctx, { userId: caller.user.id, tokenId: caller.token?.id ?? 0, model: s.model }, (visit) => s.promptTexts(visit));

  const price = taskPrice(ctx.options, s.model, caller.group);
  const quota = s.free ? 0 : price.quota;
  const tokenLimited = caller.token !== null && !caller.token.unlimited_quota;
  const reservation: Reservation = { userId: caller.user.id, tokenId: caller.token?.id ?? 0, tokenUnlimited: !tokenLimited, amount: quota };
  if (quota > 0) await reserve(ctx, reservation);

  let settled = false;
  try {
    const attempts = fixed !== null ? 1 : Math.max(0, ctx.options.get('RetryTimes')) + 1;
    const tried = new Set<number>();
    let last: TaskReply | null = null;
    for (let i = 0; i < attempts; i++) {
      const channel = chooseChannel(tiers, tried);
      if (!channel) break;
      tried.add(channel.id);
      const outcome = await s.attempt(channel);
      if (outcome.kind === 'accepted') {
        const row: TaskRowInput = { ...outcome.record, row: { ...outcome.record.row, user_id: caller.user.id, channel_id: channel.id } } as TaskRowInput;
        const log = ctx.options.get('LogConsumeEnabled')
          ? consumeLogRow({
              userId: caller.user.id,
              username: caller.user.username,
              tokenId: caller.token?.id ?? 0,
              tokenName: loggedTokenName(caller),
              modelName: s.model,
              quota,
              promptTokens: 0,
              completionTokens: 0,
              useTime: 0,
              isStream: false,
              channelId: channel.id,
              group: caller.group,
              ip: s.ip,
              content: taskLogText(price, s.action, outcome.upstreamId),
              other: { model_price: price.priceUsd, group_ratio: price.groupRatio, admin_info: { use_channel: [...tried] } },
            })
          : null;
        await recordChargedTask(ctx.db.kysely, row, {
          userId: caller.user.id,
          tokenId: caller.token?.id ?? 0,
          tokenQuota: tokenLimited ? quota : 0,
          quota,
          channelId: channel.id,
          log,
          reservationId: reservation.id,
        });
        settled = true;
        if (quota > 0) {
          ctx.relay.quotaGate.release(caller.user.id);
          ctx.relay.quotaGate.settled([caller.user.id]);
        }
        ctx.usage.record({ userId: caller.user.id, username: caller.user.username, modelName: s.model, tokens: 0, quota });
        ctx.authCache.noteCharge(caller.token?.key ?? '', caller.user.id, quota);
        return outcome.reply;
      }
      last = outcome.reply;
      if (outcome.disable) await autoDisableChannel(ctx, channel, outcome.disable);
      if (!outcome.retry) break;
    }
    if (last) return last;
    throw new RelayError(503, `当前分组 ${caller.group} 下对于模型 ${s.model} 无可用渠道`, 'no_available_channel');
  } finally {
    if (!settled) giveBack(ctx, reservation);
  }
}

function giveBack(ctx: AppContext, reservation: Reservation): void {
  if (reservation.amount <= 0) return;
  ctx.relay.settler.add({ reservation, cost: 0, channelId: 0, countsAsRequest: false, log: null });
  ctx.relay.quotaGate.release(reservation.userId);
}
