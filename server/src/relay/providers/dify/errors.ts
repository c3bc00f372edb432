import type { ParsedUpstreamError } from '../../formats/openai/errors.js';

/*
 * Dify answers errors as {"code": "invalid_param", "message": "...", "status": 400}. Some codes say the app behind
 * the key cannot serve any call (no model provider configured, its quota spent, the app unpublished): those fail
 * every call of the channel, like a refused key.
 */

const CHANNEL_CODES = new Set(['unauthorized', 'app_unavailable', 'provider_not_initialize', 'provider_quota_exceeded']);

const TYPE_BY_STATUS: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'forbidden_error',
  404: 'not_found_error',
  413: 'invalid_request_error',
  415: 'invalid_request_error',
  429: 'rate_limit_error',
};

/** The code and message of a Dify error body; null when the body is not one. */
export function difyErrorOf(body: string): { code: string; message: string } | null {
  try {
    const parsed = JSON.parse(body) as { code?: unknown; message?: unknown } | null;
    if (!parsed || typeof parsed !== 'object' || typeof parsed.message !== 'string') return null;
    return { code: typeof parsed.code === 'string' ? parsed.code : '', message: parsed.message };
  } catch {
    return null;
  }
}

/** A Dify error body as the relay's upstream error. Never echoes a body that is not Dify's. */
export function parseDifyError(status: number, body: string): ParsedUpstreamError {
  const type = TYPE_BY_STATUS[status] ?? (status >= 500 ? 'api_error' : 'upstream_error');
  const e = difyErrorOf(body);
  if (!e) return { message: `bad response status code ${status}`, type, code: '' };
  const out: ParsedUpstreamError = { message: e.message || `bad response status code ${status}`, type, code: e.code };
  if (status === 401 || CHANNEL_CODES.has(e.code)) out.credentials = true;
  return out;
}
