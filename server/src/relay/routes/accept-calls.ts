import type { FastifyInstance, FastifyRequest } from 'fastify';
import { contentEncoding, decodeBody } from '../body.js';
import { allowBrowsers, registerPreflight } from '../cors.js';

/**
 * What every relay route plugin sets up first. No child logger per call (building one costs more than routing the
 * call; errors name the request id themselves). Bodies arrive as bytes (inflated when sent compressed): the relay
 * parses them itself, to answer in the caller's format, and forwards them untouched. Browsers on any origin may
 * call, with preflights answered on the plugin's paths.
 */
export function acceptRelayCalls(app: FastifyInstance, paths: readonly string[]): void {
  app.setChildLoggerFactory((logger) => logger);
  const limit = app.ctx.config.bodyLimit;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, async (request: FastifyRequest, body: Buffer) =>
    decodeBody(body, contentEncoding(request.headers['content-encoding']), limit),
  );
  app.addHook('onRequest', (request, reply, done) => {
    if (request.headers.origin !== undefined) allowBrowsers(reply.raw);
    done();
  });
  registerPreflight(app, paths);
}
