import { AppError } from '../lib/errors.js';
import { CONSOLE_ERRORS } from './errors.js';
/*
 * How the console reads request bodies. Many clients send `Content-Type: application/json` on every call, DELETE
 * included, so an empty body (of any type, or chunked with nothing in it) is no body: the route then checks its
 * fields and answers in its own words. A body sent without a type is read as JSON, the only thing this API speaks;
 * a non-empty body of any other declared type is refused with 415. JSON nested beyond any real payload is refused.
 */
const isBlank = (body) => body.trim() === '';
/** No console payload nests more than a few levels; thousands would overflow the stack of whatever serialises them. */
export const MAX_BODY_DEPTH = 64;
/** True when arrays and objects in `value` nest deeper than `max` (walked without recursion). */
export function nestsDeeperThan(value, max) {
    const stack = [[value, 0]];
    while (stack.length > 0) {
        const [node, depth] = stack.pop();
        if (typeof node !== 'object' || node === null)
            continue;
        if (depth >= max)
            return true;
        for (const child of Object.values(node)) {
            if (typeof child === 'object' && child !== null)
                stack.push([child, depth + 1]);
        }
    }
    return false;
}
export function installBodyParsers(app) {
    // Fastify's own JSON parser (prototype poisoning refused), for the bodies that are not empty.
    const json = app.getDefaultJsonParser('error', 'error');
    const parseJson = (request, body, done) => {
        if (isBlank(body))
            return done(null, undefined);
        json(request, body, (err, value) => {
            if (err)
                return done(err);
            if (nestsDeeperThan(value, MAX_BODY_DEPTH))
                return done(new AppError(400, CONSOLE_ERRORS.tooDeep));
            done(null, value);
        });
    };
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJson);
    app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) => {
        done(null, isBlank(body) ? undefined : body);
    });
    app.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
        if (isBlank(body))
            return done(null, undefined);
        if (request.headers['content-type'] === undefined)
            return parseJson(request, body, done);
        done(new AppError(415, CONSOLE_ERRORS.unsupportedMediaType));
    });
}
//# sourceMappingURL=body-parsers.js.map