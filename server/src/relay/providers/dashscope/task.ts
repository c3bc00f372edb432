import { isSafePathSegment } from '../../path-segment.js';
import type { UpstreamRequest } from '../../types.js';
import type { BufferedCall, UpstreamClient, WholeAnswer } from '../../upstream.js';
import { jsonAnswer, ok, parseObject, runSteps, type Steps } from './calls.js';
import type { ImageAnswerFormat } from './images.js';
import type { DashScopeTaskAnswer } from './types.js';

/*
 * A text-to-image call is an async task on DashScope: submitted with X-DashScope-Async, then read at
 * /api/v1/tasks/{id} until it SUCCEEDED or FAILED. The relay waits for it within the client's call: the first read
 * after `firstMs`, then every `intervalMs`, for `timeoutMs` at most. Whatever ends the wait comes back as one
 * answer — the finished task, or a refusal in DashScope's native error shape — so the pipeline handles it like
 * any other upstream answer (refusals retried, mapped, counted against the channel).
 */

export interface TaskPolling {
  firstMs: number;
  intervalMs: number;
  timeoutMs: number;
}

const DEFAULT_POLLING: TaskPolling = { firstMs: 1000, intervalMs: 2000, timeoutMs: 300_000 };
let polling = DEFAULT_POLLING;

/** Sets how tasks are polled (tests use a few milliseconds); no argument restores the defaults. */
export function setTaskPolling(p: Partial<TaskPolling> = {}): void {
  polling = { ...DEFAULT_POLLING, ...p };
}

/** A refusal written here in DashScope's native error shape (read back by parseDashScopeError). */
const refusal = (status: number, code: string, message: string, requestId = ''): WholeAnswer => jsonAnswer(status, { code, message, request_id: requestId });

/** Failed tasks whose cause is the request: answered as the client's error (400), not retried elsewhere. */
const CLIENT_CODES = new Set(['InvalidParameter', 'DataInspectionFailed', 'IPInfringementSuspect']);

const parseTask = (body: Buffer) => parseObject<DashScopeTaskAnswer>(body);

export interface ImageTask {
  submit: UpstreamRequest;
  /** GET /api/v1/tasks/{id} of a submitted task. */
  taskRequest(taskId: string): UpstreamRequest;
  format: ImageAnswerFormat;
}

/** Runs one image task to its end; cancel() (client gone) stops the wait and any call under way. */
export function runImageTask(task: ImageTask, client: Pick<UpstreamClient, 'fetch'>): BufferedCall {
  return runSteps(client, async (steps) => {
    const p = polling;
    const submitted = await steps.send(task.submit);
    if (!ok(submitted.statusCode)) return submitted;
    const first = parseTask(submitted.body);
    const taskId = first?.output?.task_id;
    if (typeof taskId !== 'string' || taskId === '') return refusal(502, 'InvalidResponse', 'DashScope 未返回图片任务 ID', first?.request_id);
    // The id becomes part of the poll's path: one that would step out of it is not followed.
    if (!isSafePathSegment(taskId)) return refusal(502, 'InvalidResponse', 'DashScope 返回的图片任务 ID 无效', first?.request_id);
    const deadline = Date.now() + p.timeoutMs;
    for (let i = 0; ; i++) {
      await steps.pause(i === 0 ? p.firstMs : p.intervalMs);
      const polled = await steps.send(task.taskRequest(taskId));
      if (!ok(polled.statusCode)) return polled;
      const state = parseTask(polled.body);
      const output = state?.output;
      const status = output?.task_status;
      if (state && status === 'SUCCEEDED') return finished(state, polled, task.format, steps);
      if (status === 'FAILED' || status === 'CANCELED' || status === 'UNKNOWN') {
        const code = output?.code ?? (status === 'UNKNOWN' ? 'TaskNotFound' : 'TaskFailed');
        const message = output?.message ?? `DashScope 图片任务 ${taskId} 状态为 ${status}`;
        return refusal(CLIENT_CODES.has(code) ? 400 : 500, code, message, state?.request_id);
      }
      if (Date.now() >= deadline) return refusal(504, 'TaskTimeout', `DashScope 图片任务 ${taskId} 在 ${Math.round(p.timeoutMs / 1000)} 秒内未完成`, state?.request_id);
    }
  });
}

/** A task that succeeded: at least one image, downloaded when the client wants the bytes. */
async function finished(state: DashScopeTaskAnswer, polled: WholeAnswer, format: ImageAnswerFormat, steps: Steps): Promise<WholeAnswer> {
  const results = state.output?.results ?? [];
  const made = results.filter((r) => typeof r.url === 'string' && r.url !== '');
  if (made.length === 0) {
    const failed = results.find((r) => r.code);
    const code = failed?.code ?? 'NoImage';
    return refusal(CLIENT_CODES.has(code) ? 400 : 502, code, failed?.message ?? 'DashScope 图片任务没有生成图片', state.request_id);
  }
  if (format !== 'b64_json') return polled;
  for (const r of made) {
    const image = await steps.send({ url: r.url!, method: 'GET', headers: {} });
    if (!ok(image.statusCode)) return refusal(502, 'ImageDownloadFailed', `下载 DashScope 生成的图片失败：HTTP ${image.statusCode}`, state.request_id);
    r.b64_json = image.body.toString('base64');
  }
  return jsonAnswer(200, state);
}
