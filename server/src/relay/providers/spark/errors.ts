import type { ParsedUpstreamError } from '../../formats/openai/errors.js';
import type { SparkFrame } from './types.js';

/*
 * Spark reports errors two ways: the handshake is refused with an HTTP status and {"message": ...} (a bad signature,
 * a stale date), or an answer frame carries header.code != 0 with header.message. The code says what kind of failure
 * it is (iFlytek's error code table for the Spark API).
 */

interface Kind {
  status: number;
  type: string;
  /** The channel's credentials (or account) are at fault: auto-disable may act. */
  credentials?: boolean;
}

/** The app and its key do not belong together, or the app has no right to the service (or its tokens ran out). */
const CREDENTIAL_CODES: Readonly<Record<number, Kind>> = {
  10313: { status: 401, type: 'authentication_error', credentials: true },
  10015: { status: 403, type: 'permission_error', credentials: true },
  10016: { status: 403, type: 'insufficient_quota', credentials: true },
  11200: { status: 403, type: 'insufficient_quota', credentials: true },
};

const RATE_LIMITED = new Set([10006, 10007, 11201, 11202, 11203]);
const REQUEST_CODES = new Set([10003, 10004, 10005, 10163, 10907]);
const AUDIT_CODES = new Set([10013, 10014, 10019, 10021]);
const BUSY_CODES = new Set([10008, 10110]);

export function kindOfCode(code: number): Kind {
  const credential = CREDENTIAL_CODES[code];
  if (credential) return credential;
  if (RATE_LIMITED.has(code)) return { status: 429, type: 'rate_limit_error' };
  if (REQUEST_CODES.has(code)) return { status: 400, type: 'invalid_request_error' };
  if (AUDIT_CODES.has(code)) return { status: 400, type: 'content_filter' };
  if (BUSY_CODES.has(code)) return { status: 503, type: 'api_error' };
  return { status: 500, type: 'api_error' };
}

/** The error code of a frame; null for a frame that is an answer. */
export function frameErrorCode(frame: SparkFrame): number | null {
  const code = frame.header?.code;
  return typeof code === 'number' && code !== 0 ? code : null;
}

/** The HTTP status an error frame stands for. */
export function frameErrorStatus(code: number): number {
  return kindOfCode(code).status;
}

/** A handshake refusal: the signature or key was not accepted (401), or the date was off or the IP refused (403). */
function handshakeError(status: number, message: string): ParsedUpstreamError {
  const out: ParsedUpstreamError = { message: message || `bad response status code ${status}`, type: status === 401 ? 'authentication_error' : 'api_error', code: '' };
  // A clock off by more than 300 s is the gateway's problem, not the key's.
  if (status === 401) out.credentials = true;
  return out;
}

/** A Spark error (an error frame, or the body of a refused handshake) as the relay's upstream error. */
export function parseSparkError(status: number, body: string): ParsedUpstreamError {
  let parsed: (SparkFrame & { message?: unknown }) | null = null;
  try {
    parsed = JSON.parse(body) as SparkFrame & { message?: unknown };
  } catch {
    // not JSON: said in the status only
  }
  if (!parsed || typeof parsed !== 'object') return { message: `bad response status code ${status}`, type: status >= 500 ? 'api_error' : 'upstream_error', code: '' };
  const code = frameErrorCode(parsed);
  if (code === null) return handshakeError(status, typeof parsed.message === 'string' ? parsed.message : '');
  const kind = kindOfCode(code);
  const message = typeof parsed.header?.message === 'string' && parsed.header.message ? parsed.header.message : `星火返回错误 ${code}`;
  const out: ParsedUpstreamError = { message, type: kind.type, code: String(code) };
  if (kind.credentials) out.credentials = true;
  return out;
}
