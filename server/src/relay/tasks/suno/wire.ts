import type { TaskRow } from '../../../store/async-tasks.js';
import { parseJsonObject } from '../../calls.js';
import { RelayError } from '../../errors.js';
import type { TextVisitor } from '../../formats/prompt-text.js';

/*
 * Suno-API's wire shapes (the open-source server channels of type 36 point at), and the gateway's answers in them.
 * Every answer is `{code, message, data}`: code "success" with the data, or an error code with its message and
 * data null. A submission answers the new task's id as data; a fetch answers task objects (task_id, action,
 * status, fail_reason, submit/start/finish_time in unix seconds, data = the clips, or the lyrics).
 */

export const SUNO_ACTIONS = ['MUSIC', 'LYRICS'] as const;
export type SunoAction = (typeof SUNO_ACTIONS)[number];

export const SUNO_STATUSES = ['NOT_START', 'SUBMITTED', 'QUEUED', 'IN_PROGRESS', 'FAILURE', 'SUCCESS', 'UNKNOWN'] as const;
export type SunoStatus = (typeof SUNO_STATUSES)[number];

export const SUCCESS_CODE = 'success';

const invalid = (message: string, code = 'invalid_request') => new RelayError(400, message, code);

/** The action of `/suno/submit/{action}`, any case. */
export function actionOf(param: string): SunoAction {
  const action = param.toUpperCase();
  if (!(SUNO_ACTIONS as readonly string[]).includes(action)) throw invalid(`不支持的操作 ${param}，只支持 MUSIC 和 LYRICS`, 'invalid_action');
  return action as SunoAction;
}

/** The priced model of an action: suno_music, suno_lyrics. */
export const modelOf = (action: SunoAction): string => `suno_${action.toLowerCase()}`;

/** The body's object, or a 400 saying what is wrong with it (in Suno's error code). */
export function jsonObjectOf(raw: Buffer | undefined): Record<string, unknown> {
  try {
    return parseJsonObject(raw);
  } catch (err) {
    throw invalid((err as Error).message);
  }
}

const STRING_FIELDS = ['prompt', 'gpt_description_prompt', 'mv', 'title', 'tags', 'continue_clip_id', 'task_id'] as const;

/** The fields a submission sends for the model to read (the rest are ids, versions and switches). */
const TEXT_FIELDS = ['prompt', 'gpt_description_prompt', 'title', 'tags'] as const;

/** The texts of a submission's body, for the sensitive-word check. */
export function promptTextsOf(body: Record<string, unknown>, visit: TextVisitor): void {
  for (const field of TEXT_FIELDS) {
    const v = body[field];
    if (typeof v === 'string') visit(v);
  }
}

export interface SunoSubmission {
  /** The client's body, forwarded as sent (fields the gateway does not read reach the upstream too). */
  body: Record<string, unknown>;
  /** The upstream id of the task a continuation extends (`task_id` with `continue_clip_id`), else null. */
  continues: string | null;
}

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/** A submission's body, checked as Suno-API reads it: typed fields, a prompt for lyrics, a task for a continuation. */
export function parseSubmission(raw: Buffer | undefined, action: SunoAction): SunoSubmission {
  const body = jsonObjectOf(raw);
  for (const field of STRING_FIELDS) {
    const v = body[field];
    if (v !== undefined && v !== null && typeof v !== 'string') throw invalid(`${field} 必须是字符串`);
  }
  const at = body.continue_at;
  if (at !== undefined && at !== null && (typeof at !== 'number' || !Number.isFinite(at) || at < 0)) throw invalid('continue_at 必须是非负数');
  const instrumental = body.make_instrumental;
  if (instrumental !== undefined && instrumental !== null && typeof instrumental !== 'boolean') throw invalid('make_instrumental 必须是布尔值');
  if (action === 'LYRICS' && !text(body.prompt)) throw invalid('歌词任务的 prompt 不能为空', 'prompt_empty');
  let continues: string | null = null;
  if (action === 'MUSIC' && text(body.continue_clip_id)) {
    continues = text(body.task_id);
    if (!continues) throw invalid('续写（continue_clip_id）需要原任务的 task_id', 'task_id_empty');
  }
  return { body, continues };
}

