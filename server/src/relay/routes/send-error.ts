import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.js';
import { RelayError } from '../errors.js';
import type { ErrorFields } from '../formats/client.js';
import { clientFormat } from '../formats/index.js';
import type { ClientFormat } from '../types.js';

/** Routes declare the format they speak in their config; errors are rendered in it. */
export interface RelayRouteConfig {
  format?: ClientFormat;
}

export function formatOf(request: FastifyRequest): ClientFormat {
  return (request.routeOptions.config as RelayRouteConfig | undefined)?.format ?? 'openai';
}

/** The format a relay path speaks, for errors met before any route matched it (unknown path, malformed URL). */
export function formatOfPath(path: string): ClientFormat {
  if (path.startsWith('/v1beta') || /^\/v1\/models\/[^/?]*:/.test(path)) return 'gemini';
  if (path.startsWith('/v1/messages')) return 'claude';
  if (path.startsWith('/v1/responses')) return 'responses';
  return 'openai';
}

/** An error in the caller's format (OpenAI, Claude or Gemini body), or the end of a stream already under way. */
export function sendError(reply: FastifyReply, err: ErrorFields, format: ClientFormat = 'openai'): void {
  if (reply.raw.headersSent) {
    reply.raw.end();
    return;
  }
  void reply.status(err.status).header('content-type', 'application/json; charset=utf-8').send(clientFormat(format).errorBody(err));
}

export function toRelayError(error: FastifyError | AppError): RelayError {
  if (error instanceof RelayError) return error;
  if (error instanceof AppError) return new RelayError(error.status === 200 ? 400 : error.status, error.message, error.code ?? 'invalid_request');
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new RelayError(413, '请求体过大', 'request_too_large', 'invalid_request_error');
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return new RelayError(415, '不支持的 Content-Type', 'unsupported_media_type', 'invalid_request_error');
  if (typeof error.statusCode === 'number' && error.statusCode < 500) {
    return new RelayError(error.statusCode, error.message, 'invalid_request', 'invalid_request_error');
  }
  return new RelayError(500, '服务器内部错误', 'internal_error');
}
