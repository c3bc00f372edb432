import { CHANNEL_TYPE } from '@switchyard/shared';
import { resolveBaseUrl } from '../base-url.js';
import { openAIRequest } from '../openai/index.js';
/*
 * Cohere (channel type 34). Chat speaks Cohere's own v2 body (see wire.ts). Rerank forwards the client's
 * Jina/Cohere-style body to v1 rerank: unlike v2 it accepts documents as objects ({text}) as well as strings, and
 * return_documents, which the Jina shape clients send.
 */
export { cohereWire, CohereChunkDecoder } from './wire.js';
export { parseCohereError } from './errors.js';
export { chatToCohereRequest } from './request.js';
export { cohereToChatCompletion, chatUsageFromCohere } from './response.js';
export { CohereStreamToChat, parseCohereEvent } from './stream.js';
/** The endpoint of a call; a base URL that already names an API version (…/v1, …/v2) is not given a second one. */
export function cohereUrl(base, mode) {
    const root = base.replace(/\/+$/, '').replace(/\/v\d+$/, '');
    return mode === 'rerank' ? `${root}/v1/rerank` : `${root}/v2/chat`;
}
function chatRequest(up, url) {
    const headers = {
        authorization: `Bearer ${up.key}`,
        'content-type': 'application/json',
        accept: up.call.stream ? 'text/event-stream' : 'application/json',
    };
    // The pipeline always converts chat (no client speaks Cohere's body); the raw body is only a defensive fallback.
    const body = up.converted ? JSON.stringify(up.converted) : (up.call.raw ?? JSON.stringify(up.call.json ?? {}));
    return { url, method: 'POST', headers, body };
}
export const cohereProvider = {
    name: 'cohere',
    types: [CHANNEL_TYPE.COHERE],
    supports: (mode) => mode === 'chat' || mode === 'rerank',
    wire: (up) => (up.call.mode === 'rerank' ? 'openai' : 'cohere'),
    build(up) {
        const url = cohereUrl(resolveBaseUrl(up.channel), up.call.mode);
        if (up.call.mode === 'rerank')
            return openAIRequest(up, url, { authorization: `Bearer ${up.key}` });
        return chatRequest(up, url);
    },
    defaultTestModel: 'command-r7b-12-2024',
};
//# sourceMappingURL=index.js.map