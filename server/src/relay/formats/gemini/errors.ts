import type { GeminiErrorBody } from './types.js';

/** google.rpc.Code names by the HTTP status Google maps them to. */
const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

export function geminiStatusName(httpStatus: number): string {
  return STATUS_NAMES[httpStatus] ?? (httpStatus >= 500 ? 'INTERNAL' : httpStatus === 402 ? 'PERMISSION_DENIED' : 'INVALID_ARGUMENT');
}

/** Gemini's error shape: {error: {code, message, status}}. */
export function geminiErrorBody(httpStatus: number, message: string): GeminiErrorBody {
  return { error: { code: httpStatus, message, status: geminiStatusName(httpStatus) } };
}
