import type { IncomingHttpHeaders } from 'node:http';
import type { ClientFormat } from '../types.js';
import { isTaskUrl } from '../tasks/index.js';

/**
 * Paths served by the relay (OpenAI, Claude and Gemini formats, the playground, OpenAI's legacy billing, the task
 * platforms' routes).
 */
export function isRelayUrl(url: string): boolean {
  return url.startsWith('/v1') || url.startsWith('/pg/') || url.startsWith('/dashboard/') || isTaskUrl(url);
}

/** The format a request to a relay path expects its errors in. */
export function relayFormatOf(url: string, headers: IncomingHttpHeaders): ClientFormat {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (path.startsWith('/v1/messages')) return 'claude';
  if (path.startsWith('/v1beta') || /^\/v1\/models\/[^/]*:/.test(path)) return 'gemini';
  if (path.startsWith('/v1/responses')) return 'responses';
  if (headers['anthropic-version'] !== undefined) return 'claude';
  if (headers['x-goog-api-key'] !== undefined || (q >= 0 && /[?&]key=/.test(url.slice(q)))) return 'gemini';
  return 'openai';
}
