import type { RoutedChannel } from '../../../cache/routing.js';
import type { AppContext } from '../../../context.js';
import { nowSeconds } from '../../../lib/time.js';
import { shouldRetry } from '../../distributor.js';
import { unreachableUpstream, upstreamAuthFailed } from '../../errors.js';
import { disablesChannel } from '../../health.js';
import { mapStatus } from '../../pipeline.js';
import type { TaskAttempt } from '../submit.js';
import { callTaskUpstream, SUBMIT_TIMEOUT_MS } from '../upstream-call.js';
import { errorBody, refusalOf, submittedTaskId, type SunoAction, type SunoSubmission } from './wire.js';

/*
 * One submission to one channel: `POST {base}/suno/submit/{action}` with the channel's key as a Bearer token and
 * the client's body as sent. Accepted only when the answer is a success carrying the new task's id; anything else
 * is relayed in Suno's shape and the framework charges nothing. Retries follow the relay's rules, except that a
 * 400 is never retried (whatever status_code_mapping makes of it: the body would be refused again), nor a timeout
 * or an answer without a task id (the upstream may have started the task: trying again could make it twice).
 */

export const PLATFORM = 'suno';

export function baseUrlOf(channel: RoutedChannel): string {
  return channel.baseUrl.replace(/\/+$/, '');
}

export function upstreamHeaders(channel: RoutedChannel): Record<string, string> {
  return { authorization: `Bearer ${channel.key}`, 'content-type': 'application/json', accept: 'application/json' };
}

export async function submitToChannel(ctx: AppContext, channel: RoutedChannel, action: SunoAction, submission: SunoSubmission): Promise<TaskAttempt> {
  const url = `${baseUrlOf(channel)}/suno/submit/${action.toLowerCase()}`;
  const body = JSON.stringify(submission.body);
  const result = await callTaskUpstream(ctx, channel, { url, method: 'POST', headers: upstreamHeaders(channel), body }, SUBMIT_TIMEOUT_MS);
  if (result.kind === 'unreachable') {
    if (result.reason === 'upstream timeout') {
      return { kind: 'refused', reply: { status: 504, body: errorBody({ code: 'upstream_timeout', message: '上游响应超时' }) }, retry: false };
    }
    return { kind: 'refused', reply: { status: 502, body: errorBody(unreachableUpstream()) }, retry: true };
  }
  const { status, json, text } = result;
  if (status >= 200 && status < 300) {
    const taskId = submittedTaskId(json);
    if (taskId) {
      const now = nowSeconds();
      return {
        kind: 'accepted',
        upstreamId: taskId,
        reply: { status: 200, body: json },
        record: {
          table: 'tasks',
          row: {
            platform: PLATFORM,
            task_id: taskId,
            action,
            status: 'SUBMITTED',
            progress: '0%',
            submit_time: now,
            created_at: now,
            updated_at: now,
            properties: body,
          },
        },
      };
    }
    const said = refusalOf(json, text, status);
    if (said.code === 'upstream_error' || said.code === 'success') {
      return { kind: 'refused', reply: { status: 502, body: errorBody({ code: 'upstream_bad_answer', message: '上游未返回任务 ID' }) }, retry: false };
    }
    // A 200 whose code is not "success": the upstream refused the task (as the established gateway, a 500).
    return refused(ctx, channel, 500, said);
  }
  return refused(ctx, channel, status, refusalOf(json, text, status));
}

function refused(ctx: AppContext, channel: RoutedChannel, upstreamStatus: number, said: { code: string; message: string }): TaskAttempt {
  const status = mapStatus(channel, upstreamStatus);
  const signal = { status: upstreamStatus, code: said.code, type: '', message: said.message };
  const disable = disablesChannel(signal, ctx.options.get('AutomaticDisableKeywords')) ? `status ${upstreamStatus}: ${said.message}` : undefined;
  // The channel's key was refused: the caller's own key is fine, so it is not told 401 (nor the upstream's words).
  const reply =
    upstreamStatus === 401 || upstreamStatus === 403
      ? { status: 502, body: errorBody(upstreamAuthFailed(upstreamStatus)) }
      : { status, body: errorBody(said) };
  return { kind: 'refused', reply, retry: upstreamStatus !== 400 && shouldRetry(status), disable };
}
