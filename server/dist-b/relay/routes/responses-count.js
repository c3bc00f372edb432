import { authenticateToken } from '../auth.js';
import { bad, parseJsonObject } from '../calls.js';
import { countPromptTokens } from '../count-tokens.js';
/** POST /v1/responses/input_tokens: the input tokens of a Responses request, counted as count_tokens is; free. */
export const responsesCountRoutes = async (app) => {
    const ctx = app.ctx;
    app.post('/v1/responses/input_tokens', { config: { format: 'responses' } }, async (request) => {
        const caller = await authenticateToken(ctx, request);
        const raw = request.body;
        const body = parseJsonObject(raw);
        if (typeof body.model !== 'string' || !body.model.trim())
            throw bad('缺少必填字段 model', 'missing_required_parameter');
        const call = { format: 'responses', mode: 'chat', model: body.model.trim(), stream: false, json: body, raw, clientWantsStreamUsage: false, maxTokens: 0 };
        return { object: 'response.input_tokens', input_tokens: await countPromptTokens(ctx, caller, call) };
    });
};
//# sourceMappingURL=responses-count.js.map