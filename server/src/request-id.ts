import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/*
 * Every answer carries X-Request-Id: the client's own when it sent a usable one (a proxy in front often does), else
 * a new UUID. The same id names the request in the JSON logs (Fastify's reqId, the relay's error lines), so a
 * client's report can be found in them.
 */

const REQUEST_ID = Symbol('requestId');
/** What a client-sent id may be: short, and nothing a log line or a header could be bent by. */
const USABLE = /^[\w.:@/+=-]{1,128}$/;

type Tagged = IncomingMessage & { [REQUEST_ID]?: string };

/** Gives the request its id (once) and puts it on the answer's headers. */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const tagged = req as Tagged;
  let id = tagged[REQUEST_ID];
  if (id === undefined) {
    const sent = req.headers['x-request-id'];
    id = typeof sent === 'string' && USABLE.test(sent) ? sent : randomUUID();
    tagged[REQUEST_ID] = id;
  }
  if (!res.headersSent) res.setHeader('x-request-id', id);
  return id;
}

/** The request's id (given one now if the server's entry did not, e.g. a request injected in a test). */
export function requestIdOf(req: IncomingMessage): string {
  const tagged = req as Tagged;
  if (tagged[REQUEST_ID] !== undefined) return tagged[REQUEST_ID];
  const sent = req.headers['x-request-id'];
  const id = typeof sent === 'string' && USABLE.test(sent) ? sent : randomUUID();
  tagged[REQUEST_ID] = id;
  return id;
}
