import { CHANNEL_TYPE } from '@switchyard/shared';
import type { Mode, Provider, UpstreamCall, UpstreamRequest } from '../../types.js';
import { pathSegment } from '../../path-segment.js';
import { resolveBaseUrl } from '../base-url.js';
import { jsonBody } from '../body.js';
import { embedInBatches } from './batches.js';
import { parseDashScopeError } from './errors.js';
import { imageAnswerFormat } from './images.js';
import { runImageTask } from './task.js';
import { dashScopeWire } from './wire.js';

/*
 * Alibaba DashScope / Qwen (channel type 17). Chat through the OpenAI-compatible mode (every client format reaches
 * it through the OpenAI wire), with top_p kept inside the open interval DashScope accepts; embeddings and wanx
 * text-to-image through the native API (the dashscope wire; long embedding inputs in batches). The channel's "other"
 * field, when set, is sent as X-DashScope-Plugin.
 */

export { dashScopeWire } from './wire.js';
export { parseDashScopeError } from './errors.js';
export { setTaskPolling } from './task.js';

const PATHS: Partial<Record<Mode, string>> = {
  chat: '/compatible-mode/v1/chat/completions',
  embeddings: '/api/v1/services/embeddings/text-embedding/text-embedding',
  images: '/api/v1/services/aigc/text2image/image-synthesis',
};

/** DashScope refuses top_p >= 1 and <= 0. */
export const TOP_P_RANGE = { min: 0.001, max: 0.999 } as const;

/** The host part of a base URL that may already name one of DashScope's API roots. */
export function dashScopeRoot(base: string): string {
  return base.replace(/\/+$/, '').replace(/\/(compatible-mode\/v1|api\/v1)$/, '');
}

export function dashScopeUrl(base: string, mode: Mode): string {
  return dashScopeRoot(base) + (PATHS[mode] ?? PATHS.chat!);
}

/** top_p moved into the range DashScope accepts; unchanged when it is absent or already inside. */
export function clampTopP(topP: unknown): unknown {
  if (typeof topP !== 'number' || !Number.isFinite(topP)) return topP;
  if (topP >= 1) return TOP_P_RANGE.max;
  if (topP <= 0) return TOP_P_RANGE.min;
  return topP;
}

/** The chat body: the OpenAI body as the OpenAI wire builds it, re-serialised only when top_p must move. */
function chatBody(up: UpstreamCall): Buffer | string {
  const source = up.converted ?? up.call.json ?? {};
  const body = jsonBody(up);
  const clamped = clampTopP(source.top_p);
  if (clamped === source.top_p) return body;
  const json = JSON.parse(typeof body === 'string' ? body : body.toString('utf8')) as Record<string, unknown>;
  json.top_p = clamped;
  return JSON.stringify(json);
}

function headersOf(up: UpstreamCall): Record<string, string> {
  const headers: Record<string, string> = { authorization: `Bearer ${up.key}`, 'content-type': 'application/json' };
  const plugin = up.channel.other.trim();
  if (plugin) headers['x-dashscope-plugin'] = plugin;
  return headers;
}

export const dashScopeProvider: Provider = {
  name: 'dashscope',
  types: [CHANNEL_TYPE.ALI],
  supports: (mode) => mode in PATHS,
  wire: (up) => (up.call.mode === 'chat' ? 'openai' : 'dashscope'),
  build(up): UpstreamRequest {
    const url = dashScopeUrl(resolveBaseUrl(up.channel), up.call.mode);
    const headers = headersOf(up);
    if (up.call.mode === 'chat') {
      if (up.call.stream) {
        headers.accept = 'text/event-stream';
        headers['x-dashscope-sse'] = 'enable';
      }
      return { url, method: 'POST', headers, body: chatBody(up) };
    }
    if (up.call.mode === 'images') headers['x-dashscope-async'] = 'enable';
    return { url, method: 'POST', headers, body: JSON.stringify(up.converted ?? {}) };
  },
  fetch(up, req, client) {
    if (up.call.mode === 'embeddings') return embedInBatches(req, client);
    if (up.call.mode !== 'images') return null;
    const root = dashScopeRoot(resolveBaseUrl(up.channel));
    const auth = { authorization: req.headers.authorization };
    return runImageTask(
      {
        submit: req,
        taskRequest: (id) => ({ url: `${root}/api/v1/tasks/${pathSegment(id)}`, method: 'GET', headers: auth }),
        format: imageAnswerFormat(up.call.canonical ?? up.call.json ?? {}),
      },
      client,
    );
  },
  parseError: (status, body) => parseDashScopeError(status, body),
  codecs: [dashScopeWire],
  defaultTestModel: 'qwen-turbo',
};
