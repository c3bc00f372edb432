import { authenticate } from '../../auth/guard.js';
import { authenticateToken } from '../auth.js';
import { parseJsonCall, parseJsonObject, parseMultipartCall } from '../calls.js';
import { RelayError } from '../errors.js';
import { fastifyExchange } from '../exchange.js';
import { relayCall } from '../pipeline.js';
import { guarded } from './endpoint.js';
import { formatOf, sendError } from './send-error.js';
/** Client-facing endpoints in OpenAI's format. */
const JSON_ENDPOINTS = [
    ['/v1/chat/completions', 'chat'],
    ['/v1/completions', 'completions'],
    ['/v1/embeddings', 'embeddings'],
    ['/v1/moderations', 'moderations'],
    ['/v1/images/generations', 'images'],
    ['/v1/audio/speech', 'speech'],
    ['/v1/rerank', 'rerank'],
];
const MULTIPART_ENDPOINTS = [
    ['/v1/audio/transcriptions', 'transcriptions'],
    ['/v1/audio/translations', 'translations'],
];
/** Known OpenAI calls Switchyard does not relay yet: a clear 501 rather than a 404. */
const NOT_IMPLEMENTED = [
    ['POST', '/v1/images/edits'],
    ['POST', '/v1/images/variations'],
    ['GET', '/v1/files'],
    ['POST', '/v1/files'],
    ['DELETE', '/v1/files/:id'],
    ['GET', '/v1/files/:id'],
    ['GET', '/v1/files/:id/content'],
    ['POST', '/v1/fine-tunes'],
    ['GET', '/v1/fine-tunes'],
    ['DELETE', '/v1/models/:model'],
];
/** The playground: signed-in console user (session + New-Api-User), the user's quota only, an optional group. */
async function playgroundCaller(app, request, requestedGroup) {
    const user = await authenticate(app, request, 'user');
    let group = user.group;
    if (typeof requestedGroup === 'string' && requestedGroup && requestedGroup !== user.group) {
        if (!Object.hasOwn(app.ctx.options.get('UserUsableGroups'), requestedGroup)) {
            throw new RelayError(403, `分组 ${requestedGroup} 不可用`, 'group_forbidden');
        }
        group = requestedGroup;
    }
    return { token: null, user, group, pinnedChannelId: null };
}
/** OpenAI's endpoints that relay a call (the Responses API has its own file, responses.ts). */
export const openAIEndpoints = [
    ...JSON_ENDPOINTS.map(([path, mode]) => ({
        path,
        format: 'openai',
        async handle(ctx, ex) {
            const caller = await authenticateToken(ctx, ex);
            await relayCall(ctx, { call: parseJsonCall(mode, ex.body), caller, playground: false, ex });
        },
    })),
    ...MULTIPART_ENDPOINTS.map(([path, mode]) => ({
        path,
        format: 'openai',
        async handle(ctx, ex) {
            const caller = await authenticateToken(ctx, ex);
            const call = await parseMultipartCall(mode, ex.body, String(ex.headers['content-type'] ?? ''));
            await relayCall(ctx, { call, caller, playground: false, ex });
        },
    })),
];
/** The console playground (OpenAI's chat, signed in by session) and the OpenAI calls not relayed yet. */
export const openAIExtraRoutes = async (app) => {
    const ctx = app.ctx;
    // OpenAI's format, whatever headers come (errors Fastify raises before the handler are rendered by the config's format).
    const config = { format: 'openai' };
    app.post('/pg/chat/completions', { config }, async (request, reply) => {
        const ex = fastifyExchange(request, reply);
        await guarded(ctx, ex, 'openai', async () => {
            const call = parseJsonCall('chat', ex.body);
            const caller = await playgroundCaller(app, request, call.json?.group);
            await relayCall(ctx, { call, caller, playground: true, ex });
        });
    });
    // The engine-style embeddings path of older OpenAI clients: the model may come in the path instead of the body.
    app.post('/v1/engines/:model/embeddings', { config }, async (request, reply) => {
        const ex = fastifyExchange(request, reply);
        await guarded(ctx, ex, 'openai', async () => {
            const caller = await authenticateToken(ctx, ex);
            const body = parseJsonObject(ex.body);
            if (body.model === undefined || body.model === '')
                body.model = request.params.model;
            const call = parseJsonCall('embeddings', Buffer.from(JSON.stringify(body)));
            await relayCall(ctx, { call, caller, playground: false, ex });
        });
    });
    for (const [method, url] of NOT_IMPLEMENTED) {
        app.route({
            method: method,
            url,
            handler: async (request, reply) => sendError(reply, new RelayError(501, 'API not implemented', 'api_not_implemented'), formatOf(request)),
        });
    }
};
//# sourceMappingURL=openai.js.map