import type { FastifyInstance } from 'fastify';

/*
 * Clients that build headers from a template send `Content-Type:` with nothing after it (a DELETE, a GET) — no type
 * at all, not a broken one. Fastify would refuse it as a malformed media type (415) before any route or body parser
 * runs, on every surface alike; so the empty header is taken away first, and the request is read as one sent without
 * a type.
 */
export function ignoreEmptyContentType(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const type = request.headers['content-type'];
    if (type !== undefined && type.trim() === '') delete request.headers['content-type'];
    done();
  });
}
