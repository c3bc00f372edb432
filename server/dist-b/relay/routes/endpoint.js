import { RelayError } from '../errors.js';
import { fastifyExchange, sendJson } from '../exchange.js';
import { clientFormat } from '../formats/index.js';
import { toRelayError } from './send-error.js';
/** An error in the caller's format, or the end of an answer already under way. */
export function writeError(res, err, format) {
    if (res.headersSent) {
        res.end();
        return;
    }
    if (err.retryAfter)
        res.setHeader('retry-after', String(err.retryAfter));
    sendJson(res, err.status, clientFormat(format).errorBody(err));
}
/** A failure of the gateway's own (a crash, or a refusal that hides one), as opposed to a refusal of the request. */
export function isOwnFailure(error) {
    if (!(error instanceof RelayError))
        return toRelayError(error).status >= 500;
    return error.cause !== undefined && !(error.cause instanceof RelayError);
}
/** Runs a relay call; whatever it throws is answered in the caller's format (and logged when it is ours). */
export async function guarded(ctx, ex, format, run) {
    try {
        await run();
    }
    catch (error) {
        const err = toRelayError(error);
        if (isOwnFailure(error))
            ctx.log.error({ err: error, cause: error.cause, reqId: ex.id }, 'relay error');
        writeError(ex.res, err, format);
    }
}
/** The endpoints as Fastify routes (the lane takes the same calls before they reach Fastify on a listening server). */
export function registerEndpoints(app, endpoints) {
    const ctx = app.ctx;
    for (const endpoint of endpoints) {
        const param = /:(\w+)$/.exec(endpoint.path)?.[1];
        app.post(endpoint.path, { config: { format: endpoint.format } }, async (request, reply) => {
            const ex = fastifyExchange(request, reply);
            const value = param ? request.params[param] : '';
            await guarded(ctx, ex, endpoint.format, () => endpoint.handle(ctx, ex, value));
        });
    }
}
//# sourceMappingURL=endpoint.js.map