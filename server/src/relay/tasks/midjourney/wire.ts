import type { OptionReader } from '../../../options/index.js';
import { RelayError } from '../../errors.js';
import type { TextVisitor } from '../../formats/prompt-text.js';

/*
 * midjourney-proxy's wire shapes (novicezk/midjourney-proxy docs/api.md and its -plus successor): a submission is
 * answered `{code, description, result, properties}`; a task is `{id, action, status, progress, imageUrl, ...}`.
 * Everything here is pure: which action a request asks for, what it is priced as, and what the body sent upstream
 * keeps.
 */

/** Submission answer codes. */
export const MJ_CODE = {
  SUBMITTED: 1,
  NO_INSTANCE: 3,
  /** The gateway's refusal of a request (midjourney-proxy's VALIDATION_ERROR). */
  REQUEST_ERROR: 4,
  /** A failure of the gateway or of the call to the upstream. */
  UNKNOWN_ERROR: 5,
  EXISTS: 21,
  QUEUED: 22,
  QUEUE_FULL: 23,
  BANNED_PROMPT: 24,
  RATE_LIMITED: 30,
} as const;

/** The answer codes of a submission the upstream took (and the gateway charges). */
export const ACCEPTED_CODES: readonly number[] = [MJ_CODE.SUBMITTED, MJ_CODE.EXISTS, MJ_CODE.QUEUED];

export const MJ_ACTIONS = [
  'IMAGINE', 'DESCRIBE', 'BLEND', 'UPSCALE', 'VARIATION', 'REROLL', 'INPAINT', 'MODAL', 'ZOOM', 'CUSTOM_ZOOM',
  'SHORTEN', 'HIGH_VARIATION', 'LOW_VARIATION', 'PAN', 'UPLOAD', 'SWAP_FACE',
] as const;
export type MjAction = (typeof MJ_ACTIONS)[number];

/** The priced model name of an action: mj_<action>, and swap_face for InsightFace. */
export function modelOfAction(action: MjAction): string {
  return action === 'SWAP_FACE' ? 'swap_face' : `mj_${action.toLowerCase()}`;
}

/** Follow-ups opened from a MODAL window: their price is the modal's (submitted after them). */
export const FREE_ACTIONS: readonly MjAction[] = ['INPAINT', 'CUSTOM_ZOOM'];

/** The submission routes, by the last part of their path. */
export type SubmitRoute =
  | 'imagine'
  | 'change'
  | 'simple-change'
  | 'describe'
  | 'blend'
  | 'action'
  | 'modal'
  | 'shorten'
  | 'upload-discord-images'
  | 'swap';

/** What a submission asks for, before any task or channel is looked at. */
export interface SubmitIntent {
  action: MjAction;
  /** A follow-up of this upstream task id (change, simple-change, action, modal). */
  taskId?: string;
  /** MODAL is taken from an unfinished task (the check of the original's success does not apply). */
  modal?: boolean;
}

/** A request the gateway refuses before sending anything (400, code 4), in the established gateway's words. */
export class MjRequestError extends RelayError {
  constructor(description: string) {
    super(400, description, 'invalid_request');
  }
}

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/** Reads a submission body (a JSON object) into its action; throws MjRequestError when it cannot. */
export function intentOf(route: SubmitRoute, body: Record<string, unknown>): SubmitIntent {
  switch (route) {
    case 'imagine':
      if (!text(body.prompt)) throw new MjRequestError('prompt_is_required');
      return { action: 'IMAGINE' };
    case 'describe':
      return { action: 'DESCRIBE' };
    case 'blend':
      return { action: 'BLEND' };
    case 'shorten':
      return { action: 'SHORTEN' };
    case 'upload-discord-images':
      return { action: 'UPLOAD' };
    case 'swap':
      if (!text(body.sourceBase64) || !text(body.targetBase64)) throw new MjRequestError('sour_base64_and_target_base64_is_required');
      return { action: 'SWAP_FACE' };
    case 'change': {
      const taskId = requireTaskId(body);
      const action = text(body.action).toUpperCase();
      if (!action) throw new MjRequestError('action_is_required');
      if (!Number.isInteger(body.index) || body.index === 0) throw new MjRequestError('index_is_required');
      if (!(CHANGE_ACTIONS as readonly string[]).includes(action)) throw new MjRequestError(`unknown_action:${action}`);
      return { action: action as MjAction, taskId };
    }
    case 'simple-change': {
      const content = text(body.content);
      if (!content) throw new MjRequestError('content_is_required');
      const parsed = simpleChange(content);
      if (!parsed) throw new MjRequestError('content_parse_failed');
      return parsed;
    }
    case 'action':
      return { action: actionOfCustomId(text(body.customId)), taskId: requireTaskId(body) };
    case 'modal':
      return { action: 'MODAL', taskId: requireTaskId(body), modal: true };
  }
}

/** What /submit/change may ask for (the buttons of a finished grid). */
const CHANGE_ACTIONS: readonly MjAction[] = ['UPSCALE', 'VARIATION', 'REROLL'];

function requireTaskId(body: Record<string, unknown>): string {
  const taskId = text(body.taskId);
  if (!taskId) throw new MjRequestError('task_id_is_required');
  return taskId;
}

