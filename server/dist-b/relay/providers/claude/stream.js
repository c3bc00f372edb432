import { normalizeFinishReason } from '../../formats/openai/finish-reason.js';
import { SseReader } from '../../formats/claude/sse.js';
import { chatUsageFromClaude } from './response.js';
/** Upstream bytes -> (event name, parsed data) pairs, incrementally. Events whose data is not a JSON object are skipped. */
export class ClaudeSseSplitter {
    reader = new SseReader();
    push(chunk) {
        return this.reader.push(chunk).flatMap(toEvent);
    }
    /** Whatever was left when the body ended. */
    finish() {
        return this.reader.finish().flatMap(toEvent);
    }
}
function toEvent(e) {
    try {
        const data = JSON.parse(e.data);
        if (!data || typeof data !== 'object' || Array.isArray(data))
            return [];
        const type = data.type;
        return [{ event: e.event || (typeof type === 'string' ? type : ''), data }];
    }
    catch {
        return [];
    }
}
/**
 * Claude stream events as ChatChunks: text and thinking deltas become content and reasoning_content, each tool_use
 * block one tool call (its input_json_delta pieces as argument deltas), message_delta the finish_reason, and
 * message_stop a final usage-only chunk (choices: []), as OpenAI sends with include_usage.
 */
export class ClaudeStreamToChat {
    created;
    jsonTool;
    /** message_stop arrived. */
    complete = false;
    /** The error event an upstream sent mid-stream, if any. */
    error = null;
    id = '';
    model = '';
    usageSoFar = {};
    sawUsage = false;
    /** Claude block index -> OpenAI tool call index. */
    tools = new Map();
    /** Tool calls that received argument text; the others get "{}" when their block stops. */
    toolsWithArguments = new Set();
    /** Blocks of the response-format tool (block index -> whether any input came): their input is the answer text. */
    jsonBlocks = new Map();
    /** jsonTool: the name of the tool that carries a response format (see structured-output.ts), if the request has one. */
    constructor(created = Math.floor(Date.now() / 1000), jsonTool = null) {
        this.created = created;
        this.jsonTool = jsonTool;
    }
    push(eventName, data) {
        const d = data;
        switch (eventName) {
            case 'message_start':
                this.id = typeof d.message?.id === 'string' ? d.message.id : '';
                this.model = typeof d.message?.model === 'string' ? d.message.model : '';
                this.addUsage(d.message?.usage);
                return [this.chunk({ role: 'assistant', content: '' })];
            case 'content_block_start':
                return this.blockStart(typeof d.index === 'number' ? d.index : 0, d.content_block ?? {});
            case 'content_block_delta':
                return this.blockDelta(typeof d.index === 'number' ? d.index : 0, d.delta ?? {});
            case 'content_block_stop': {
                const index = typeof d.index === 'number' ? d.index : 0;
                if (this.jsonBlocks.get(index) === false)
                    return [this.chunk({ content: '{}' })];
                // A tool without parameters streams no input at all; OpenAI clients JSON.parse the arguments.
                const toolIndex = this.tools.get(index);
                if (toolIndex === undefined || this.toolsWithArguments.has(toolIndex))
                    return [];
                return [this.chunk({ tool_calls: [{ index: toolIndex, function: { arguments: '{}' } }] })];
            }
            case 'message_delta': {
                this.addUsage(d.usage);
                const reason = typeof d.delta?.stop_reason === 'string' ? d.delta.stop_reason : null;
                let finish = normalizeFinishReason(reason) ?? (this.tools.size > 0 ? 'tool_calls' : 'stop');
                // The response-format tool was the answer, not a call for the client to run.
                if (finish === 'tool_calls' && this.tools.size === 0 && this.jsonBlocks.size > 0)
                    finish = 'stop';
                return [this.chunk({}, finish)];
            }
            case 'message_stop': {
                this.complete = true;
                const usage = this.usage();
                return usage ? [{ ...this.chunk({}), choices: [], usage }] : [];
            }
            case 'error':
                this.error = {
                    type: typeof d.error?.type === 'string' ? d.error.type : 'api_error',
                    message: typeof d.error?.message === 'string' ? d.error.message : '',
                };
                return [];
            default:
                // ping and event types added later carry nothing to convert.
                return [];
        }
    }
    /** Usage reported so far (message_start's input side, message_delta's totals), null before any. */
    usage() {
        return this.sawUsage ? chatUsageFromClaude(this.usageSoFar) : null;
    }
    blockStart(index, block) {
        if (block.type === 'tool_use' && this.jsonTool !== null && block.name === this.jsonTool) {
            this.jsonBlocks.set(index, false);
            return [];
        }
        if (block.type === 'tool_use') {
            const toolIndex = this.tools.size;
            this.tools.set(index, toolIndex);
            const id = typeof block.id === 'string' ? block.id : '';
            const name = typeof block.name === 'string' ? block.name : '';
            return [this.chunk({ tool_calls: [{ index: toolIndex, id, type: 'function', function: { name, arguments: '' } }] })];
        }
        if (block.type === 'text' && typeof block.text === 'string' && block.text)
            return [this.chunk({ content: block.text })];
        return [];
    }
    blockDelta(index, delta) {
        switch (delta.type) {
            case 'text_delta':
                return typeof delta.text === 'string' && delta.text ? [this.chunk({ content: delta.text })] : [];
            case 'thinking_delta':
                return typeof delta.thinking === 'string' && delta.thinking ? [this.chunk({ reasoning_content: delta.thinking })] : [];
            case 'input_json_delta': {
                if (this.jsonBlocks.has(index)) {
                    if (typeof delta.partial_json !== 'string' || !delta.partial_json)
                        return [];
                    this.jsonBlocks.set(index, true);
                    return [this.chunk({ content: delta.partial_json })];
                }
                const toolIndex = this.tools.get(index);
                if (toolIndex === undefined || typeof delta.partial_json !== 'string' || !delta.partial_json)
                    return [];
                this.toolsWithArguments.add(toolIndex);
                return [this.chunk({ tool_calls: [{ index: toolIndex, function: { arguments: delta.partial_json } }] })];
            }
            default:
                // signature_delta and citations have no place in an OpenAI chunk.
                return [];
        }
    }
    /** message_delta counters are cumulative and may be absent or null; a present one replaces the earlier value. */
    addUsage(u) {
        if (!u || typeof u !== 'object')
            return;
        for (const [k, v] of Object.entries(u)) {
            if (typeof v === 'number') {
                this.usageSoFar[k] = v;
                this.sawUsage = true;
            }
        }
    }
    chunk(delta, finishReason = null) {
        return {
            id: this.id,
            object: 'chat.completion.chunk',
            created: this.created,
            model: this.model,
            choices: [{ index: 0, delta, finish_reason: finishReason }],
        };
    }
}
//# sourceMappingURL=stream.js.map