import { AppError } from '../lib/errors.js';

/*
 * Every error a console call can meet, as the console's envelope: HTTP status plus a Chinese message. Fastify's
 * own errors never show their English text; each code a request can provoke has its words here.
 */

export const CONSOLE_ERRORS = {
  invalidJson: '请求体不是合法的 JSON',
  emptyBody: '请求体不能为空',
  tooDeep: '请求体嵌套层级过深',
  nul: '请求含有不允许的空字符（\\u0000）',
  bodyTooLarge: '请求体过大',
  badContentLength: '请求体长度与 Content-Length 不符',
  unsupportedMediaType: '不支持的请求类型，请使用 application/json',
  missingContentType: '请求缺少 Content-Type',
  badUrl: '请求地址格式错误',
  urlTooLong: '请求地址过长',
  badRequest: '请求格式错误',
  headersTooLarge: '请求头过大',
  timeout: '请求超时',
  tooManyRequests: '请求次数过多，请稍后再试',
  unavailable: '服务暂不可用，请稍后再试',
  internal: '服务器内部错误',
} as const;
const M = CONSOLE_ERRORS;

/** Fastify's error codes that a request can provoke, with their answers. */
const FASTIFY_CODES: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: M.invalidJson },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: M.emptyBody },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: M.bodyTooLarge },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: M.badContentLength },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: M.unsupportedMediaType },
  FST_ERR_ROUTE_MISSING_CONTENT_TYPE: { status: 400, message: M.missingContentType },
  FST_ERR_BAD_URL: { status: 400, message: M.badUrl },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, message: M.urlTooLong },
  FST_ERR_VALIDATION: { status: 400, message: M.badRequest },
  FST_ERR_HANDLER_TIMEOUT: { status: 503, message: M.unavailable },
  FST_ERR_ASYNC_CONSTRAINT: { status: 500, message: M.internal },
};

/** Words for a client error that carries only a status (from a plugin, or below Fastify in Node's HTTP parser). */
const BY_STATUS: Record<number, string> = {
  408: M.timeout,
  413: M.bodyTooLarge,
  414: M.urlTooLong,
  415: M.unsupportedMediaType,
  429: M.tooManyRequests,
  431: M.headersTooLarge,
  503: M.unavailable,
};

export interface ConsoleFailure {
  status: number;
  message: string;
  /** True when this is the server's fault: worth an error log line. */
  internal: boolean;
}

interface ErrorLike {
  code?: unknown;
  statusCode?: unknown;
}

/** The answer to any error thrown while serving a console call. */
export function consoleFailure(error: unknown): ConsoleFailure {
  if (error instanceof AppError) return { status: error.status, message: error.message, internal: false };
  const { code, statusCode } = (typeof error === 'object' && error !== null ? error : {}) as ErrorLike;
  const known = typeof code === 'string' ? FASTIFY_CODES[code] : undefined;
  if (known) return { ...known, internal: known.status >= 500 };
  // secure-json-parse throws SyntaxError for prototype poisoning and for bodies that do not parse.
  if (error instanceof SyntaxError) return { status: 400, message: M.invalidJson, internal: false };
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    return { status: statusCode, message: BY_STATUS[statusCode] ?? M.badRequest, internal: false };
  }
  return { status: 500, message: M.internal, internal: true };
}

/** A path no console route serves. */
export const notFoundMessage = (method: string, url: string): string => `请求的接口不存在：${method} ${url}`;

export const consoleErrorBody = (message: string) => ({ success: false as const, message });
