/*
 * Google's JSON mapping takes a single value where a list is expected (`"parts": {"text": "hi"}`, as in Google's own
 * system-instruction examples). After the body check has passed, these make such values one-element lists in the
 * parsed body, so conversions and counts only ever meet lists. The bytes a Gemini channel receives are untouched.
 * Runs on every Gemini call: no allocation unless a value is rewritten.
 */
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
/** The field as a list (rewritten in place when it was a single value); undefined when absent. */
function list(owner, name) {
    const v = owner[name];
    if (v === undefined || v === null)
        return undefined;
    if (Array.isArray(v))
        return v;
    const one = [v];
    owner[name] = one;
    return one;
}
/** Both spellings of a repeated field. */
function lists(owner, camel, snake, each) {
    for (const items of [list(owner, camel), list(owner, snake)]) {
        if (items && each)
            for (const item of items)
                if (isObject(item))
                    each(item);
    }
}
function parts(content) {
    list(content, 'parts');
}
function declarations(tool) {
    lists(tool, 'functionDeclarations', 'function_declarations');
}
/** A generateContent body (also inside countTokens). */
export function listsOfGenerate(body) {
    const contents = list(body, 'contents');
    if (contents)
        for (const c of contents)
            if (isObject(c))
                parts(c);
    const system = body.systemInstruction ?? body.system_instruction;
    if (isObject(system))
        parts(system);
    const tools = list(body, 'tools');
    if (tools)
        for (const t of tools)
            if (isObject(t))
                declarations(t);
    if (body.safetySettings !== undefined || body.safety_settings !== undefined)
        lists(body, 'safetySettings', 'safety_settings');
    const generation = body.generationConfig ?? body.generation_config;
    if (isObject(generation)) {
        lists(generation, 'stopSequences', 'stop_sequences');
        lists(generation, 'responseModalities', 'response_modalities');
    }
    const toolConfig = body.toolConfig ?? body.tool_config;
    const calling = isObject(toolConfig) ? (toolConfig.functionCallingConfig ?? toolConfig.function_calling_config) : undefined;
    if (isObject(calling))
        lists(calling, 'allowedFunctionNames', 'allowed_function_names');
}
export function listsOfCountTokens(body) {
    listsOfGenerate(body);
    const inner = body.generateContentRequest ?? body.generate_content_request;
    if (isObject(inner))
        listsOfGenerate(inner);
}
export function listsOfEmbed(body) {
    if (isObject(body.content))
        parts(body.content);
}
export function listsOfBatchEmbed(body) {
    const requests = list(body, 'requests');
    if (requests)
        for (const r of requests)
            if (isObject(r) && isObject(r.content))
                parts(r.content);
}
//# sourceMappingURL=lists.js.map