import type { RoutedChannel } from '../../../cache/routing.js';
import type { AppContext } from '../../../context.js';
import type { MidjourneysTable } from '../../../db/schema.js';
import type { Insertable } from 'kysely';
import type { Caller } from '../../auth.js';
import { resolveBaseUrl } from '../../providers/base-url.js';
import { submitTask, type TaskAttempt, type TaskReply } from '../submit.js';
import { callTaskUpstream, SUBMIT_TIMEOUT_MS } from '../upstream-call.js';
import { mjReply, RATE_LIMITED_TEXT, requestRefused } from './replies.js';
import { findOwnTask, scopeOf } from './rows.js';
import {
  ACCEPTED_CODES,
  FREE_ACTIONS,
  intentOf,
  MJ_CODE,
  modelOfAction,
  promptTextsOf,
  readSubmitAnswer,
  upstreamBody,
  type MjAction,
  type SubmitAnswer,
  type SubmitRoute,
} from './wire.js';

/*
 * One submission: what it asks for (wire.ts), the task it follows up (the caller's own, on its channel, finished
 * unless it is a MODAL), then the framework's submit (price, reservation, channel, charge on acceptance) with an
 * attempt that forwards the body to the proxy and reads its answer code:
 *   1 submitted, 21 exists, 22 queued      -> accepted and charged (21 and 22 answered as 1)
 *   3 no account instance                  -> refused; the channel is switched off when auto-disable is on; retried
 *   23 queue full, 30 rate limited         -> refused and retried on another channel (30 answered 429)
 *   24 banned prompt, anything else        -> refused, not retried
 * An upstream that cannot be reached, or answers a non-2xx status or no code, is refused and retried.
 */

export interface SubmitCall {
  caller: Caller;
  route: SubmitRoute;
  body: Record<string, unknown>;
  /** Where it goes under the channel's base URL (/mj/submit/imagine, /fast/mj/submit/imagine ...). */
  upstreamPath: string;
  ip: string;
}

export async function submitDrawing(ctx: AppContext, call: SubmitCall): Promise<TaskReply> {
  const intent = intentOf(call.route, call.body);
  let prompt = typeof call.body.prompt === 'string' ? call.body.prompt : '';
  let channelId: number | undefined;
  if (intent.taskId !== undefined) {
    const original = await findOwnTask(ctx.db.kysely, scopeOf(call.caller), intent.taskId);
    if (!original) return requestRefused('task_not_found');
    if (ctx.options.get('MjActionCheckSuccessEnabled') && !intent.modal && original.status !== 'SUCCESS') {
      return requestRefused('task_status_not_success');
    }
    channelId = original.channel_id;
    prompt = original.prompt;
  }
  if (intent.action === 'SWAP_FACE') prompt = 'InsightFace';
  const body = JSON.stringify(upstreamBody(call.body, ctx.options));
  return submitTask(ctx, {
    caller: call.caller,
    model: modelOfAction(intent.action),
    action: intent.action,
    ip: call.ip,
    channelId,
    free: FREE_ACTIONS.includes(intent.action),
    promptTexts: (visit) => promptTextsOf(call.body, visit),
    attempt: (channel) => attempt(ctx, channel, call.upstreamPath, body, intent.action, prompt),
  });
}

async function attempt(ctx: AppContext, channel: RoutedChannel, path: string, body: string, action: MjAction, prompt: string): Promise<TaskAttempt> {
  const result = await callTaskUpstream(
    ctx,
    channel,
    { url: `${resolveBaseUrl(channel)}${path}`, method: 'POST', headers: { 'content-type': 'application/json', 'mj-api-secret': channel.key }, body },
    SUBMIT_TIMEOUT_MS,
  );
  if (result.kind === 'unreachable') {
    ctx.log.warn({ channel: channel.id, reason: result.reason }, 'Midjourney submit failed');
    return { kind: 'refused', reply: mjReply(502, MJ_CODE.UNKNOWN_ERROR, '请求上游地址失败', 'upstream_error'), retry: true };
  }
  const answer = readSubmitAnswer(result.json);
  if (result.status === 401 || result.status === 403) {
    return { kind: 'refused', reply: mjReply(502, MJ_CODE.UNKNOWN_ERROR, `上游拒绝了渠道的凭证（HTTP ${result.status}），请联系管理员检查渠道密钥`, 'upstream_error'), retry: true };
  }
  if (result.status < 200 || result.status >= 300 || !answer) {
    const description = answer?.description || `上游返回了无法识别的应答（HTTP ${result.status}）`;
    return { kind: 'refused', reply: mjReply(502, answer?.code ?? MJ_CODE.UNKNOWN_ERROR, description, 'upstream_error'), retry: true };
  }
  if (ACCEPTED_CODES.includes(answer.code)) {
    const mjId = typeof answer.result === 'string' ? answer.result : '';
    return {
      kind: 'accepted',
      upstreamId: mjId,
      record: { table: 'midjourneys', row: acceptedRow(answer, action, mjId, prompt) },
      reply: { status: result.status, body: { ...answer, code: MJ_CODE.SUBMITTED } },
    };
  }
  const passed: TaskReply = { status: result.status, body: answer };
  switch (answer.code) {
    case MJ_CODE.RATE_LIMITED:
      return { kind: 'refused', reply: mjReply(429, MJ_CODE.RATE_LIMITED, `${answer.description ?? ''} ${RATE_LIMITED_TEXT}`.trim(), 'upstream_error'), retry: true };
    case MJ_CODE.NO_INSTANCE:
      return { kind: 'refused', reply: passed, retry: true, disable: 'No available account instance' };
    case MJ_CODE.QUEUE_FULL:
      return { kind: 'refused', reply: passed, retry: true };
    default:
      return { kind: 'refused', reply: passed, retry: false };
  }
}

/** The row of an accepted submission (the framework adds user, channel and the money columns). */
function acceptedRow(answer: SubmitAnswer, action: MjAction, mjId: string, prompt: string): Partial<Insertable<MidjourneysTable>> {
  const now = Date.now();
  const row: Partial<Insertable<MidjourneysTable>> = {
    code: answer.code,
    action,
    mj_id: mjId.slice(0, 191),
    prompt,
    description: typeof answer.description === 'string' ? answer.description : '',
    submit_time: now,
    start_time: action === 'SWAP_FACE' ? now : 0,
    status: answer.code === MJ_CODE.QUEUED ? 'NOT_START' : 'SUBMITTED',
    progress: '0%',
  };
  const props = answer.properties;
  // 21: the proxy already has this task; when it is done, its result is known at once.
  if (answer.code === MJ_CODE.EXISTS && props && props.status === 'SUCCESS' && typeof props.imageUrl === 'string') {
    Object.assign(row, { status: 'SUCCESS', progress: '100%', image_url: props.imageUrl, start_time: now, finish_time: now });
  }
  // An upload is done when it is accepted (its answer lists the uploaded images' addresses).
  if (action === 'UPLOAD') Object.assign(row, { status: 'SUCCESS', progress: '100%', finish_time: now });
  return row;
}
