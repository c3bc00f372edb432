import { countInputTokens } from '../../tokenizer.js';
import { embeddingsToGemini, geminiToEmbeddings } from './embeddings.js';
import { parseGeminiError } from './errors.js';
import { chatToGeminiRequest } from './request.js';
import { geminiToChatCompletion, GeminiStreamToChat, parseGeminiEvent } from './response.js';
import { SseSplitter } from './sse.js';
import { checkCanonical } from '../field-policy.js';
import { GEMINI_FIELDS } from './fields.js';
/** Gemini's generateContent / batchEmbedContents bodies as a wire (Gemini channels, and Gemini models on Vertex). */
class GeminiChunkDecoder {
    failure = null;
    splitter = new SseSplitter();
    toChat;
    constructor(model) {
        this.toChat = new GeminiStreamToChat(model);
    }
    push(chunk) {
        return this.read(this.splitter.push(chunk));
    }
    finish() {
        return [...this.read(this.splitter.finish()), ...this.toChat.finish()];
    }
    read(events) {
        const out = [];
        for (const data of events) {
            const event = parseGeminiEvent(data);
            if (!event)
                continue;
            if (event.error && typeof event.error === 'object') {
                this.failure = {
                    type: typeof event.error.status === 'string' ? event.error.status : 'upstream_error',
                    message: typeof event.error.message === 'string' ? event.error.message : '上游返回错误',
                };
                continue;
            }
            out.push(...this.toChat.push(event));
        }
        return out;
    }
}
/** The canonical request of a call (what the converters read). */
function canonicalOf(up) {
    return up.call.canonical ?? up.call.json ?? {};
}
export const geminiWire = {
    format: 'gemini',
    encode(canonical, up) {
        if (up.call.mode === 'embeddings')
            return embeddingsToGemini(canonical, up.upstreamModel);
        checkCanonical(canonical, GEMINI_FIELDS);
        const out = chatToGeminiRequest(canonical, { safetySettings: up.options.get('gemini.safety_settings') });
        return Object.assign(out, up.channel.paramOverride);
    },
    decode(body, up) {
        const parsed = JSON.parse(body.toString('utf8'));
        if (up.call.mode === 'embeddings') {
            const input = canonicalOf(up).input;
            const promptTokens = countInputTokens(input, up.call.model);
            return geminiToEmbeddings(parsed, up.call.model, promptTokens);
        }
        return geminiToChatCompletion(parsed, up.call.model);
    },
    streamDecoder: (up) => new GeminiChunkDecoder(up.call.model),
    parseError: parseGeminiError,
};
//# sourceMappingURL=wire.js.map