import type { IncomingHttpHeaders } from 'node:http';
import { bad, parseJsonObject } from '../../calls.js';
import type { ClientCall } from '../../types.js';
import { parseResponsesCall } from './call.js';
import { COMPACTION_TRIGGER } from './compaction.js';
import { newIdBase, responseId } from './ids.js';

/*
 * POST /v1/responses/compact: a conversation in, the compacted conversation out — every user message it held, then
 * one `compaction` item standing for the rest (`{id, object: "response.compaction", created_at, output, usage}`).
 * OpenAI's own channels get the request as sent, on their own compact endpoint. Everywhere else it is the
 * Responses request that compaction_trigger makes (compaction.ts): the upstream model writes the summary, and the
 * answer is shaped as OpenAI's compact endpoint answers. The call is a Responses call in every other way: routed,
 * priced and billed by its model, with `store: false` (the compacted conversation is the client's to keep).
 */

type Obj = Record<string, unknown>;

const TRIGGER = { type: COMPACTION_TRIGGER } as const;

/** The fields of the compact endpoint (OpenAI's reference); the rest of a Responses request is refused. */
const FIELDS: ReadonlySet<string> = new Set(['model', 'input', 'instructions', 'previous_response_id', 'prompt_cache_key', 'prompt_cache_retention', 'service_tier']);

export function parseCompactCall(raw: Buffer | undefined, headers: IncomingHttpHeaders = {}): ClientCall {
  const body = parseJsonObject(raw);
  for (const field of Object.keys(body)) if (!FIELDS.has(field)) throw bad(`压缩接口不支持字段 ${field}`, 'unknown_parameter');
  const input = body.input === undefined || body.input === null ? [] : typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : body.input;
  if (!Array.isArray(input)) throw bad('input 必须是字符串或数组');
  if (input.length === 0 && typeof body.previous_response_id !== 'string') throw bad('input 与 previous_response_id 至少需要一个');
  const request = { ...body, input: [...(input as unknown[]), TRIGGER], store: false, stream: false };
  const call = parseResponsesCall(Buffer.from(JSON.stringify(request)), headers);
  call.compact = true;
  return call;
}

/** What OpenAI's compact endpoint is sent: the request without the trigger and the fields added for it. */
export function compactBody(json: Obj, model: string): Obj {
  const { store: _store, stream: _stream, ...rest } = json;
  const input = Array.isArray(json.input) ? json.input.filter((item) => !(isObj(item) && item.type === COMPACTION_TRIGGER)) : json.input;
  return { ...rest, model, input };
}

/** A Response that answered the trigger, as the compact endpoint answers: the input's user messages, then the item. */
export function compactedResponse(response: Obj, request: Obj): Obj {
  const output = Array.isArray(response.output) ? (response.output as unknown[]) : [];
  const compaction = output.filter((item) => isObj(item) && item.type === 'compaction');
  return {
    id: typeof response.id === 'string' ? response.id : responseId(newIdBase()),
    object: 'response.compaction',
    created_at: typeof response.created_at === 'number' ? response.created_at : Math.floor(Date.now() / 1000),
    output: [...userMessages(request.input), ...compaction],
    usage: response.usage ?? null,
  };
}

function userMessages(input: unknown): Obj[] {
  if (!Array.isArray(input)) return [];
  const kept: Obj[] = [];
  for (const item of input) {
    if (!isObj(item) || item.role !== 'user' || (item.type !== undefined && item.type !== 'message')) continue;
    const content = typeof item.content === 'string' ? [{ type: 'input_text', text: item.content }] : item.content;
    kept.push({ type: 'message', role: 'user', content });
  }
  return kept;
}

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
