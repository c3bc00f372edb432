import { bad, parseJsonObject, positiveInt } from '../../calls.js';
import { claudeFieldError } from './errors.js';
import { checkClaudeCountTokens, checkClaudeMessages } from './schema.js';
/** Client headers a Claude upstream must see as the client sent them. */
const PASS_HEADERS = ['anthropic-version', 'anthropic-beta'];
/** A Claude Messages request (POST /v1/messages), checked for what Anthropic requires. */
export function parseClaudeCall(raw, headers) {
    const body = parseJsonObject(raw);
    if (typeof body.model !== 'string' || !body.model.trim())
        throw bad('model: Field required', 'model_required');
    if (!Array.isArray(body.messages))
        throw bad('messages: Field required');
    if (body.max_tokens === undefined)
        throw bad('max_tokens: Field required');
    if (!Number.isInteger(body.max_tokens) || body.max_tokens < 1)
        throw bad('max_tokens: Input should be a valid positive integer');
    if (body.stream !== undefined && typeof body.stream !== 'boolean')
        throw bad('stream: Input should be a valid boolean');
    if (body.system !== undefined && typeof body.system !== 'string' && !Array.isArray(body.system))
        throw bad('system: Input should be a valid string or list');
    const problem = checkClaudeMessages(body);
    if (problem)
        throw claudeFieldError(problem);
    return {
        format: 'claude',
        mode: 'chat',
        model: body.model.trim(),
        stream: body.stream === true,
        json: body,
        raw,
        clientWantsStreamUsage: true,
        maxTokens: positiveInt(body.max_tokens),
        passHeaders: claudePassHeaders(headers),
    };
}
/** The client's anthropic-version and anthropic-beta, for a Claude upstream. */
export function claudePassHeaders(headers) {
    const out = {};
    for (const name of PASS_HEADERS) {
        const v = headers[name];
        if (typeof v === 'string' && v)
            out[name] = v;
    }
    return out;
}
/** A count_tokens body (POST /v1/messages/count_tokens): the Messages request without max_tokens, checked alike. */
export function parseClaudeCountCall(raw, headers) {
    const body = parseJsonObject(raw);
    if (typeof body.model !== 'string' || !body.model.trim())
        throw bad('model: Field required', 'model_required');
    if (!Array.isArray(body.messages))
        throw bad('messages: Field required');
    const problem = checkClaudeCountTokens(body);
    if (problem)
        throw claudeFieldError(problem);
    return { format: 'claude', mode: 'chat', model: body.model.trim(), stream: false, json: body, raw, clientWantsStreamUsage: false, maxTokens: 0, passHeaders: claudePassHeaders(headers) };
}
//# sourceMappingURL=call.js.map