import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import { sendJson, sleep, startRecordingServer, type PlainRequest, type RecordingServer } from './mocks/local-server.js';

/*
 * A local Suno-API (the open-source server Suno channels point at), speaking its wire format: every route checks
 * `Authorization: Bearer <key>` (401 `unauthorized secret token` otherwise), answers `{code, message, data}`,
 * takes `POST /suno/submit/{music|lyrics}` (the task's id as data), and reports tasks on `POST /suno/fetch {ids}`
 * and `GET /suno/fetch/{id}` as task objects (task_id, action, status, fail_reason, submit/start/finish_time,
 * progress, data = the clips, or the lyrics).
 *
 * Tests script it: `submits` answers the next submissions (a refusal with a status, a 200 whose code is not
 * success, a wait), and each accepted task follows its script — one step per fetch that names it, the last step
 * repeating: in progress, succeeded with clips, failed with a reason, or never finishing.
 */

export type SunoStep =
  | { status: 'NOT_START' | 'SUBMITTED' | 'QUEUED' | 'IN_PROGRESS' | 'UNKNOWN'; progress?: string }
  | { status: 'SUCCESS' }
  | { status: 'FAILURE'; reason: string };

/** The usual life of a music task: queued, half done, done. */
export const MUSIC_SCRIPT: SunoStep[] = [{ status: 'QUEUED' }, { status: 'IN_PROGRESS', progress: '50%' }, { status: 'SUCCESS' }];
export const FAILING_SCRIPT: SunoStep[] = [{ status: 'IN_PROGRESS', progress: '30%' }, { status: 'FAILURE', reason: 'Song generation failed: unsafe content' }];
export const ENDLESS_SCRIPT: SunoStep[] = [{ status: 'IN_PROGRESS', progress: '10%' }];

export type SubmitAnswer =
  | { kind: 'accept'; script?: SunoStep[] }
  /** Refuses with this status and Suno's error body. */
  | { kind: 'refuse'; status: number; message?: string; code?: string }
  /** HTTP 200 whose code is not success (the upstream could not make the task). */
  | { kind: 'failed-code'; message?: string }
  /** Waits this long before accepting (a submission the gateway gives up on). */
  | { kind: 'slow'; ms: number };

export interface StandInTask {
  taskId: string;
  action: 'MUSIC' | 'LYRICS';
  body: Record<string, unknown>;
  script: SunoStep[];
  /** Steps taken (fetches that named it). */
  step: number;
  submitTime: number;
  startTime: number;
  finishTime: number;
}

