import { consoleErrorBody, consoleFailure } from './console/errors.js';
import { relayFrameworkError } from './relay/routes/index.js';
/*
 * Refusals made before any route runs: a URL Fastify cannot decode or whose parameter is too long (Fastify's
 * `frameworkErrors`), and requests Node's HTTP parser rejects (malformed or oversized headers, a header timeout:
 * Fastify's `clientErrorHandler`). Relay paths are answered in the caller's format by the relay's own edge
 * (relay/routes/edge-errors.ts, which also listens to the server's clientError first); everything else gets the
 * console's Chinese envelope.
 */
/** Fastify's `frameworkErrors` option: FST_ERR_BAD_URL, FST_ERR_MAX_PARAM_LENGTH, FST_ERR_ASYNC_CONSTRAINT. */
export function answerFrameworkError(error, request, reply) {
    const failure = consoleFailure(error);
    if (failure.internal)
        request.log.error({ err: error }, 'request refused by the framework');
    if (relayFrameworkError(failure.status, failure.message, request, reply))
        return;
    void reply.status(failure.status).send(consoleErrorBody(failure.message));
}
/** Status of a request Node's parser refused, by its error code. */
function clientErrorStatus(code) {
    if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
        return 408;
    if (code === 'HPE_HEADER_OVERFLOW')
        return 431;
    return 400;
}
/** Fastify's `clientErrorHandler`: what Node's HTTP parser refused, answered on the raw socket, then closed. */
export function answerClientError(err, socket) {
    // A reset connection has nobody left to answer; a relay path's was answered already.
    if (err.code === 'ECONNRESET' || socket.destroyed)
        return;
    const status = clientErrorStatus(err.code);
    const failure = consoleFailure({ statusCode: status });
    // Relay paths were answered in their caller's format by the relay's own listener (which destroys the socket).
    const body = JSON.stringify(consoleErrorBody(failure.message));
    if (socket.writable) {
        const reason = status === 408 ? 'Request Timeout' : status === 431 ? 'Request Header Fields Too Large' : 'Bad Request';
        socket.write(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
            `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    }
    socket.destroy(err);
}
//# sourceMappingURL=framework-errors.js.map