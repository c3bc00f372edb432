import { CHANNEL_TYPE } from '@switchyard/shared';
import { resolveBaseUrl } from '../base-url.js';
import { geminiCountTokensUrl, geminiEmbedUrl, geminiHeaders, geminiUrl } from './index.js';
/** The API version for a model: `gemini.version_settings` by model name, else its `default`. */
export function geminiVersion(options, model) {
    const settings = options.get('gemini.version_settings');
    return settings[model] ?? settings.default ?? 'v1beta';
}
/** The client's body as sent (the model is in the URL), except that batch embeddings name the model per request. */
function passthroughBody(up) {
    const json = up.call.json ?? {};
    const requests = json.requests;
    if (up.call.mode === 'embeddings' && Array.isArray(requests) && up.upstreamModel !== up.call.model) {
        const model = `models/${up.upstreamModel}`;
        return JSON.stringify({ ...json, requests: requests.map((r) => (r && typeof r === 'object' ? { ...r, model } : r)) });
    }
    return up.call.raw ?? JSON.stringify(json);
}
export const geminiProvider = {
    name: 'gemini',
    types: [CHANNEL_TYPE.GEMINI],
    supports: (mode) => mode === 'chat' || mode === 'embeddings',
    wire: () => 'gemini',
    build(up) {
        const base = resolveBaseUrl(up.channel);
        const version = geminiVersion(up.options, up.upstreamModel);
        const embeddings = up.call.mode === 'embeddings';
        const url = embeddings
            ? geminiEmbedUrl(base, version, up.upstreamModel, up.converted !== null || !up.call.single)
            : geminiUrl(base, version, up.upstreamModel, up.call.stream);
        const body = up.converted ? JSON.stringify(up.converted) : passthroughBody(up);
        return { url, method: 'POST', headers: geminiHeaders(up.key, up.call.stream), body };
    },
    defaultTestModel: 'gemini-2.0-flash',
    // countTokens counts a whole GenerateContentRequest (system instruction and tools included) when given as one.
    countTokens(up, body) {
        const url = geminiCountTokensUrl(resolveBaseUrl(up.channel), geminiVersion(up.options, up.upstreamModel), up.upstreamModel);
        const request = { model: `models/${up.upstreamModel}`, ...body };
        return {
            request: { url, method: 'POST', headers: geminiHeaders(up.key), body: JSON.stringify({ generateContentRequest: request }) },
            read: (answer) => (typeof answer.totalTokens === 'number' ? answer.totalTokens : null),
        };
    },
};
//# sourceMappingURL=provider.js.map