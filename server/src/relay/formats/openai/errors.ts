import type { RelayError } from '../../errors.js';

/** OpenAI's error body: {error: {message, type, param, code}}. */
export function openAIErrorBody(err: Pick<RelayError, 'message' | 'type' | 'code'>): string {
  return JSON.stringify({ error: { message: err.message, type: err.type, param: null, code: err.code ?? null } });
}

export interface ParsedUpstreamError {
  message: string;
  type: string;
  code: string;
}

/** Reads an upstream error body in OpenAI's shape, or falls back to the status. Never echoes HTML pages. */
export function parseOpenAIError(status: number, body: string): ParsedUpstreamError {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown; type?: unknown; code?: unknown } | string; message?: unknown };
    const e = parsed.error;
    if (e && typeof e === 'object') {
      return {
        message: typeof e.message === 'string' && e.message ? e.message : `bad response status code ${status}`,
        type: typeof e.type === 'string' ? e.type : 'upstream_error',
        code: typeof e.code === 'string' || typeof e.code === 'number' ? String(e.code) : '',
      };
    }
    if (typeof e === 'string') return { message: e, type: 'upstream_error', code: '' };
    if (typeof parsed.message === 'string') return { message: parsed.message, type: 'upstream_error', code: '' };
  } catch {
    // not JSON
  }
  return { message: `bad response status code ${status}`, type: 'upstream_error', code: '' };
}
