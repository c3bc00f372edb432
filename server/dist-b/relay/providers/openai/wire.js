import { parseOpenAIError } from '../../formats/openai/errors.js';
import { normalizeFinishReason } from '../../formats/openai/finish-reason.js';
import { responsesToCompletion } from '../../formats/responses/to-completion.js';
import { SseSplitter } from '../gemini/sse.js';
/*
 * OpenAI's chat body as a wire: the canonical shape itself. A client of another format reaches an OpenAI-compatible
 * channel through here; usage is always asked for in streams, since it is what gets billed.
 */
function parseJson(body) {
    const parsed = JSON.parse(body.toString('utf8'));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
        throw new Error('upstream answer is not a JSON object');
    return parsed;
}
/** Some compatible servers send finish reasons outside OpenAI's four; the canonical stream carries only those. */
function normalizeChunk(chunk) {
    for (const choice of chunk.choices ?? []) {
        if (choice.finish_reason)
            choice.finish_reason = normalizeFinishReason(choice.finish_reason);
    }
    return chunk;
}
class OpenAIChunkDecoder {
    failure = null;
    splitter = new SseSplitter();
    push(chunk) {
        return this.read(this.splitter.push(chunk));
    }
    finish() {
        return this.read(this.splitter.finish());
    }
    read(events) {
        const out = [];
        for (const data of events) {
            if (data.trim() === '[DONE]')
                continue;
            let parsed;
            try {
                parsed = JSON.parse(data);
            }
            catch {
                continue;
            }
            if (!parsed || typeof parsed !== 'object')
                continue;
            if (parsed.error && typeof parsed.error === 'object') {
                this.failure = {
                    type: typeof parsed.error.type === 'string' ? parsed.error.type : 'upstream_error',
                    message: typeof parsed.error.message === 'string' ? parsed.error.message : '上游返回错误',
                };
                continue;
            }
            if (!Array.isArray(parsed.choices))
                parsed.choices = [];
            out.push(normalizeChunk(parsed));
        }
        return out;
    }
}
export const openAIWire = {
    format: 'openai',
    encode(canonical, up) {
        const out = { ...canonical, model: up.upstreamModel };
        if (out.stream === true && up.call.mode === 'chat') {
            const existing = typeof out.stream_options === 'object' && out.stream_options !== null ? out.stream_options : {};
            // Object.assign: a spread followed by a new key takes V8's slow path (about 1.4 µs on Node 20).
            out.stream_options = Object.assign({}, existing, { include_usage: true });
        }
        Object.assign(out, up.channel.paramOverride);
        return out;
    },
    decode(body, up) {
        const parsed = parseJson(body);
        if (up.call.mode === 'chat' && Array.isArray(parsed.choices)) {
            for (const choice of parsed.choices) {
                if (choice.finish_reason)
                    choice.finish_reason = normalizeFinishReason(choice.finish_reason);
            }
        }
        return parsed;
    },
    streamDecoder: () => new OpenAIChunkDecoder(),
    parseError: parseOpenAIError,
};
const passthroughOnly = () => {
    throw new Error('requests are never converted into the Responses format');
};
/**
 * OpenAI's own Responses endpoint: only reached by Responses clients passing through, so requests are never encoded
 * into it; its answers are decoded only to count an answer that came without usage.
 */
export const responsesWire = {
    format: 'responses',
    encode: passthroughOnly,
    decode: (body) => responsesToCompletion(parseJson(body)),
    streamDecoder: passthroughOnly,
    parseError: parseOpenAIError,
};
//# sourceMappingURL=wire.js.map