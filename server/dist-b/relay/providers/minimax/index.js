import { resolveBaseUrl } from '../base-url.js';
import { openAIRequest, openAIUrl } from '../openai/index.js';
/** MiniMax speaks OpenAI's format, with chat at its own path. */
export const minimaxProvider = {
    name: 'minimax',
    types: [35],
    wire: () => 'openai',
    supports: (mode) => mode === 'chat' || mode === 'embeddings' || mode === 'speech',
    build(up) {
        const base = resolveBaseUrl(up.channel);
        const url = up.call.mode === 'chat' ? `${base}/v1/text/chatcompletion_v2` : openAIUrl(base, up.call.mode, up.upstreamModel);
        return openAIRequest(up, url, { authorization: `Bearer ${up.key}` });
    },
};
//# sourceMappingURL=index.js.map