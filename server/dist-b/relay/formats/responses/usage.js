import { lastObjectAfterKey } from '../json-bytes.js';
const num = (v) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0);
const isObj = (v) => !!v && typeof v === 'object' && !Array.isArray(v);
/**
 * A Responses usage object as the relay's Usage, or null when absent or empty. input_tokens includes cached tokens
 * (OpenAI's convention); output_tokens includes reasoning tokens.
 */
export function relayUsageFromResponses(raw) {
    if (!isObj(raw))
        return null;
    const promptTokens = num(raw.input_tokens);
    const completionTokens = num(raw.output_tokens);
    if (promptTokens === 0 && completionTokens === 0)
        return null;
    const details = isObj(raw.input_tokens_details) ? raw.input_tokens_details : {};
    const usage = { promptTokens, completionTokens, cachedTokens: num(details.cached_tokens) };
    const written = num(details.cache_write_tokens);
    if (written > 0)
        usage.cacheCreationTokens = written;
    return usage;
}
const looksLikeUsage = (v) => isObj(v) && (typeof v.input_tokens === 'number' || typeof v.output_tokens === 'number');
/**
 * The usage of a Response object (a JSON answer, or the data of a terminal stream event) without parsing the whole
 * answer: OpenAI writes usage after the output, so the object after the last "usage" key is tried first; anything
 * else there (a tool schema property named usage) falls back to a full parse.
 */
export function usageOfResponseBytes(body, nested) {
    const fast = lastObjectAfterKey(body, 'usage');
    if (looksLikeUsage(fast))
        return relayUsageFromResponses(fast);
    try {
        const parsed = JSON.parse(body.toString('utf8'));
        if (!isObj(parsed))
            return null;
        const response = nested ? parsed.response : parsed;
        return isObj(response) ? relayUsageFromResponses(response.usage) : null;
    }
    catch {
        return null;
    }
}
/** The usage of a non-streamed Responses answer passed through, or null when it has none. */
export function responsesUsageFromJson(body) {
    return usageOfResponseBytes(body, false);
}
//# sourceMappingURL=usage.js.map