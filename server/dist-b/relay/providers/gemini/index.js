/*
 * Gemini (channel type 24): URLs and headers as plain functions. The Provider object is assembled once the
 * interface takes a ChatRequest.
 */
export { chatToGeminiRequest } from './request.js';
export { geminiToChatCompletion, GeminiStreamToChat, chatUsageOf, parseGeminiEvent } from './response.js';
export { SseSplitter } from './sse.js';
export { parseGeminiError } from './errors.js';
export { embeddingsToGemini, geminiToEmbeddings } from './embeddings.js';
export { cleanSchema } from './schema.js';
export const GEMINI_CHANNEL_TYPE = 24;
export const GEMINI_DEFAULT_BASE = 'https://generativelanguage.googleapis.com';
export const GEMINI_DEFAULT_VERSION = 'v1beta';
function prefix(base, version) {
    const trimmed = (base || GEMINI_DEFAULT_BASE).replace(/\/+$/, '');
    // A base URL that already names the version (…/v1beta) is not given it twice.
    return /\/v\d+(?:alpha|beta)?\d*$/.test(trimmed) ? trimmed : `${trimmed}/${version || GEMINI_DEFAULT_VERSION}`;
}
export function geminiUrl(base, version, model, stream) {
    const action = stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
    return `${prefix(base, version)}/models/${encodeURIComponent(model)}:${action}`;
}
export function geminiEmbedUrl(base, version, model, batch = true) {
    return `${prefix(base, version)}/models/${encodeURIComponent(model)}:${batch ? 'batchEmbedContents' : 'embedContent'}`;
}
export function geminiCountTokensUrl(base, version, model) {
    return `${prefix(base, version)}/models/${encodeURIComponent(model)}:countTokens`;
}
export function geminiHeaders(key, stream = false) {
    const headers = { 'x-goog-api-key': key, 'content-type': 'application/json' };
    if (stream)
        headers.accept = 'text/event-stream';
    return headers;
}
//# sourceMappingURL=index.js.map