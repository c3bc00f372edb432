import { compactBody } from '../../formats/responses/compact.js';
import type { Attempt, Mode, Provider, UpstreamCall, UpstreamRequest, WireFormat } from '../../types.js';
import { pathSegment } from '../../path-segment.js';
import { resolveBaseUrl } from '../base-url.js';
import { jsonBody } from '../body.js';
import { channelMemo } from '../channel-memo.js';

/** Path of each call on an OpenAI-compatible server. */
export const OPENAI_PATHS: Record<Mode, string> = {
  chat: '/v1/chat/completions',
  completions: '/v1/completions',
  embeddings: '/v1/embeddings',
  moderations: '/v1/moderations',
  images: '/v1/images/generations',
  speech: '/v1/audio/speech',
  transcriptions: '/v1/audio/transcriptions',
  translations: '/v1/audio/translations',
  rerank: '/v1/rerank',
};

const RESPONSES_PATH = '/v1/responses';

/** Channel types that speak OpenAI's wire format at OpenAI's paths. */
const TYPES = [1, 8, 19, 22, 25, 31, 40] as const;

/**
 * A base URL that already ends in a version segment (…/v1, …/api/v3, …/openapi/v1) is used as the prefix of the
 * call's path without repeating /v1; a custom channel's URL may name the model with {model}.
 */
export function openAIUrl(base: string, mode: Mode, model: string, wire: WireFormat = 'openai'): string {
  if (base.includes('{model}')) return base.replaceAll('{model}', pathSegment(model));
  const path = wire === 'responses' ? RESPONSES_PATH : OPENAI_PATHS[mode];
  if (/\/v\d+$/.test(base)) return base + path.slice(3);
  return base + path;
}

export function openAIRequest(up: UpstreamCall, url: string, auth: Record<string, string>): UpstreamRequest {
  const headers: Record<string, string> = { ...auth };
  let body: UpstreamRequest['body'];
  if (up.call.form) {
    body = up.call.form;
  } else {
    body = jsonBody(up);
    headers['content-type'] = 'application/json';
  }
  if (up.call.stream) headers.accept = 'text/event-stream';
  return { url, method: 'POST', headers, body };
}

/** OpenAI itself serves the Responses API; other compatible servers are reached through chat. */
const RESPONSES_TYPES: ReadonlySet<number> = new Set([1]);

/** Chat-style wire for every call, except Responses calls on a channel that serves them itself. */
export function openAIWireOf(up: Attempt, responsesTypes: ReadonlySet<number> = RESPONSES_TYPES): WireFormat {
  return up.call.format === 'responses' && responsesTypes.has(up.channel.type) ? 'responses' : 'openai';
}

export const openAIProvider: Provider = {
  name: 'openai',
  types: TYPES,
  supports: () => true,
  wire: (up) => openAIWireOf(up),
  build(up) {
    const { channel, call } = up;
    // URL and headers depend only on the channel and the call's shape: built once per channel snapshot.
    const url = channelMemo(channel, `url\n${call.mode}\n${up.wire}\n${up.upstreamModel}`, () =>
      openAIUrl(resolveBaseUrl(channel), call.mode, up.upstreamModel, up.wire),
    );
    const request = openAIRequest(up, url, {});
    // Compaction on OpenAI's own endpoint, with the request as the client sent it (formats/responses/compact.ts).
    if (call.compact && up.wire === 'responses') {
      request.url = `${url}/compact`;
      request.body = JSON.stringify(compactBody(call.json ?? {}, up.upstreamModel));
    }
    request.headers = channelMemo(channel, `headers\n${call.form ? 'form' : 'json'}\n${call.stream}\n${up.key}`, () => {
      const headers: Record<string, string> = { authorization: `Bearer ${up.key}`, ...request.headers };
      if (channel.organization) headers['openai-organization'] = channel.organization;
      return Object.freeze(headers);
    });
    // Codex's identity headers, for OpenAI's own Responses endpoint (a passthrough).
    if (up.wire === 'responses' && call.passHeaders) request.headers = { ...request.headers, ...call.passHeaders };
    return request;
  },
  // OpenAI counts Responses requests (POST /v1/responses/input_tokens); chat requests it does not count.
  countTokens(up, body) {
    if (up.wire !== 'responses') return null;
    const url = `${openAIUrl(resolveBaseUrl(up.channel), 'chat', up.upstreamModel, 'responses')}/input_tokens`;
    const headers: Record<string, string> = { authorization: `Bearer ${up.key}`, 'content-type': 'application/json' };
    if (up.channel.organization) headers['openai-organization'] = up.channel.organization;
    return {
      request: { url, method: 'POST', headers, body: JSON.stringify({ ...body, model: up.upstreamModel }) },
      read: (answer) => (typeof answer.input_tokens === 'number' ? answer.input_tokens : null),
    };
  },
};
