import { bad, parseJsonObject, positiveInt } from '../../calls.js';
import { RelayError } from '../../errors.js';
import { geminiFieldError } from './errors.js';
import { camelCaseFields } from './field-names.js';
import { listsOfBatchEmbed, listsOfCountTokens, listsOfEmbed, listsOfGenerate } from './lists.js';
import { GEMINI_BODIES } from './schema.js';
const ACTIONS = ['generateContent', 'streamGenerateContent', 'embedContent', 'batchEmbedContents', 'countTokens'];
const LISTS = {
    generateContent: listsOfGenerate,
    streamGenerateContent: listsOfGenerate,
    countTokens: listsOfCountTokens,
    embedContent: listsOfEmbed,
    batchEmbedContents: listsOfBatchEmbed,
};
/**
 * `gemini-2.0-flash:generateContent` (also `models/`-prefixed) into model and action. The segment comes
 * percent-decoded already (by the router or the relay lane): decoding it again broke on a model name with a `%`.
 */
export function splitModelAction(segment) {
    const at = segment.lastIndexOf(':');
    const model = (at > 0 ? segment.slice(0, at) : segment).replace(/^models\//, '').trim();
    const action = at > 0 ? segment.slice(at + 1) : '';
    if (!model)
        throw bad('model is required', 'model_required');
    if (!ACTIONS.includes(action))
        throw new RelayError(404, `Method ${action || '(none)'} is not supported`, 'not_found');
    return { model, action: action };
}
/** A Gemini body checked against the action's documented shape, with single values of list fields made lists. */
export function parseGeminiBody(action, raw) {
    const body = parseJsonObject(raw);
    const { check, request } = GEMINI_BODIES[action];
    const problem = check(body);
    if (problem)
        throw geminiFieldError(problem, request);
    LISTS[action](body);
    return body;
}
/**
 * A Gemini call. `sse`: the client asked for `alt=sse`; a streamGenerateContent without it is answered as Gemini's
 * REST API answers it, one JSON array whose elements arrive as they are generated.
 */
export function parseGeminiCall(model, action, raw, sse = true) {
    const body = parseGeminiBody(action, raw);
    const embeddings = action === 'embedContent' || action === 'batchEmbedContents';
    if (action === 'embedContent' && (!body.content || typeof body.content !== 'object'))
        throw bad('content is required');
    if (action === 'batchEmbedContents' && (!Array.isArray(body.requests) || body.requests.length === 0))
        throw bad('requests is required');
    if (!embeddings && !Array.isArray(body.contents))
        throw bad('contents is required');
    // Google's REST accepts proto field names too (generation_config.max_output_tokens).
    const generation = (body.generationConfig ?? body.generation_config ?? {});
    const stream = action === 'streamGenerateContent';
    return {
        format: 'gemini',
        mode: embeddings ? 'embeddings' : 'chat',
        model,
        stream,
        json: body,
        raw,
        clientWantsStreamUsage: true,
        maxTokens: positiveInt(generation.maxOutputTokens ?? generation.max_output_tokens),
        single: action === 'embedContent',
        arrayStream: stream && !sse,
    };
}
/** A countTokens body ({contents} or {generateContentRequest}) as the GenerateContentRequest it counts. */
export function parseGeminiCountCall(model, raw) {
    const body = camelCaseFields(parseGeminiBody('countTokens', raw));
    const inner = body.generateContentRequest;
    const req = (inner && typeof inner === 'object' && !Array.isArray(inner) ? inner : body);
    if (!Array.isArray(req.contents))
        throw bad('contents is required');
    const { model: _model, ...json } = req;
    return { format: 'gemini', mode: 'chat', model, stream: false, json, raw: Buffer.from(JSON.stringify(json)), clientWantsStreamUsage: false, maxTokens: 0 };
}
//# sourceMappingURL=call.js.map