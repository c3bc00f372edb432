import { chatUsageFromCohere, finishOf } from './response.js';
/**
 * Cohere v2 stream events as ChatChunks: content-delta text and thinking become content and reasoning_content,
 * tool-plan-delta is content too (as in a non-streamed answer), each tool-call-start one tool call whose
 * tool-call-delta pieces are argument deltas, and message-end the finish_reason followed by a usage-only chunk
 * (choices: []), as OpenAI sends with include_usage. Citations have no place in an OpenAI chunk.
 */
export class CohereStreamToChat {
    model;
    created;
    /** message-end arrived. */
    complete = false;
    /** A generation that Cohere ended with an error (finish_reason ERROR, or an error message). */
    failure = null;
    id;
    started = false;
    usageSeen = null;
    /** Cohere event index -> OpenAI tool call index. */
    tools = new Map();
    toolsWithArguments = new Set();
    constructor(model, created = Math.floor(Date.now() / 1000), id) {
        this.model = model;
        this.created = created;
        this.id = id ?? '';
    }
    /** The usage message-end reported, null before it. */
    get usage() {
        return this.usageSeen;
    }
    push(e) {
        const message = e.delta?.message;
        switch (e.type) {
            case 'message-start':
                if (!this.id && typeof e.id === 'string')
                    this.id = e.id;
                return [this.chunk({ content: '' })];
            case 'content-delta': {
                const c = message?.content;
                const delta = {};
                if (typeof c?.text === 'string' && c.text)
                    delta.content = c.text;
                if (typeof c?.thinking === 'string' && c.thinking)
                    delta.reasoning_content = c.thinking;
                return Object.keys(delta).length > 0 ? [this.chunk(delta)] : [];
            }
            case 'tool-plan-delta':
                return typeof message?.tool_plan === 'string' && message.tool_plan ? [this.chunk({ content: message.tool_plan })] : [];
            case 'tool-call-start': {
                const call = message?.tool_calls;
                const index = this.tools.size;
                this.tools.set(e.index ?? index, index);
                const args = call?.function?.arguments ?? '';
                if (args)
                    this.toolsWithArguments.add(index);
                const id = typeof call?.id === 'string' && call.id ? call.id : `call_${index}`;
                return [this.chunk({ tool_calls: [{ index, id, type: 'function', function: { name: call?.function?.name ?? '', arguments: args } }] })];
            }
            case 'tool-call-delta': {
                const index = this.tools.get(e.index ?? this.tools.size - 1);
                const args = message?.tool_calls?.function?.arguments;
                if (index === undefined || typeof args !== 'string' || !args)
                    return [];
                this.toolsWithArguments.add(index);
                return [this.chunk({ tool_calls: [{ index, function: { arguments: args } }] })];
            }
            case 'tool-call-end': {
                // OpenAI clients JSON.parse the arguments: a call that streamed none gets an empty object.
                const index = this.tools.get(e.index ?? this.tools.size - 1);
                if (index === undefined || this.toolsWithArguments.has(index))
                    return [];
                this.toolsWithArguments.add(index);
                return [this.chunk({ tool_calls: [{ index, function: { arguments: '{}' } }] })];
            }
            case 'message-end':
                return this.end(e.delta ?? {});
            default:
                // content-start/-end, citation-start/-end and later event types carry nothing to convert.
                return [];
        }
    }
    /** End of the upstream body: nothing is held back (usage only ever comes with message-end). */
    finish() {
        return [];
    }
    end(delta) {
        this.complete = true;
        this.usageSeen = chatUsageFromCohere(delta.usage);
        const out = [];
        const errored = delta.finish_reason === 'ERROR' || (typeof delta.error === 'string' && delta.error !== '');
        if (errored) {
            this.failure = { type: 'upstream_error', message: typeof delta.error === 'string' && delta.error ? delta.error : 'Cohere 生成出错' };
        }
        else {
            out.push(this.chunk({}, finishOf(delta.finish_reason, this.tools.size > 0)));
        }
        // What was generated is billed even when the generation failed.
        if (this.usageSeen)
            out.push({ ...this.chunk({}), choices: [], usage: this.usageSeen });
        return out;
    }
    chunk(delta, finishReason = null) {
        if (!this.started) {
            this.started = true;
            delta = { role: 'assistant', ...delta };
        }
        return {
            id: this.id,
            object: 'chat.completion.chunk',
            created: this.created,
            model: this.model,
            choices: [{ index: 0, delta, finish_reason: finishReason }],
        };
    }
}
/** One SSE data payload as a Cohere event; null for a payload that is not a JSON object (a cut-off last event). */
export function parseCohereEvent(data) {
    try {
        const parsed = JSON.parse(data);
        return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : null;
    }
    catch {
        return null;
    }
}
//# sourceMappingURL=stream.js.map