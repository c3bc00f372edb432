/*
 * Gemini (channel type 24): URLs and headers as plain functions. The Provider object is assembled once the
 * interface takes a ChatRequest.
 */
export { chatToGeminiRequest, type GeminiRequestOptions } from './request.js';
export { geminiToChatCompletion, GeminiStreamToChat, chatUsageOf, parseGeminiEvent } from './response.js';
export { SseSplitter } from './sse.js';
export { parseGeminiError } from './errors.js';
export { embeddingsToGemini, geminiToEmbeddings } from './embeddings.js';
export { cleanSchema } from './schema.js';

import { pathSegment } from '../../path-segment.js';

export const GEMINI_CHANNEL_TYPE = 24;
export const GEMINI_DEFAULT_BASE = 'https://generativelanguage.googleapis.com';
export const GEMINI_DEFAULT_VERSION = 'v1beta';

function prefix(base: string, version: string): string {
  const trimmed = (base || GEMINI_DEFAULT_BASE).replace(/\/+$/, '');
  // A base URL that already names the version (…/v1beta) is not given it twice.
  return /\/v\d+(?:alpha|beta)?\d*$/.test(trimmed) ? trimmed : `${trimmed}/${version || GEMINI_DEFAULT_VERSION}`;
}

export function geminiUrl(base: string, version: string, model: string, stream: boolean): string {
  const action = stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
  return `${prefix(base, version)}/models/${pathSegment(model)}:${action}`;
}

export function geminiEmbedUrl(base: string, version: string, model: string, batch = true): string {
  return `${prefix(base, version)}/models/${pathSegment(model)}:${batch ? 'batchEmbedContents' : 'embedContent'}`;
}

export function geminiCountTokensUrl(base: string, version: string, model: string): string {
  return `${prefix(base, version)}/models/${pathSegment(model)}:countTokens`;
}

export function geminiHeaders(key: string, stream = false): Record<string, string> {
  const headers: Record<string, string> = { 'x-goog-api-key': key, 'content-type': 'application/json' };
  if (stream) headers.accept = 'text/event-stream';
  return headers;
}
