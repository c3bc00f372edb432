import { SseSplitter } from '../gemini/sse.js';
import { parseCohereError } from './errors.js';
import { checkCanonical } from '../field-policy.js';
import { COHERE_FIELDS } from './fields.js';
import { chatToCohereRequest } from './request.js';
import { cohereToChatCompletion } from './response.js';
import { CohereStreamToChat, parseCohereEvent } from './stream.js';
/** Cohere's v2 chat body as a wire (Cohere channels, chat only: rerank goes through as OpenAI/Jina JSON). */
export class CohereChunkDecoder {
    splitter = new SseSplitter();
    toChat;
    constructor(model, created) {
        this.toChat = new CohereStreamToChat(model, created);
    }
    get failure() {
        return this.toChat.failure;
    }
    push(chunk) {
        return this.read(this.splitter.push(chunk));
    }
    finish() {
        return [...this.read(this.splitter.finish()), ...this.toChat.finish()];
    }
    read(datas) {
        const out = [];
        for (const data of datas) {
            const event = parseCohereEvent(data);
            if (event)
                out.push(...this.toChat.push(event));
        }
        return out;
    }
}
export const cohereWire = {
    format: 'cohere',
    encode(canonical, up) {
        checkCanonical(canonical, COHERE_FIELDS);
        const out = chatToCohereRequest(canonical, up.upstreamModel, up.call.stream);
        return Object.assign(out, up.channel.paramOverride);
    },
    decode(body, up) {
        const parsed = JSON.parse(body.toString('utf8'));
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
            throw new Error('upstream answer is not a JSON object');
        return cohereToChatCompletion(parsed, up.call.model);
    },
    streamDecoder: (up) => new CohereChunkDecoder(up.call.model),
    parseError: parseCohereError,
};
//# sourceMappingURL=wire.js.map