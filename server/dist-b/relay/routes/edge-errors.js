import { RelayError } from '../errors.js';
import { clientFormat } from '../formats/index.js';
import { isRelayUrl, relayFormatOf } from './caller-format.js';
import { sendError } from './send-error.js';
/*
 * Requests to relay paths that no relay endpoint takes — unknown paths, other methods, URLs that are not valid
 * percent-encoding, HTTP the parser refuses — are answered in the format the caller speaks (told by the path, then
 * by the headers its SDK sends), never with the framework's own English texts or the console's envelope.
 */
const pathOf = (url) => url.split('?')[0];
/** The established gateway's answer for a relay path it does not serve. */
export function relayNotFound(request, reply) {
    const error = new RelayError(404, `Invalid URL (${request.method} ${pathOf(request.url)})`, 'invalid_url');
    sendError(reply, error, relayFormatOf(request.url, request.headers));
}
/** Methods an unknown relay path is answered for inside the relay's routes (OPTIONS is the CORS preflight; HEAD follows GET). */
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/**
 * Catch-all routes for the relay's paths, so a body sent to an unknown one is read by the relay (as bytes) rather
 * than parsed as the console's JSON, and any error is the relay's.
 */
export function registerUnmatched(app, paths) {
    for (const url of paths)
        app.route({ method: [...METHODS], url, handler: async (request, reply) => relayNotFound(request, reply) });
}
/**
 * Fastify's own refusals before routing (a URL that is not valid percent-encoding, a path parameter past the router's
 * limit), for relay paths, with the status and text the caller decided on; false leaves the request to the caller.
 */
export function relayFrameworkError(status, message, request, reply) {
    if (!isRelayUrl(request.url))
        return false;
    const code = status === 414 ? 'url_too_long' : 'invalid_url';
    sendError(reply, new RelayError(status, message, code), relayFormatOf(request.url, request.headers));
    return true;
}
const STATUS_TEXT = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };
/** The request line and headers of the raw bytes a client sent before the parser gave up. */
function requestOf(raw) {
    if (!raw || raw.length === 0)
        return null;
    const head = raw.toString('latin1', 0, Math.min(raw.length, 16 * 1024));
    const lines = head.split('\r\n');
    const url = /^[A-Z]+ (\S+) HTTP\/1\.[01]$/.exec(lines[0])?.[1];
    if (!url)
        return null;
    const headers = {};
    for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        if (colon > 0)
            headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    return { url, headers };
}
/**
 * An HTTP request the server's parser refused (a malformed Content-Length, a bad header, a header section too
 * large) on a relay path: answered in the caller's format and the connection closed, as Node does. Registered on the
 * HTTP server before Fastify's own listener, which leaves a socket already answered alone.
 */
export function answerRelayClientError(err, socket) {
    if (err.code === 'ECONNRESET' || socket.destroyed || !socket.writable)
        return;
    const request = requestOf(err.rawPacket);
    if (!request || !isRelayUrl(request.url))
        return;
    const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const message = status === 408 ? '请求超时' : status === 431 ? '请求头过大' : '请求格式错误';
    const body = clientFormat(relayFormatOf(request.url, request.headers)).errorBody(new RelayError(status, message, 'bad_http_request'));
    socket.write(`HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    socket.destroy();
}
//# sourceMappingURL=edge-errors.js.map