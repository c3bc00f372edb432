import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CallTrace } from '../tracing.js';

/**
 * One relay call as the relay sees it: the request's headers, query, body and client address, and the response it
 * writes itself (nothing else writes to it). Built from a Fastify route (the console's server, `app.inject` in
 * tests) or from the relay's own lane (relay/lane.ts), so both run the very same endpoint code.
 */
export interface RelayExchange {
  readonly headers: IncomingHttpHeaders;
  readonly query: Readonly<Record<string, unknown>>;
  readonly body: Buffer | undefined;
  /** The client's address (proxies trusted as configured). */
  readonly ip: string;
  /** Names the call in the server's log. */
  readonly id: string;
  readonly res: ServerResponse;
  /** The call's trace span, when tracing is on (tracing.ts). */
  trace?: CallTrace;
}

/** A Fastify route's request as an exchange; the reply is handed over to the relay (hijacked). */
export function fastifyExchange(request: FastifyRequest, reply: FastifyReply): RelayExchange {
  reply.hijack();
  // Read now: once a client has left, its socket no longer knows its address (and the log is written after).
  const ip = request.ip ?? '';
  return {
    headers: request.headers,
    query: (request.query ?? {}) as Record<string, unknown>,
    body: request.body as Buffer | undefined,
    ip,
    id: request.id,
    res: reply.raw,
  };
}

/** A small JSON answer (count_tokens, errors), written by the relay itself; `body` may be JSON text already. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}
