import type { ParsedUpstreamError } from '../../formats/openai/errors.js';
import type { HunyuanAnswer, HunyuanEnvelope } from './types.js';

/*
 * Tencent Cloud API 3.0 answers errors with HTTP 200 and {"Response": {"Error": {"Code", "Message"}, "RequestId"}};
 * the code says what kind of failure it is. A failure inside a generated answer comes as ErrorMsg {Code, Msg}.
 */

interface Kind {
  status: number;
  type: string;
  /** The channel's credentials (or account) are at fault: auto-disable may act. */
  credentials?: boolean;
}

/** Account states that fail every call of the channel until someone pays or enables the service. */
const ACCOUNT_CODES = new Set([
  'ResourceInsufficient.ChargeResourceExhaust',
  'FailedOperation.ServiceNotActivated',
  'FailedOperation.ServiceStop',
  'FailedOperation.ServiceStopArrears',
  'ResourceUnavailable.InArrears',
  'ResourceUnavailable.NotExist',
  'ResourceUnavailable.ResourcePackageRunOut',
  'ResourceUnavailable.StopUsing',
]);

export function kindOfCode(code: string): Kind {
  // A clock off by more than five minutes is the gateway's problem, not the key's.
  if (code === 'AuthFailure.SignatureExpire') return { status: 401, type: 'authentication_error' };
  if (code === 'AuthFailure.UnauthorizedOperation') return { status: 403, type: 'forbidden_error' };
  if (code.startsWith('AuthFailure')) return { status: 401, type: 'authentication_error', credentials: true };
  if (ACCOUNT_CODES.has(code)) return { status: 403, type: 'insufficient_quota', credentials: true };
  if (code.startsWith('RequestLimitExceeded') || code.startsWith('LimitExceeded') || code === 'FailedOperation.EngineServerLimitExceeded') {
    return { status: 429, type: 'rate_limit_error' };
  }
  if (/^(InvalidParameter|MissingParameter|UnknownParameter|UnsupportedOperation|InvalidAction|InvalidRequest)/.test(code)) {
    return { status: 400, type: 'invalid_request_error' };
  }
  if (code === 'FailedOperation.EngineRequestTimeout') return { status: 504, type: 'timeout_error' };
  return { status: 500, type: 'api_error' };
}

function errorOf(body: string): { code: string; message: string } | null {
  let parsed: HunyuanEnvelope & HunyuanAnswer;
  try {
    parsed = JSON.parse(body) as HunyuanEnvelope & HunyuanAnswer;
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object') return null;
  const answer = parsed.Response ?? parsed;
  const e = answer.Error;
  if (e && typeof e === 'object') return { code: typeof e.Code === 'string' ? e.Code : '', message: typeof e.Message === 'string' ? e.Message : '' };
  const m = answer.ErrorMsg;
  if (m && typeof m === 'object' && (m.Code || m.Msg)) return { code: `ErrorMsg.${String(m.Code ?? '')}`, message: typeof m.Msg === 'string' ? m.Msg : '' };
  return null;
}

/** The status an error answered with 200 stands for; null when the body is an answer. */
export function hunyuanErrorStatus(body: string): number | null {
  const e = errorOf(body);
  return e ? kindOfCode(e.code).status : null;
}

/** A Hunyuan error body as the relay's upstream error. Never echoes a body that is not Tencent's. */
export function parseHunyuanError(status: number, body: string): ParsedUpstreamError {
  const e = errorOf(body);
  if (!e) return { message: `bad response status code ${status}`, type: status >= 500 ? 'api_error' : 'upstream_error', code: '' };
  const kind = kindOfCode(e.code);
  const out: ParsedUpstreamError = { message: e.message || `bad response status code ${status}`, type: kind.type, code: e.code };
  if (kind.credentials) out.credentials = true;
  return out;
}
