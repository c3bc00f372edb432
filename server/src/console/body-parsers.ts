import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.js';
import { CONSOLE_ERRORS } from './errors.js';

/*
 * How the console reads request bodies. Many clients send `Content-Type: application/json` on every call, DELETE
 * included, so an empty body (of any type, or chunked with nothing in it) is no body: the route then checks its
 * fields and answers in its own words. A body sent without a type is read as JSON, the only thing this API speaks;
 * a non-empty body of any other declared type is refused with 415.
 */

const isBlank = (body: string) => body.trim() === '';

export function installBodyParsers(app: FastifyInstance): void {
  // Fastify's own JSON parser (prototype poisoning refused), for the bodies that are not empty.
  const json = app.getDefaultJsonParser('error', 'error');
  const parseJson = (request: FastifyRequest, body: string, done: (err: Error | null, value?: unknown) => void) => {
    if (isBlank(body)) done(null, undefined);
    else json(request, body, done);
  };

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJson);
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body: string, done) => {
    done(null, isBlank(body) ? undefined : body);
  });
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, body: string, done) => {
    if (isBlank(body)) return done(null, undefined);
    if (request.headers['content-type'] === undefined) return parseJson(request, body, done);
    done(new AppError(415, CONSOLE_ERRORS.unsupportedMediaType));
  });
}
