import type { ServerResponse } from 'node:http';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import type { AppError } from '../../lib/errors.js';
import { RelayError } from '../errors.js';
import { fastifyExchange, sendJson, type RelayExchange } from '../exchange.js';
import { clientFormat } from '../formats/index.js';
import type { ErrorFields } from '../formats/client.js';
import type { ClientFormat } from '../types.js';
import { toRelayError } from './send-error.js';

/**
 * A client-facing relay call: a POST at a path (one trailing `:param` segment allowed), the format its errors take,
 * and the code that answers it. Each is served both as a Fastify route and by the relay lane.
 */
export interface RelayEndpoint {
  path: string;
  format: ClientFormat;
  handle(ctx: AppContext, ex: RelayExchange, param: string): Promise<void>;
}

/** An error in the caller's format, or the end of an answer already under way. */
export function writeError(res: ServerResponse, err: ErrorFields, format: ClientFormat): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  if (err.retryAfter) res.setHeader('retry-after', String(err.retryAfter));
  sendJson(res, err.status, clientFormat(format).errorBody(err));
}

/** A failure of the gateway's own (a crash, or a refusal that hides one), as opposed to a refusal of the request. */
export function isOwnFailure(error: unknown): boolean {
  if (!(error instanceof RelayError)) return toRelayError(error as FastifyError | AppError).status >= 500;
  return error.cause !== undefined && !(error.cause instanceof RelayError);
}

/**
 * Runs a relay call; whatever it throws is answered in the caller's format (and logged when it is ours). `path`
 * names its trace span when tracing is on.
 */
export async function guarded(ctx: AppContext, ex: RelayExchange, format: ClientFormat, run: () => Promise<void>, path = ''): Promise<void> {
  if (ctx.tracing) ex.trace = ctx.tracing.startCall(`POST ${path}`, ex);
  try {
    await run();
  } catch (error) {
    const err = toRelayError(error as FastifyError | AppError);
    if (isOwnFailure(error)) ctx.log.error({ err: error, cause: (error as Error).cause, reqId: ex.id }, 'relay error');
    writeError(ex.res, err, format);
  }
}

/** The endpoints as Fastify routes (the lane takes the same calls before they reach Fastify on a listening server). */
export function registerEndpoints(app: FastifyInstance, endpoints: readonly RelayEndpoint[]): void {
  const ctx = app.ctx;
  for (const endpoint of endpoints) {
    const param = /:(\w+)$/.exec(endpoint.path)?.[1];
    app.post(endpoint.path, { config: { format: endpoint.format } }, async (request, reply) => {
      const ex = fastifyExchange(request, reply);
      const value = param ? (request.params as Record<string, string>)[param] : '';
      await guarded(ctx, ex, endpoint.format, () => endpoint.handle(ctx, ex, value), endpoint.path);
    });
  }
}
