import { parseOpenAIError, type ParsedUpstreamError } from '../../formats/openai/errors.js';

/** DashScope's native error codes, as the relay's error types (absent: told by the status). */
const TYPE_BY_CODE: Record<string, string> = {
  InvalidApiKey: 'authentication_error',
  // An overdue account: every call of the channel fails until it is paid.
  Arrearage: 'insufficient_quota',
  InvalidParameter: 'invalid_request_error',
  DataInspectionFailed: 'invalid_request_error',
  // Not permission_error: a model the account has not enabled must not disable the whole channel.
  AccessDenied: 'forbidden_error',
  'AccessDenied.Unpurchased': 'forbidden_error',
  'Throttling.RateQuota': 'rate_limit_error',
  'Throttling.AllocationQuota': 'rate_limit_error',
  'Throttling.User': 'rate_limit_error',
  InternalError: 'api_error',
  'InternalError.Algo': 'api_error',
};

function typeOfStatus(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

/**
 * A DashScope error: the OpenAI body of the compatible mode ({"error": {...}}), or the native API's
 * {"code": "InvalidApiKey", "message": "...", "request_id": "..."}. A key DashScope calls invalid is the channel's
 * credential failure whatever the status. Never echoes a body that is not JSON.
 */
export function parseDashScopeError(status: number, body: string): ParsedUpstreamError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { message: `bad response status code ${status}`, type: typeOfStatus(status), code: '' };
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { message: `bad response status code ${status}`, type: typeOfStatus(status), code: '' };
  const obj = parsed as { error?: unknown; code?: unknown; message?: unknown };
  if (obj.error && typeof obj.error === 'object') {
    const out = parseOpenAIError(status, body);
    return out.code === 'invalid_api_key' ? { ...out, credentials: true } : out;
  }
  const code = typeof obj.code === 'string' ? obj.code : '';
  const message = typeof obj.message === 'string' && obj.message ? obj.message : `bad response status code ${status}`;
  const out: ParsedUpstreamError = { message, type: TYPE_BY_CODE[code] ?? typeOfStatus(status), code };
  if (code === 'InvalidApiKey') out.credentials = true;
  return out;
}
