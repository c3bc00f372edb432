import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.js';
import { CONSOLE_ERRORS } from './errors.js';

/*
 * How the console reads request bodies. Many clients send `Content-Type: application/json` on every call, DELETE
 * included, so an empty body (of any type, or chunked with nothing in it) is no body: the route then checks its
 * fields and answers in its own words. A body sent without a type is read as JSON, the only thing this API speaks;
 * a non-empty body of any other declared type is refused with 415. JSON nested beyond any real payload is refused,
 * and so is a NUL character in any string: no field means one, and PostgreSQL cannot store it in a text column.
 */

const isBlank = (body: string) => body.trim() === '';

/** No console payload nests more than a few levels; thousands would overflow the stack of whatever serialises them. */
export const MAX_BODY_DEPTH = 64;

const NUL = '\u0000';

/** What makes a parsed body unacceptable, walked without recursion: nesting deeper than `max`, or a NUL in a key or a string. */
export function bodyProblem(value: unknown, max: number): 'tooDeep' | 'nul' | null {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node === 'string') {
      if (node.includes(NUL)) return 'nul';
      continue;
    }
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= max) return 'tooDeep';
    for (const [key, child] of Object.entries(node)) {
      if (key.includes(NUL)) return 'nul';
      stack.push([child, depth + 1]);
    }
  }
  return null;
}

/** True when arrays and objects in `value` nest deeper than `max`. */
export const nestsDeeperThan = (value: unknown, max: number): boolean => bodyProblem(value, max) === 'tooDeep';

/** True when the URL carries a NUL, raw or percent-encoded (in the path or the query). */
export const urlHoldsNul = (url: string): boolean => url.includes(NUL) || /%00/i.test(url);

export function installBodyParsers(app: FastifyInstance): void {
  // Fastify's own JSON parser (prototype poisoning refused), for the bodies that are not empty.
  const json = app.getDefaultJsonParser('error', 'error');
  const parseJson = (request: FastifyRequest, body: string, done: (err: Error | null, value?: unknown) => void) => {
    if (isBlank(body)) return done(null, undefined);
    json(request, body, (err, value) => {
      if (err) return done(err);
      const problem = bodyProblem(value, MAX_BODY_DEPTH);
      if (problem) return done(new AppError(400, CONSOLE_ERRORS[problem]));
      done(null, value);
    });
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
