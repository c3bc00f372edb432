import type { ParsedUpstreamError } from '../../formats/openai/errors.js';

/*
 * Qianfan v1 reports failures as {"error_code": 110, "error_msg": "..."} in an answer whose HTTP status is 200
 * (also in place of a stream, and as an event inside one). The code tells what it is.
 */

/**
 * The access token was refused: invalid (110) or expired (111). Not the key's fault: the token is dropped and the
 * next call exchanges the key again (a key that no longer works is refused there, at the exchange), so these are a
 * passing failure (503), never a reason to disable the channel.
 */
export const TOKEN_CODES: ReadonlySet<number> = new Set([110, 111]);
/** The application's credentials themselves were refused (service token, IAM, application gone). */
const CREDENTIAL_CODES = new Set([13, 14, 15]);
const RATE_CODES = new Set([4, 17, 18, 336501, 336502]);
/** The account's total allowance is used up (or it is in arrears). */
const QUOTA_CODES = new Set([19]);

export function baiduCodeStatus(code: number): number {
  if (TOKEN_CODES.has(code)) return 503;
  if (CREDENTIAL_CODES.has(code)) return 401;
  if (RATE_CODES.has(code) || QUOTA_CODES.has(code)) return 429;
  if (code === 6) return 403;
  if (code === 3 || code === 336005) return 404;
  if (code === 2 || code === 336100) return 503;
  if (code === 1 || code === 336000) return 500;
  if (code === 100 || (code >= 336001 && code < 336999)) return 400;
  return 500;
}

function typeOf(code: number | null, status: number): string {
  if (code !== null) {
    if (CREDENTIAL_CODES.has(code)) return 'authentication_error';
    if (QUOTA_CODES.has(code)) return 'insufficient_quota';
    if (RATE_CODES.has(code)) return 'rate_limit_error';
    // Not permission_error: an application without access to one model must not disable the whole channel.
    if (code === 6) return 'forbidden_error';
  }
  if (status === 401) return 'authentication_error';
  if (status === 429) return 'rate_limit_error';
  return status >= 500 ? 'api_error' : 'invalid_request_error';
}

interface ErrorBody {
  error_code?: unknown;
  error_msg?: unknown;
}

/** The error code of an answer that carries one (non-zero), else null. */
export function errorCodeOf(parsed: unknown): number | null {
  const code = (parsed as ErrorBody | null)?.error_code;
  return typeof code === 'number' && Number.isInteger(code) && code !== 0 ? code : null;
}

/** A Qianfan error body (whatever the HTTP status) as the relay's upstream error. Never echoes HTML. */
export function parseBaiduError(status: number, body: string): ParsedUpstreamError {
  let parsed: ErrorBody | null = null;
  try {
    parsed = JSON.parse(body) as ErrorBody;
  } catch {
    // not JSON
  }
  const code = errorCodeOf(parsed);
  const message = typeof parsed?.error_msg === 'string' && parsed.error_msg ? parsed.error_msg : `bad response status code ${status}`;
  const out: ParsedUpstreamError = { message, type: typeOf(code, status), code: code === null ? '' : String(code) };
  if (code !== null && CREDENTIAL_CODES.has(code)) out.credentials = true;
  return out;
}

/** An answer that is an error: its code, else null (a real answer). */
export function baiduAnswerErrorCode(body: string): number | null {
  if (!body.includes('"error_code"')) return null;
  try {
    return errorCodeOf(JSON.parse(body));
  } catch {
    return null;
  }
}
