import type { IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RelayError } from '../errors.js';
import { clientFormat } from '../formats/index.js';
import { isRelayUrl, relayFormatOf } from './caller-format.js';
import { sendError } from './send-error.js';

/*
 * Requests to relay paths that no relay endpoint takes — unknown paths, other methods, URLs that are not valid
 * percent-encoding, HTTP the parser refuses — are answered in the format the caller speaks (told by the path, then
 * by the headers its SDK sends), never with the framework's own English texts or the console's envelope.
 */

const pathOf = (url: string) => url.split('?')[0];

/**
 * The router's limit on one path parameter (Fastify's maxParamLength): long enough for any Gemini model path
 * (models/{model}:{action}), which the relay lane takes at any length.
 */
export const MAX_PARAM_LENGTH = 2048;

/** Whether a segment of the path is past the router's limit (so no route with a parameter there could match). */
function hasOverlongSegment(url: string): boolean {
  return pathOf(url)
    .split('/')
    .some((segment) => {
      if (segment.length <= MAX_PARAM_LENGTH) return false;
      try {
        return decodeURIComponent(segment).length > MAX_PARAM_LENGTH;
      } catch {
        return true;
      }
    });
}

/**
 * The answer for a relay or task path no route takes: 414 when one of its segments is past the router's limit
 * (a task id, a model name of thousands of characters: the route exists, the parameter is too long), else the
 * established gateway's 404 — which does not repeat such a path back either.
 */
export function unmatchedPathError(method: string, url: string): RelayError {
  if (hasOverlongSegment(url)) return new RelayError(414, '请求地址过长', 'url_too_long');
  return new RelayError(404, `Invalid URL (${method} ${pathOf(url)})`, 'invalid_url');
}

/** The established gateway's answer for a relay path it does not serve. */
export function relayNotFound(request: FastifyRequest, reply: FastifyReply): void {
  sendError(reply, unmatchedPathError(request.method, request.url), relayFormatOf(request.url, request.headers));
}

/** Methods an unknown relay path is answered for inside the relay's routes (OPTIONS is the CORS preflight; HEAD follows GET). */
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * Catch-all routes for the relay's paths, so a body sent to an unknown one is read by the relay (as bytes) rather
 * than parsed as the console's JSON, and any error is the relay's.
 */
export function registerUnmatched(app: FastifyInstance, paths: readonly string[]): void {
  for (const url of paths) app.route({ method: [...METHODS], url, handler: async (request, reply) => relayNotFound(request, reply) });
}

/**
 * Fastify's own refusals before routing (a URL that is not valid percent-encoding, a path parameter past the router's
 * limit), for relay paths, with the status and text the caller decided on; false leaves the request to the caller.
 */
export function relayFrameworkError(status: number, message: string, request: FastifyRequest, reply: FastifyReply): boolean {
  if (!isRelayUrl(request.url)) return false;
  const code = status === 414 ? 'url_too_long' : 'invalid_url';
  sendError(reply, new RelayError(status, message, code), relayFormatOf(request.url, request.headers));
  return true;
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/** The request line and headers of the raw bytes a client sent before the parser gave up. */
function requestOf(raw: Buffer | undefined): { url: string; headers: IncomingHttpHeaders } | null {
  if (!raw || raw.length === 0) return null;
  const head = raw.toString('latin1', 0, Math.min(raw.length, 16 * 1024));
  const lines = head.split('\r\n');
  const url = /^[A-Z]+ (\S+) HTTP\/1\.[01]$/.exec(lines[0])?.[1];
  if (!url) return null;
  const headers: IncomingHttpHeaders = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { url, headers };
}

/**
 * An HTTP request the server's parser refused (a malformed Content-Length, a bad header, a header section too
 * large) on a relay path: answered in the caller's format and the connection closed, as Node does. Registered on the
 * HTTP server before Fastify's own listener, which leaves a socket already answered alone.
 */
export function answerRelayClientError(err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  const request = requestOf(err.rawPacket);
  if (!request || !isRelayUrl(request.url)) return;
  const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const message = status === 408 ? '请求超时' : status === 431 ? '请求头过大' : '请求格式错误';
  const body = clientFormat(relayFormatOf(request.url, request.headers)).errorBody(new RelayError(status, message, 'bad_http_request'));
  socket.write(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  socket.destroy();
}
