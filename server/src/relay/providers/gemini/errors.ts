import type { ParsedUpstreamError } from '../../formats/openai/errors.js';

/**
 * A Gemini error body ({error: {code, message, status}}, sometimes wrapped in a one-element array by the streaming
 * endpoint) as the relay's upstream error. Never echoes HTML pages.
 */
export function parseGeminiError(status: number, body: string): ParsedUpstreamError {
  try {
    let parsed: unknown = JSON.parse(body);
    if (Array.isArray(parsed)) parsed = parsed[0];
    const e = (parsed as { error?: { message?: unknown; status?: unknown; code?: unknown } } | null)?.error;
    if (e && typeof e === 'object') {
      const name = typeof e.status === 'string' ? e.status : '';
      return {
        message: typeof e.message === 'string' && e.message ? e.message : `bad response status code ${status}`,
        type: name || 'upstream_error',
        code: name || (typeof e.code === 'number' ? String(e.code) : ''),
      };
    }
  } catch {
    // not JSON
  }
  return { message: `bad response status code ${status}`, type: 'upstream_error', code: '' };
}