export interface SunoStandIn extends RecordingServer {
  key: string;
  /** Answers for the next submissions, in order; then every submission is accepted with `script`. */
  submits: SubmitAnswer[];
  /** The script of tasks accepted without one of their own. */
  script: SunoStep[];
  /** Every task it made, by id. */
  tasks: Map<string, StandInTask>;
  /** `POST /suno/fetch` calls served (the gateway's polls). */
  polls: number;
  /** Waits before answering the next fetches, in order (ms). */
  pollDelays: number[];
  /** Answers the next fetches with this status and Suno's error body (then normally again). */
  pollFailures: number[];
  /** Forgets a task: fetches no longer report it. */
  forget(taskId: string): void;
  submissions(): PlainRequest[];
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
const send = (res: http.ServerResponse, status: number, body: unknown) => sendJson(res, status, JSON.stringify(body));
const ok = (data: unknown) => ({ code: 'success', message: '', data });
const error = (code: string, message: string) => ({ code, message, data: null });

function clipsOf(task: StandInTask, done: boolean) {
  const body = task.body;
  if (task.action === 'LYRICS') {
    return { id: task.taskId, status: done ? 'complete' : 'running', title: 'Night Drive', text: done ? `[Verse]\n${String(body.prompt)}\n[Chorus]\nla la la` : '' };
  }
  return [1, 2].map((n) => ({
    id: `${task.taskId}-clip${n}`,
    title: typeof body.title === 'string' && body.title ? body.title : 'Untitled',
    status: done ? 'complete' : 'streaming',
    audio_url: done ? `https://cdn1.suno.ai/${task.taskId}-clip${n}.mp3` : '',
    image_url: `https://cdn2.suno.ai/image_${task.taskId}-clip${n}.jpeg`,
    image_large_url: `https://cdn2.suno.ai/image_large_${task.taskId}-clip${n}.jpeg`,
    video_url: '',
    model_name: 'chirp-v3',
    major_model_version: 'v3',
    metadata: {
      tags: typeof body.tags === 'string' ? body.tags : '',
      prompt: typeof body.prompt === 'string' ? body.prompt : '',
      gpt_description_prompt: body.gpt_description_prompt ?? null,
      duration: done ? 120.5 : null,
      error_message: null,
    },
  }));
}

/** The task object a fetch reports, after taking the task one step along its script. */
function advance(task: StandInTask) {
  const step = task.script[Math.min(task.step, task.script.length - 1)];
  task.step++;
  const now = nowSeconds();
  if (step.status === 'IN_PROGRESS' && !task.startTime) task.startTime = now;
  const final = step.status === 'SUCCESS' || step.status === 'FAILURE';
  if (final && !task.finishTime) {
    task.startTime ||= now;
    task.finishTime = now;
  }
  return {
    task_id: task.taskId,
    action: task.action,
    status: step.status,
    fail_reason: step.status === 'FAILURE' ? step.reason : '',
    submit_time: task.submitTime,
    start_time: task.startTime,
    finish_time: task.finishTime,
    progress: final ? '100%' : 'progress' in step && step.progress ? step.progress : '0%',
    data: clipsOf(task, step.status === 'SUCCESS'),
  };
}

export async function startSunoStandIn(key = 'suno-secret'): Promise<SunoStandIn> {
  const forgotten = new Set<string>();
  const state = {
    key,
    submits: [] as SubmitAnswer[],
    script: MUSIC_SCRIPT,
    tasks: new Map<string, StandInTask>(),
    polls: 0,
    pollDelays: [] as number[],
    pollFailures: [] as number[],
  };

  const server = await startRecordingServer(async (req, res) => {
    const auth = String(req.headers.authorization ?? '');
    if (auth !== `Bearer ${state.key}`) return send(res, 401, error('invalid_request', 'unauthorized secret token'));
    const submit = /^\/suno\/submit\/([^/]+)$/.exec(req.path);
    if (req.method === 'POST' && submit) return handleSubmit(submit[1].toUpperCase(), req, res);
    if (req.method === 'POST' && req.path === '/suno/fetch') {
      state.polls++;
      // The tasks take their step when the fetch arrives; the answer may then wait (to arrive after a later one).
      const delay = state.pollDelays.shift();
      const failure = state.pollFailures.shift();
      const ids = Array.isArray(req.json?.ids) ? (req.json.ids as unknown[]) : [];
      const found = ids.filter((id): id is string => typeof id === 'string' && !forgotten.has(id)).map((id) => state.tasks.get(id));
      const answer = failure ? null : found.filter((t) => t !== undefined).map(advance);
      if (delay) await sleep(delay);
      return answer ? send(res, 200, ok(answer)) : send(res, failure!, error('internal_error', 'fetch failed'));
    }
    const one = /^\/suno\/fetch\/([^/]+)$/.exec(req.path);
    if (req.method === 'GET' && one) {
      const task = state.tasks.get(one[1]);
      if (!task || forgotten.has(task.taskId)) return send(res, 400, error('invalid_request', 'task not exist'));
      return send(res, 200, ok(advance(task)));
    }
    send(res, 404, error('invalid_request', 'not found'));
  });

  async function handleSubmit(action: string, req: PlainRequest, res: http.ServerResponse) {
    if (action !== 'MUSIC' && action !== 'LYRICS') return send(res, 400, error('invalid_request', 'invalid action'));
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(req.body.toString('utf8')) as Record<string, unknown>;
    } catch (err) {
      return send(res, 400, error('invalid_request', (err as Error).message));
    }
    const answer = state.submits.shift() ?? { kind: 'accept' };
    if (answer.kind === 'refuse') return send(res, answer.status, error(answer.code ?? (answer.status >= 500 ? 'internal_error' : 'invalid_request'), answer.message ?? `refused with ${answer.status}`));
    if (answer.kind === 'failed-code') return send(res, 200, error('internal_error', answer.message ?? 'task failed'));
    if (answer.kind === 'slow') await sleep(answer.ms);
    if (action === 'LYRICS' && !body.prompt) return send(res, 400, error('invalid_request', 'prompt is empty'));
    if (body.continue_clip_id && !body.task_id) return send(res, 400, error('invalid_request', 'task_id is empty'));
    const taskId = randomUUID();
    const script = answer.kind === 'accept' && answer.script ? answer.script : state.script;
    state.tasks.set(taskId, { taskId, action, body, script, step: 0, submitTime: nowSeconds(), startTime: 0, finishTime: 0 });
    send(res, 200, ok(taskId));
  }

  return Object.assign(state, server, {
    forget: (taskId: string) => void forgotten.add(taskId),
    submissions: () => server.requests.filter((r) => r.path.startsWith('/suno/submit/')),
  });
}
