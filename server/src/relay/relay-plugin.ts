import type { FastifyInstance, FastifyRequest } from 'fastify';
import { contentEncoding, decodeBody } from './body.js';
import { allowBrowsers } from './cors.js';

/**
 * What every plugin of relay routes sets up in its own context: no child logger per call (building one costs more
 * than routing the call; errors name the request id themselves); bodies arrive as bytes (inflated when sent
 * compressed), which the routes parse themselves, to answer in the caller's format and forward them untouched; and
 * answers browsers on any origin may read.
 */
export function setUpRelayPlugin(app: FastifyInstance): void {
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
}
