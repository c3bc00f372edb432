import type { FastifyError, FastifyInstance } from 'fastify';
import type { AppError } from '../../lib/errors.js';
import type { RelayError } from '../errors.js';
import { acceptRelayCalls } from '../routes/accept-calls.js';
import { unmatchedPathError } from '../routes/edge-errors.js';
import { isOwnFailure } from '../routes/endpoint.js';
import { toRelayError } from '../routes/send-error.js';

/*
 * What every task platform's route plugin does the same way: bodies arrive as bytes (inflated when compressed) for
 * the platform to parse itself, browsers on any origin may call (as the other relay paths), and every error —
 * the gateway's own or a refused request the router never matched — is answered in the platform's own shape.
 */

export interface TaskRouteSurface {
  /** The platform's paths as Fastify patterns (`/suno/*`): preflights and unmatched calls are answered there. */
  paths: readonly string[];
  /** When the patterns match more than the platform's paths: whether a URL is the platform's (others go on as not found). */
  owns?: (url: string) => boolean;
  /** An error's body in the platform's shape. */
  errorBody(err: RelayError): unknown;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Sends an error in the platform's shape (with Retry-After when the gateway can tell). */
export function sendTaskError(reply: { header(k: string, v: string): unknown; status(n: number): { send(body: unknown): unknown } }, err: RelayError, surface: TaskRouteSurface): void {
  if (err.retryAfter) reply.header('retry-after', String(err.retryAfter));
  void reply.status(err.status).send(surface.errorBody(err));
}

/** Call first in a platform's route plugin; `registerUnmatchedTaskPaths` last. */
export function prepareTaskRoutes(app: FastifyInstance, surface: TaskRouteSurface): void {
  const { owns } = surface;
  // A URL the patterns take but the platform does not own (the console's /api/mj/... under /:mode/mj/*) goes to the
  // server's not-found answer before anything of the platform's (body parsing, errors in its shape) touches it.
  if (owns) {
    app.addHook('onRequest', (request, reply, done) => {
      if (owns(request.url)) done();
      else reply.callNotFound();
    });
  }
  acceptRelayCalls(app, surface.paths);
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (isOwnFailure(error)) request.log.error({ err: error, cause: error.cause, reqId: request.id }, 'task relay error');
    sendTaskError(reply, toRelayError(error), surface);
  });
}

/** Catch-alls for the platform's paths, so an unknown path or method is refused in the platform's shape. */
export function registerUnmatchedTaskPaths(app: FastifyInstance, surface: TaskRouteSurface): void {
  for (const url of surface.paths) {
    app.route({
      method: [...METHODS],
      url,
      handler: async (request) => {
        throw unmatchedPathError(request.method, request.url);
      },
    });
  }
}
