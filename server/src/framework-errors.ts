import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { consoleErrorBody, consoleFailure, type ConsoleFailure } from './console/errors.js';
import { RelayError } from './relay/errors.js';
import { clientFormat } from './relay/formats/index.js';
import { formatOfPath, isRelayUrl, sendError } from './relay/routes/index.js';

/*
 * Refusals made before any route runs: a URL Fastify cannot decode or whose parameter is too long (Fastify's
 * `frameworkErrors`), and requests Node's HTTP parser rejects (malformed or oversized headers, a header timeout:
 * Fastify's `clientErrorHandler`). Each is answered in the shape of the surface the path belongs to: the relay's
 * caller format on relay paths, the console's Chinese envelope everywhere else.
 */

const pathOf = (url: string) => url.split('?')[0];

function relayErrorOf(failure: ConsoleFailure): RelayError {
  const code = failure.status === 414 ? 'url_too_long' : failure.status === 431 ? 'headers_too_large' : 'invalid_request';
  return new RelayError(failure.status, failure.message, code, 'invalid_request_error');
}

/** Fastify's `frameworkErrors` option: FST_ERR_BAD_URL, FST_ERR_MAX_PARAM_LENGTH, FST_ERR_ASYNC_CONSTRAINT. */
export function answerFrameworkError(error: Error, request: FastifyRequest, reply: FastifyReply): void {
  const failure = consoleFailure(error);
  if (failure.internal) request.log.error({ err: error }, 'request refused by the framework');
  const path = pathOf(request.raw.url ?? '');
  if (isRelayUrl(path)) {
    sendError(reply, relayErrorOf(failure), formatOfPath(path));
    return;
  }
  void reply.status(failure.status).send(consoleErrorBody(failure.message));
}

/** Status of a request Node's parser refused, by its error code. */
function clientErrorStatus(code: unknown): number {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  return 400;
}

/** The path in the request line the client managed to send, if any. */
function requestPath(rawPacket: unknown): string {
  if (!Buffer.isBuffer(rawPacket)) return '';
  const line = rawPacket.subarray(0, Math.min(rawPacket.length, 8192)).toString('latin1').split('\r\n', 1)[0];
  const target = line.split(' ')[1] ?? '';
  return target.startsWith('/') ? pathOf(target) : '';
}

/** Fastify's `clientErrorHandler`: what Node's HTTP parser refused, answered on the raw socket, then closed. */
export function answerClientError(err: Error & { code?: unknown; rawPacket?: unknown }, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status = clientErrorStatus(err.code);
  const failure = consoleFailure({ statusCode: status });
  const path = requestPath(err.rawPacket);
  const body = isRelayUrl(path)
    ? clientFormat(formatOfPath(path)).errorBody(relayErrorOf(failure))
    : JSON.stringify(consoleErrorBody(failure.message));
  if (socket.writable) {
    const reason = status === 408 ? 'Request Timeout' : status === 431 ? 'Request Header Fields Too Large' : 'Bad Request';
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
