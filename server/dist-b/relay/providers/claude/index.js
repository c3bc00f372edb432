/** The Messages endpoint; a base that already ends in /v1 is not given a second one. */
export function claudeUrl(base) {
    const trimmed = base.replace(/\/+$/, '');
    return /\/v1$/.test(trimmed) ? `${trimmed}/messages` : `${trimmed}/v1/messages`;
}
export const DEFAULT_ANTHROPIC_VERSION = '2023-06-01';
/** Upstream headers: the channel key as x-api-key, and the client's anthropic-version when it sent one. */
export function claudeHeaders(key, clientVersion) {
    return {
        'x-api-key': key,
        'anthropic-version': clientVersion || DEFAULT_ANTHROPIC_VERSION,
        'content-type': 'application/json',
    };
}
export { chatToClaudeRequest } from './request.js';
export { claudeToChatCompletion, chatUsageFromClaude } from './response.js';
export { ClaudeStreamToChat, ClaudeSseSplitter } from './stream.js';
export { parseClaudeError } from './errors.js';
//# sourceMappingURL=index.js.map