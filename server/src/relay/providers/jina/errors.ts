import type { ParsedUpstreamError } from '../../formats/openai/errors.js';

/*
 * Jina's API is FastAPI: errors come as {"detail": "<message>"} or, for a body that fails validation (422), as
 * {"detail": [{"loc": [...], "msg": "...", "type": "..."}]}.
 */

const TYPE_BY_STATUS: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'insufficient_quota',
  403: 'forbidden_error',
  404: 'not_found_error',
  422: 'invalid_request_error',
  429: 'rate_limit_error',
};

function detailOf(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { detail?: unknown } | null;
    const detail = parsed?.detail;
    if (typeof detail === 'string' && detail) return detail;
    if (Array.isArray(detail)) {
      const msgs = detail.map((d: { loc?: unknown; msg?: unknown }) => {
        const loc = Array.isArray(d?.loc) ? d.loc.filter((p) => p !== 'body').join('.') : '';
        return typeof d?.msg === 'string' ? (loc ? `${loc}: ${d.msg}` : d.msg) : '';
      });
      const text = msgs.filter(Boolean).join('; ');
      return text || null;
    }
  } catch {
    // not JSON
  }
  return null;
}

/** A Jina error body as the relay's upstream error; 401 and 402 (no balance left) fail every call of the key. */
export function parseJinaError(status: number, body: string): ParsedUpstreamError {
  const type = TYPE_BY_STATUS[status] ?? (status >= 500 ? 'api_error' : 'upstream_error');
  const out: ParsedUpstreamError = { message: detailOf(body) ?? `bad response status code ${status}`, type, code: '' };
  if (status === 401 || status === 402) out.credentials = true;
  return out;
}
