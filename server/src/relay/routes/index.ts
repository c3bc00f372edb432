import type { FastifyError, FastifyPluginAsync } from 'fastify';
import type { AppError } from '../../lib/errors.js';
import { RelayError } from '../errors.js';
import { claudeRoutes } from './claude.js';
import { geminiRoutes } from './gemini.js';
import { modelRoutes } from './models.js';
import { openAIRoutes } from './openai.js';
import { formatOf, sendError, toRelayError } from './send-error.js';

export { sendError } from './send-error.js';

/** Every client-facing relay endpoint, each answering errors in its own format. */
export const relayRoutes: FastifyPluginAsync = async (app) => {
  // Bodies arrive as bytes: the relay parses them itself (to answer in the caller's format) and forwards them untouched.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const err = toRelayError(error);
    if (err.status >= 500 && !(error instanceof RelayError)) request.log.error({ err: error }, 'relay error');
    sendError(reply, err, formatOf(request));
  });

  await app.register(openAIRoutes);
  await app.register(claudeRoutes);
  await app.register(geminiRoutes);
  await app.register(modelRoutes);
};
