import { authenticateToken } from '../auth.js';
import { RelayError } from '../errors.js';
import { geminiModelList } from '../formats/gemini/models.js';
import { relayFormatOf } from './caller-format.js';
import { sendError } from './send-error.js';
/** What a token may call: its model limits when on, else every model its group can reach. */
export function listableModels(ctx, caller) {
    const token = caller.token;
    if (token?.model_limits_enabled) {
        return token.model_limits
            .split(',')
            .map((m) => m.trim())
            .filter(Boolean);
    }
    return ctx.routing.models([caller.group]);
}
/**
 * The list shape a caller expects, told as for its errors: by the path, then by its headers (Anthropic's SDK sends
 * anthropic-version, Google's a goog key).
 */
function listFormat(request) {
    const format = relayFormatOf(request.url, request.headers);
    return format === 'responses' ? 'openai' : format;
}
function anthropicModel(id, createdAt) {
    return { type: 'model', id, display_name: id, created_at: createdAt };
}
const DEFAULT_PAGE = 20;
const MAX_PAGE = 1000;
/** Anthropic's cursor paging: `limit` (1–1000, default 20) items after `after_id` or before `before_id`. */
function anthropicPage(ids, q) {
    const limit = q.limit === undefined ? DEFAULT_PAGE : Number(q.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) {
        throw new RelayError(400, `limit: Input should be an integer between 1 and ${MAX_PAGE}`, 'invalid_request_error', 'invalid_request_error');
    }
    if (typeof q.after_id === 'string' && q.after_id) {
        const at = ids.indexOf(q.after_id);
        const start = at < 0 ? ids.length : at + 1;
        return { ids: ids.slice(start, start + limit), hasMore: start + limit < ids.length };
    }
    if (typeof q.before_id === 'string' && q.before_id) {
        const end = Math.max(0, ids.indexOf(q.before_id));
        const start = Math.max(0, end - limit);
        return { ids: ids.slice(start, end), hasMore: start > 0 };
    }
    return { ids: ids.slice(0, limit), hasMore: limit < ids.length };
}
function openAIModel(id, created) {
    return { id, object: 'model', created, owned_by: 'switchyard' };
}
/** GET /v1/models (and one model) in OpenAI's, Anthropic's or Gemini's shape; GET /v1beta/models for Gemini clients. */
export const modelRoutes = async (app) => {
    const ctx = app.ctx;
    const createdAt = () => new Date(ctx.startTime * 1000).toISOString();
    app.get('/v1/models', async (request, reply) => {
        const caller = await authenticateToken(ctx, request);
        const ids = listableModels(ctx, caller);
        const format = listFormat(request);
        if (format === 'claude') {
            let page;
            try {
                page = anthropicPage(ids, request.query);
            }
            catch (err) {
                return sendError(reply, err, 'claude');
            }
            const data = page.ids.map((id) => anthropicModel(id, createdAt()));
            return { data, has_more: page.hasMore, first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null };
        }
        if (format === 'gemini')
            return reply.send(geminiModelList(ids));
        return { object: 'list', data: ids.map((id) => openAIModel(id, ctx.startTime)) };
    });
    app.get('/v1/models/:model', async (request, reply) => {
        const caller = await authenticateToken(ctx, request);
        const { model } = request.params;
        const format = listFormat(request);
        if (!listableModels(ctx, caller).includes(model)) {
            return sendError(reply, new RelayError(404, `The model '${model}' does not exist`, 'model_not_found'), format);
        }
        if (format === 'claude')
            return anthropicModel(model, createdAt());
        if (format === 'gemini')
            return geminiModelList([model]).models[0];
        return openAIModel(model, ctx.startTime);
    });
    for (const prefix of ['/v1beta', '/v1beta1']) {
        app.get(`${prefix}/models`, { config: { format: 'gemini' } }, async (request) => {
            const caller = await authenticateToken(ctx, request);
            return geminiModelList(listableModels(ctx, caller));
        });
        app.get(`${prefix}/models/:model`, { config: { format: 'gemini' } }, async (request) => {
            const caller = await authenticateToken(ctx, request);
            const model = request.params.model.replace(/^models\//, '');
            if (!listableModels(ctx, caller).includes(model))
                throw new RelayError(404, `models/${model} is not found`, 'model_not_found');
            return geminiModelList([model]).models[0];
        });
    }
};
//# sourceMappingURL=models.js.map