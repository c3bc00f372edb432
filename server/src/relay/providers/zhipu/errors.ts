import type { ParsedUpstreamError } from '../../formats/openai/errors.js';

/*
 * Zhipu's business error codes, shared by the v3 and v4 APIs: v4 answers them with an HTTP status in
 * {"error": {"code": "1002", "message": "..."}}, v3 in a 200 body {"code": 1002, "msg": "...", "success": false}.
 */

/** Codes that mean the key (or the token made from it) was refused. */
const AUTH_CODES = new Set([1000, 1001, 1002, 1003, 1004, 1100, 1120]);
/** Codes that mean the account cannot be used (inactive, missing, locked, in arrears). */
const ACCOUNT_CODES = new Set([1110, 1111, 1112, 1113]);
const RATE_CODES = new Set([1302, 1303, 1304, 1305]);

/** The HTTP status Zhipu's v4 API gives a business code (what a v3 error in a 200 body stands for). */
export function zhipuCodeStatus(code: number): number {
  if (AUTH_CODES.has(code)) return 401;
  if (code === 1113 || RATE_CODES.has(code)) return 429;
  if (ACCOUNT_CODES.has(code)) return 403;
  if (code === 1220) return 403;
  if (code === 1221 || code === 1222) return 404;
  if (code >= 1230 && code < 1240) return 500;
  if (code >= 1200 && code < 1400) return 400;
  return code >= 500 && code < 600 ? code : 500;
}

function typeOf(code: number | null, status: number): string {
  if (code !== null) {
    if (AUTH_CODES.has(code)) return 'authentication_error';
    if (ACCOUNT_CODES.has(code)) return 'insufficient_quota';
    if (RATE_CODES.has(code)) return 'rate_limit_error';
    // Not permission_error: no access to one model must not disable the whole channel.
    if (code === 1220) return 'forbidden_error';
    if (code === 1301) return 'content_filter';
  }
  if (status === 401) return 'authentication_error';
  if (status === 429) return 'rate_limit_error';
  return status >= 500 ? 'api_error' : 'invalid_request_error';
}

const codeOf = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  return Number.isInteger(n) ? n : null;
};

/** Either shape of a Zhipu error as the relay's upstream error; falls back to the status. Never echoes HTML. */
export function parseZhipuError(status: number, body: string): ParsedUpstreamError {
  let code: number | null = null;
  let message = '';
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown; message?: unknown }; code?: unknown; msg?: unknown } | null;
    const e = parsed?.error;
    if (e && typeof e === 'object') {
      code = codeOf(e.code);
      if (typeof e.message === 'string') message = e.message;
    } else if (parsed && typeof parsed === 'object') {
      code = codeOf(parsed.code);
      if (typeof parsed.msg === 'string') message = parsed.msg;
    }
  } catch {
    // not JSON
  }
  const out: ParsedUpstreamError = { message: message || `bad response status code ${status}`, type: typeOf(code, status), code: code === null ? '' : String(code) };
  if (code !== null && AUTH_CODES.has(code)) out.credentials = true;
  return out;
}

/** A v3 answer that reports a failure ({"success": false, "code": ...}): the status its code stands for. */
export function zhipuV3AnswerError(body: string): number | null {
  let parsed: { success?: unknown; code?: unknown } | null;
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object' || parsed.success !== false) return null;
  return zhipuCodeStatus(codeOf(parsed.code) ?? 500);
}
