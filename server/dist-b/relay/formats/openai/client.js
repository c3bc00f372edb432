import { PassthroughMeter, UPSTREAM_CUT } from '../passthrough-meter.js';
import { openAIErrorBody, openAIErrorType } from './errors.js';
import { OpenAIStreamMeter } from './stream.js';
import { chatUsageOf, usageFromJsonBytes } from './usage.js';
const DONE_TEXT = 'data: [DONE]\n\n';
const DONE = Buffer.from(DONE_TEXT);
const EMPTY = Buffer.alloc(0);
const event = (data) => `data: ${JSON.stringify(data)}\n\n`;
/** Canonical chunks from another wire, sent as OpenAI's stream; usage only when the client asked for it. */
class OpenAIChunkEncoder {
    call;
    last = { id: '', created: 0, model: '' };
    usageSent = false;
    constructor(call) {
        this.call = call;
    }
    push(chunk) {
        this.last = { id: chunk.id, created: chunk.created, model: chunk.model || this.call.model };
        const { usage, ...rest } = chunk;
        if (rest.choices.length === 0)
            return '';
        if (usage && this.call.clientWantsStreamUsage) {
            this.usageSent = true;
            rest.usage = usage;
        }
        return event(rest);
    }
    finish(usage) {
        let out = '';
        if (usage && this.call.clientWantsStreamUsage && !this.usageSent) {
            out += event({ id: this.last.id, object: 'chat.completion.chunk', created: this.last.created, model: this.last.model, choices: [], usage });
        }
        return `${out}data: [DONE]\n\n`;
    }
    error(status, message) {
        return event({ error: { message, type: openAIErrorType(status), code: status } });
    }
}
/**
 * OpenAI's own stream passed through: the meter; a usage chunk counted here when the client asked for usage and the
 * upstream sent none (its [DONE] is held back until then); [DONE] when the upstream ended without it.
 */
class OpenAIPassthroughMeter extends PassthroughMeter {
    call;
    constructor(call) {
        super(new OpenAIStreamMeter(call.model, !call.clientWantsStreamUsage));
        this.call = call;
    }
    finish(cut, reason = UPSTREAM_CUT) {
        const rest = this.meter.finish();
        if (cut)
            return Buffer.from(event({ error: { message: reason.message, type: openAIErrorType(reason.status), code: reason.status } }));
        return rest;
    }
    close(usage) {
        if (this.meter.usage || !this.call.clientWantsStreamUsage)
            return this.meter.doneSent ? EMPTY : DONE;
        const { id, created, model } = this.meter.streamIdentity();
        return Buffer.from(event({ id, object: 'chat.completion.chunk', created, model: model || this.call.model, choices: [], usage: chatUsageOf(usage) }) + DONE_TEXT);
    }
}
export const openAIClient = {
    format: 'openai',
    toCanonical: (call) => call.json ?? {},
    fromCanonical: (answer) => answer,
    streamEncoder: (call) => new OpenAIChunkEncoder(call),
    streamMeter: (call) => new OpenAIPassthroughMeter(call),
    usageFromJson: (body) => usageFromJsonBytes(body),
    errorBody: (err) => openAIErrorBody(err),
};
//# sourceMappingURL=client.js.map