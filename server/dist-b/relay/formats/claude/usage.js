import { lastObjectAfterKey } from '../json-bytes.js';
const num = (v) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0);
/**
 * Claude usage as the relay's Usage. Claude's input_tokens leaves out cached tokens, so the prompt is input + cache
 * reads + cache writes; cachedTokens are the reads, cacheCreationTokens the writes (each billed at its own ratio).
 */
export function relayUsageFromClaude(raw) {
    const read = num(raw.cache_read_input_tokens);
    const creation = num(raw.cache_creation_input_tokens);
    return {
        promptTokens: num(raw.input_tokens) + read + creation,
        completionTokens: num(raw.output_tokens),
        cachedTokens: read,
        cacheCreationTokens: creation,
    };
}
const hasCounts = (u) => !!u && typeof u === 'object' && (typeof u.input_tokens === 'number' || typeof u.output_tokens === 'number');
/** The usage of a non-streamed Messages answer, or null when it has none. */
export function claudeUsageFromJson(body) {
    // Anthropic writes usage last: read the object after the last "usage" key, else parse the whole body.
    const fast = lastObjectAfterKey(body, 'usage');
    if (hasCounts(fast))
        return relayUsageFromClaude(fast);
    try {
        const parsed = JSON.parse(body.toString('utf8'));
        return hasCounts(parsed.usage) ? relayUsageFromClaude(parsed.usage) : null;
    }
    catch {
        return null;
    }
}
//# sourceMappingURL=usage.js.map