/** `/submit/simple-change` content: `<task id> U1..U4 | V1..V4 | R`. */
export function simpleChange(content: string): SubmitIntent | null {
  const parts = content.split(' ').filter(Boolean);
  if (parts.length !== 2) return null;
  const [taskId, op] = [parts[0], parts[1].toLowerCase()];
  if (op === 'r') return { action: 'REROLL', taskId };
  const m = /^([uv])([1-4])$/.exec(op);
  if (!m) return null;
  return { action: m[1] === 'u' ? 'UPSCALE' : 'VARIATION', taskId };
}

/**
 * The action a -plus button's customId stands for: `MJ::JOB::upsample::1::<hash>`, `MJ::JOB::variation::2::..`,
 * `MJ::JOB::reroll::0::..`, `MJ::JOB::pan_left::..`, `MJ::JOB::high_variation::..`, `MJ::Outpaint::50::..`,
 * `MJ::CustomZoom::..`, `MJ::Inpaint::..`. Anything else (MJ::BOOKMARK, ...) is not a priced action and is refused.
 */
export function actionOfCustomId(customId: string): MjAction {
  if (!customId) throw new MjRequestError('custom_id_is_required');
  const parts = customId.split('::');
  if (parts.length < 2 || parts[0] !== 'MJ') throw new MjRequestError(`unknown_action:${customId}`);
  const name = parts[1] === 'JOB' ? (parts[2] ?? '') : parts[1];
  if (name.includes('upsample')) return 'UPSCALE';
  if (name === 'variation') return 'VARIATION';
  if (name === 'high_variation') return 'HIGH_VARIATION';
  if (name === 'low_variation') return 'LOW_VARIATION';
  if (name.startsWith('pan')) return 'PAN';
  if (name === 'reroll') return 'REROLL';
  if (name === 'Outpaint') return 'ZOOM';
  if (name === 'CustomZoom') return 'CUSTOM_ZOOM';
  if (name === 'Inpaint') return 'INPAINT';
  throw new MjRequestError(`unknown_action:${customId}`);
}

/** The text a submission sends for the model to read: its prompt (imagine, shorten, a modal's inpaint prompt). */
export function promptTextsOf(body: Record<string, unknown>, visit: TextVisitor): void {
  if (typeof body.prompt === 'string') visit(body.prompt);
}

const MODE_FLAGS = /--(fast|relax|turbo)\b/g;

/**
 * The body sent upstream: the client's, without `accountFilter` (which proxy account draws) unless
 * MjAccountFilterEnabled, without `notifyHook` (where the proxy calls back) unless MjNotifyEnabled, and with the
 * speed flags taken out of the prompt when MjModeClearEnabled (the operator's channels decide the speed).
 */
export function upstreamBody(body: Record<string, unknown>, options: OptionReader): Record<string, unknown> {
  const out = { ...body };
  if (!options.get('MjAccountFilterEnabled')) delete out.accountFilter;
  if (!options.get('MjNotifyEnabled')) delete out.notifyHook;
  if (options.get('MjModeClearEnabled') && typeof out.prompt === 'string') out.prompt = out.prompt.replace(MODE_FLAGS, '');
  return out;
}

/** A submission answer (SubmitResultVO); `result` is a list for upload-discord-images. */
export interface SubmitAnswer {
  code: number;
  description?: string;
  result?: unknown;
  properties?: Record<string, unknown> | null;
}

export function readSubmitAnswer(json: unknown): SubmitAnswer | null {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return null;
  const code = (json as { code?: unknown }).code;
  if (typeof code !== 'number' || !Number.isInteger(code)) return null;
  return json as SubmitAnswer;
}

/** One task as midjourney-proxy reports it (list-by-condition, fetch, the notify callback). */
export interface ProxyTask {
  id: string;
  action?: string | null;
  status?: string | null;
  prompt?: string | null;
  promptEn?: string | null;
  description?: string | null;
  state?: string | null;
  submitTime?: number | null;
  startTime?: number | null;
  finishTime?: number | null;
  imageUrl?: string | null;
  progress?: string | null;
  failReason?: string | null;
  properties?: Record<string, unknown> | null;
  buttons?: unknown[] | null;
}

/** The tasks of a list-by-condition answer, by id (items without an id are skipped). */
export function readTaskList(json: unknown): Map<string, ProxyTask> {
  const out = new Map<string, ProxyTask>();
  if (!Array.isArray(json)) return out;
  for (const item of json) {
    if (item && typeof item === 'object' && typeof (item as ProxyTask).id === 'string') out.set((item as ProxyTask).id, item as ProxyTask);
  }
  return out;
}

/** The speeds a `/{mode}/mj/...` path may name: midjourney-proxy-plus's own mode paths and the bare words. */
export const MJ_MODES: readonly string[] = ['fast', 'relax', 'turbo', 'mj-fast', 'mj-relax', 'mj-turbo'];

/** The refusal of any other `{mode}`: it would become part of the path sent upstream with the channel's secret. */
export function checkMode(mode: string | undefined): void {
  if (mode !== undefined && !MJ_MODES.includes(mode)) throw new MjRequestError(`不支持的绘图模式，只支持 ${MJ_MODES.join('、')}`);
}

/**
 * The path sent upstream for a route's own path (`rest`, built by the gateway, never taken from the request): a
 * `/mj-<mode>` prefix is dropped, any other mode prefix is kept (as the established gateway does).
 */
export function upstreamPath(mode: string | undefined, rest: string): string {
  checkMode(mode);
  return mode && !mode.startsWith('mj-') ? `/${mode}/mj${rest}` : `/mj${rest}`;
}
