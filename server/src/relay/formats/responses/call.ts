import type { IncomingHttpHeaders } from 'node:http';
import { bad, parseJsonObject, positiveInt } from '../../calls.js';
import type { ClientCall } from '../../types.js';
import { openAIFieldError } from '../openai/errors.js';
import { checkResponsesBody } from './schema.js';

/** Codex's identity headers, which OpenAI's own Responses endpoint may depend on (besides every x-codex-* one). */
const CODEX_HEADERS = new Set(['originator', 'session_id', 'session-id', 'thread-id', 'conversation_id', 'x-client-request-id', 'x-openai-internal-codex-responses-lite']);

/** The client's identity headers for an upstream that serves Responses itself (passthrough only). */
export function responsesPassHeaders(headers: IncomingHttpHeaders): Record<string, string> | undefined {
  let out: Record<string, string> | undefined;
  for (const name in headers) {
    if (!CODEX_HEADERS.has(name) && !name.startsWith('x-codex-')) continue;
    const v = headers[name];
    if (typeof v === 'string' && v) (out ??= {})[name] = v;
  }
  return out;
}

/** An OpenAI Responses request (POST /v1/responses), checked for the fields OpenAI requires. */
export function parseResponsesCall(raw: Buffer | undefined, headers: IncomingHttpHeaders = {}): ClientCall {
  const body = parseJsonObject(raw);
  if (typeof body.model !== 'string' || !body.model.trim()) throw bad('未指定模型名称，模型名称不能为空', 'model_required');
  if (body.input === undefined || body.input === null || body.input === '') throw bad('缺少必填字段 input');
  if (typeof body.input !== 'string' && !Array.isArray(body.input)) throw bad('input 必须是字符串或数组');
  if (body.stream !== undefined && typeof body.stream !== 'boolean') throw bad('stream 必须是布尔值');
  const problem = checkResponsesBody(body);
  if (problem) throw openAIFieldError(problem);
  return {
    format: 'responses',
    mode: 'chat',
    model: body.model.trim(),
    stream: body.stream === true,
    json: body,
    raw,
    // Responses streams always end with the usage (response.completed); nothing has to be asked for.
    clientWantsStreamUsage: true,
    maxTokens: positiveInt(body.max_output_tokens),
    passHeaders: responsesPassHeaders(headers),
  };
}
