import type { FastifyError, FastifyPluginAsync } from 'fastify';
import { acceptRelayCalls } from './accept-calls.js';
import type { AppError } from '../../lib/errors.js';
import { billingRoutes } from './billing.js';
import { claudeEndpoints, claudeRoutes } from './claude.js';
import { isOwnFailure, registerEndpoints, type RelayEndpoint } from './endpoint.js';
import { geminiEndpoints } from './gemini.js';
import { modelRoutes } from './models.js';
import { openAIEndpoints, openAIExtraRoutes } from './openai.js';
import { playgroundRoutes } from './playground.js';
import { responsesEndpoints, responsesRoutes } from './responses.js';
import { responsesCountRoutes } from './responses-count.js';
import { formatOf, sendError, toRelayError } from './send-error.js';
import { registerUnmatched } from './edge-errors.js';

/** Every POST that relays a call, in every client format: Fastify routes, and the relay lane's table. */
export const RELAY_ENDPOINTS: readonly RelayEndpoint[] = [...openAIEndpoints, ...responsesEndpoints, ...claudeEndpoints, ...geminiEndpoints];

export { formatOf, formatOfPath, sendError } from './send-error.js';

export { isRelayUrl } from './caller-format.js';
export { answerRelayClientError, MAX_PARAM_LENGTH, relayFrameworkError, relayNotFound } from './edge-errors.js';

/** Every client-facing relay endpoint, each answering errors in its own format. */
export const relayRoutes: FastifyPluginAsync = async (app) => {
  const paths = ['/v1*', '/pg/*', '/dashboard/*'];
  acceptRelayCalls(app, paths);

  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const err = toRelayError(error);
    if (isOwnFailure(error)) request.log.error({ err: error, cause: error.cause, reqId: request.id }, 'relay error');
    sendError(reply, err, formatOf(request));
  });

  registerEndpoints(app, RELAY_ENDPOINTS);
  await app.register(openAIExtraRoutes);
  await app.register(playgroundRoutes);
  await app.register(responsesRoutes);
  await app.register(claudeRoutes);
  await app.register(responsesCountRoutes);
  await app.register(modelRoutes);
  await app.register(billingRoutes);
  registerUnmatched(app, paths);
};
