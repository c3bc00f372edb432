import type { FastifyError, FastifyPluginAsync } from 'fastify';
import type { AppError } from '../../lib/errors.js';
import { RelayError } from '../errors.js';
import { claudeRoutes } from './claude.js';
import { geminiRoutes } from './gemini.js';
import { modelRoutes } from './models.js';
import { openAIRoutes } from './openai.js';
import { formatOf, sendError, toRelayError } from './send-error.js';

export { sendError } from './send-error.js';

/** Paths served by the relay (OpenAI, Claude and Gemini formats, the playground). */
export function isRelayUrl(url: string): boolean {
  return url.startsWith('/v1') || url.startsWith('/pg/');
}

/** Every client-facing relay endpoint, each answering errors in its own format. */
export const relayRoutes: FastifyPluginAsync = async (app) => {
  // No child logger per call (building one costs more than routing the call); errors name the request id themselves.
  app.setChildLoggerFactory((logger) => logger);

  // Bodies arrive as bytes: the relay parses them itself (to answer in the caller's format) and forwards them untouched.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const err = toRelayError(error);
    if (err.status >= 500 && !(error instanceof RelayError)) request.log.error({ err: error, reqId: request.id }, 'relay error');
    sendError(reply, err, formatOf(request));
  });

  await app.register(openAIRoutes);
  await app.register(claudeRoutes);
  await app.register(geminiRoutes);
  await app.register(modelRoutes);
};
