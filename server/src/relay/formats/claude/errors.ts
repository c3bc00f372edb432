import type { ClaudeErrorBody, ClaudeErrorType } from './types.js';

/** Anthropic's documented error type per HTTP status; other 4xx are invalid requests, other 5xx api errors. */
const BY_STATUS: Record<number, ClaudeErrorType> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

export function claudeErrorType(status: number): ClaudeErrorType {
  return BY_STATUS[status] ?? (status >= 400 && status < 500 ? 'invalid_request_error' : 'api_error');
}

export function claudeErrorObject(status: number, message: string): ClaudeErrorBody {
  return { type: 'error', error: { type: claudeErrorType(status), message } };
}

/** Claude's error body: {type:"error", error:{type, message}}, as the JSON text to send. */
export function claudeErrorBody(status: number, message: string): string {
  return JSON.stringify(claudeErrorObject(status, message));
}