/** An error in Suno's shape. */
export function errorBody(err: { code?: string; message: string }): { code: string; message: string; data: null } {
  return { code: err.code || 'invalid_request', message: err.message, data: null };
}

const record = (v: unknown): Record<string, unknown> | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

/** The new task's id in a submission's answer; null unless the answer is a success carrying one. */
export function submittedTaskId(json: unknown): string | null {
  const answer = record(json);
  if (!answer || answer.code !== SUCCESS_CODE) return null;
  return typeof answer.data === 'string' && answer.data.trim() ? answer.data.trim() : null;
}

/** What an upstream that refused said: its own code and message when it answered in Suno's shape. */
export function refusalOf(json: unknown, body: string, status: number): { code: string; message: string } {
  const answer = record(json);
  const code = answer && typeof answer.code === 'string' && answer.code ? answer.code : 'upstream_error';
  const message = answer && typeof answer.message === 'string' && answer.message ? answer.message : body.trim().slice(0, 500) || `上游返回 HTTP ${status}`;
  return { code, message };
}

/** One task as an upstream's fetch reports it. */
export interface SunoTaskState {
  taskId: string;
  status: SunoStatus;
  failReason: string;
  startTime: number;
  finishTime: number;
  /** "45%"; null when the upstream gave none. */
  progress: string | null;
  /** The clips (or lyrics); undefined when the upstream sent none. */
  data: unknown;
}

/** Suno's own clip states, which Suno-API turns into task statuses (a server that passes them on is read alike). */
const CLIP_STATES: Record<string, SunoStatus> = { submitted: 'SUBMITTED', queued: 'QUEUED', streaming: 'IN_PROGRESS', complete: 'SUCCESS', error: 'FAILURE' };

/** A status as the gateway stores it; one it does not know is UNKNOWN. */
export function statusOf(v: unknown): SunoStatus {
  const raw = typeof v === 'string' ? v.trim() : '';
  const s = raw.toUpperCase();
  if ((SUNO_STATUSES as readonly string[]).includes(s)) return s as SunoStatus;
  return Object.hasOwn(CLIP_STATES, raw) ? CLIP_STATES[raw] : 'UNKNOWN';
}

/** A percentage string ("45%") from "45%", "45" or 45, within 0–100; null for anything else. */
export function progressOf(v: unknown): string | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+(\.\d+)?\s*%?\s*$/.test(v) ? Number.parseFloat(v) : NaN;
  if (!Number.isFinite(n)) return null;
  return `${Math.round(Math.min(100, Math.max(0, n)))}%`;
}

const seconds = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);

/** The task objects of a fetch's answer; null when the answer is not a success. */
export function fetchedStates(json: unknown): SunoTaskState[] | null {
  const answer = record(json);
  if (!answer || answer.code !== SUCCESS_CODE || !Array.isArray(answer.data)) return null;
  const states: SunoTaskState[] = [];
  for (const item of answer.data) {
    const task = record(item);
    if (!task || typeof task.task_id !== 'string' || !task.task_id) continue;
    states.push({
      taskId: task.task_id,
      status: statusOf(task.status),
      failReason: typeof task.fail_reason === 'string' ? task.fail_reason : '',
      startTime: seconds(task.start_time),
      finishTime: seconds(task.finish_time),
      progress: progressOf(task.progress),
      data: task.data,
    });
  }
  return states;
}

/** A task as the gateway's fetch answers it (new-api's TaskDto): the stored row, data parsed back to JSON. */
export function taskDto(row: TaskRow) {
  let data: unknown = null;
  if (row.data) {
    try {
      data = JSON.parse(row.data);
    } catch {
      data = null;
    }
  }
  return {
    task_id: row.task_id,
    action: row.action,
    status: row.status,
    fail_reason: row.fail_reason,
    submit_time: row.submit_time,
    start_time: row.start_time,
    finish_time: row.finish_time,
    progress: row.progress,
    data,
  };
}
