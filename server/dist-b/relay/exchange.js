/** A Fastify route's request as an exchange; the reply is handed over to the relay (hijacked). */
export function fastifyExchange(request, reply) {
    reply.hijack();
    // Read now: once a client has left, its socket no longer knows its address (and the log is written after).
    const ip = request.ip ?? '';
    return {
        headers: request.headers,
        query: (request.query ?? {}),
        body: request.body,
        ip,
        id: request.id,
        res: reply.raw,
    };
}
/** A small JSON answer (count_tokens, errors), written by the relay itself; `body` may be JSON text already. */
export function sendJson(res, status, body) {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)) });
    res.end(text);
}
//# sourceMappingURL=exchange.js.map