import { lastObjectAfterKey } from '../json-bytes.js';
const num = (v) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0);
/** OpenAI usage (also the input/output naming some compatible servers use), or null when absent or empty. */
export function readUsage(raw) {
    if (!raw || typeof raw !== 'object')
        return null;
    const u = raw;
    const promptTokens = num(u.prompt_tokens) || num(u.input_tokens);
    let completionTokens = num(u.completion_tokens) || num(u.output_tokens);
    if (!completionTokens && num(u.total_tokens) > promptTokens)
        completionTokens = num(u.total_tokens) - promptTokens;
    if (promptTokens === 0 && completionTokens === 0)
        return null;
    const cachedTokens = num(u.prompt_tokens_details?.cached_tokens) || num(u.prompt_cache_hit_tokens);
    const creation = num(u.cache_creation_input_tokens);
    return creation > 0 ? { promptTokens, completionTokens, cachedTokens, cacheCreationTokens: creation } : { promptTokens, completionTokens, cachedTokens };
}
/** The generated text of a non-streamed answer, for counting when usage is missing. */
export function completionText(body) {
    let text = '';
    let toolCalls = 0;
    const choices = Array.isArray(body.choices) ? body.choices : [];
    for (const c of choices) {
        if (typeof c.text === 'string')
            text += c.text;
        const m = c.message;
        if (!m)
            continue;
        if (typeof m.content === 'string')
            text += m.content;
        if (typeof m.reasoning_content === 'string')
            text += m.reasoning_content;
        for (const call of m.tool_calls ?? []) {
            toolCalls++;
            if (typeof call.function?.name === 'string')
                text += call.function.name;
            if (typeof call.function?.arguments === 'string')
                text += call.function.arguments;
        }
    }
    return { text, toolCalls };
}
/** The usage object of a JSON answer without parsing the whole answer; null when there is none. */
export function usageFromJsonBytes(body) {
    return readUsage(lastObjectAfterKey(body, 'usage'));
}
/** Relay usage in OpenAI's shape (what streams and converted answers report to OpenAI-format clients). */
export function chatUsageOf(u) {
    const out = {
        prompt_tokens: u.promptTokens,
        completion_tokens: u.completionTokens,
        total_tokens: u.promptTokens + u.completionTokens,
        prompt_tokens_details: { cached_tokens: u.cachedTokens },
    };
    if (u.cacheCreationTokens)
        out.cache_creation_input_tokens = u.cacheCreationTokens;
    return out;
}
//# sourceMappingURL=usage.js.map