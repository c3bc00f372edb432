import { geminiEmbedToOpenAI, openAIToGeminiEmbed } from './embeddings.js';
import { geminiErrorBody } from './errors.js';
import { camelCaseFields } from './field-names.js';
import { chatToGemini, ChatToGeminiStream } from './from-chat.js';
import { GeminiStreamMeter, geminiUsageFromJson } from './meter.js';
import { PassthroughMeter, UPSTREAM_CUT } from '../passthrough-meter.js';
import { JSON_STREAM_HEADERS, SseToJsonArray } from './json-array.js';
import { geminiToChat } from './to-chat.js';
/** Gemini reports a failure inside a stream as an event holding its error body (an element of an array stream). */
const errorJson = (status, message) => JSON.stringify(geminiErrorBody(status, message));
const streamError = (status, message) => `data: ${errorJson(status, message)}\r\n\r\n`;
class GeminiChunkEncoder {
    stream = new ChatToGeminiStream();
    /** Set for a client that asked for the JSON array rather than SSE. */
    array;
    headers;
    constructor(call) {
        this.array = call.arrayStream ? new SseToJsonArray() : null;
        this.headers = call.arrayStream ? JSON_STREAM_HEADERS : undefined;
    }
    push(chunk) {
        const sse = this.stream.push(chunk);
        return this.array && sse ? this.array.push(Buffer.from(sse)).toString() : sse;
    }
    finish(usage) {
        const sse = this.stream.finish(usage);
        if (!this.array)
            return sse;
        return Buffer.concat([this.array.push(Buffer.from(sse)), this.array.end()]).toString();
    }
    error(status, message) {
        return this.array ? this.array.fail(errorJson(status, message)).toString() : streamError(status, message);
    }
}
/** Gemini's own stream passed through: forwarded as it came, or as the JSON array the client asked for. */
class GeminiPassthroughMeter extends PassthroughMeter {
    array;
    headers;
    constructor(call) {
        super(new GeminiStreamMeter(call.model));
        this.array = call.arrayStream ? new SseToJsonArray() : null;
        this.headers = call.arrayStream ? JSON_STREAM_HEADERS : undefined;
    }
    push(chunk) {
        const bytes = this.meter.push(chunk);
        return this.array ? this.array.push(bytes) : bytes;
    }
    finish(cut, reason = UPSTREAM_CUT) {
        const rest = this.meter.finish();
        if (this.array)
            return cut ? this.array.fail(errorJson(reason.status, reason.message)) : Buffer.concat([this.array.push(rest), this.array.end()]);
        return cut ? Buffer.from(streamError(reason.status, reason.message)) : rest;
    }
}
export const geminiClient = {
    format: 'gemini',
    toCanonical(call) {
        if (call.mode === 'embeddings') {
            return geminiEmbedToOpenAI(camelCaseFields(call.json), call.model);
        }
        return geminiToChat(call.json, call.model, call.stream);
    },
    fromCanonical(answer, call) {
        if (call.mode === 'embeddings')
            return openAIToGeminiEmbed(answer, !call.single);
        return chatToGemini(answer);
    },
    streamEncoder: (call) => new GeminiChunkEncoder(call),
    streamMeter: (call) => new GeminiPassthroughMeter(call),
    usageFromJson: (body) => geminiUsageFromJson(body),
    errorBody: (err) => JSON.stringify(geminiErrorBody(err.status, err.message)),
};
//# sourceMappingURL=client.js.map