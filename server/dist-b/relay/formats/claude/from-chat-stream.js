import { claudeErrorObject } from './errors.js';
import { claudeMessageId, claudeStop, claudeUsage, matchedStopSequence } from './from-chat.js';
/** Claude's SSE framing: a named event whose data repeats the name as `type`. */
export function claudeSse(event) {
    return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}
/**
 * A ChatChunk stream as Claude's event stream: message_start, then one content block at a time (thinking, text,
 * tool_use — each start, deltas, stop), then message_delta with the stop reason and usage, then message_stop.
 * The closing events wait for finish(): OpenAI sends usage in a chunk after the one carrying finish_reason.
 */
export class ChatToClaudeStream {
    requestModel;
    promptEstimate;
    started = false;
    ended = false;
    nextIndex = 0;
    open = null;
    /** OpenAI tool_calls[].index -> Claude block index. */
    toolBlocks = new Map();
    finishReason = null;
    stopSequence = null;
    usage = null;
    /** promptEstimate fills message_start's input_tokens: OpenAI reports real usage only at the end. */
    constructor(requestModel, promptEstimate = 0) {
        this.requestModel = requestModel;
        this.promptEstimate = promptEstimate;
    }
    push(chunk) {
        if (this.ended)
            return '';
        let out = this.start(chunk.id);
        if (chunk.usage)
            this.usage = chunk.usage;
        const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0);
        if (!choice)
            return out;
        const d = choice.delta ?? {};
        if (d.reasoning_content)
            out += this.write('thinking', { type: 'thinking_delta', thinking: d.reasoning_content });
        // The signature closes the thinking it proves; one that comes after other blocks gets a thinking block of its own.
        if (d.reasoning_signature)
            out += this.write('thinking', { type: 'signature_delta', signature: d.reasoning_signature });
        if (d.content)
            out += this.write('text', { type: 'text_delta', text: d.content });
        for (const call of d.tool_calls ?? [])
            out += this.tool(call);
        if (choice.finish_reason) {
            this.finishReason = choice.finish_reason;
            this.stopSequence = matchedStopSequence(choice);
        }
        return out;
    }
    /** The closing events. usage, when given, wins over what the stream carried (e.g. counted by the gateway). */
    finish(usage) {
        if (this.ended)
            return '';
        let out = this.start(undefined) + this.closeOpen();
        this.ended = true;
        const stop = claudeStop(this.finishReason ?? (this.toolBlocks.size > 0 ? 'tool_calls' : 'stop'), this.stopSequence);
        out += claudeSse({
            type: 'message_delta',
            delta: { stop_reason: stop.reason, stop_sequence: stop.sequence },
            usage: claudeUsage(usage ?? this.usage, this.promptEstimate),
        });
        return out + claudeSse({ type: 'message_stop' });
    }
    /** A failure mid-stream, the way Anthropic reports one after the 200: an error event, and nothing after it. */
    error(status, message) {
        if (this.ended)
            return '';
        this.ended = true;
        return this.start(undefined) + claudeSse(claudeErrorObject(status, message));
    }
    start(id) {
        if (this.started)
            return '';
        this.started = true;
        return claudeSse({
            type: 'message_start',
            message: {
                id: claudeMessageId(id),
                type: 'message',
                role: 'assistant',
                content: [],
                model: this.requestModel,
                stop_reason: null,
                stop_sequence: null,
                usage: { input_tokens: this.promptEstimate, output_tokens: 0 },
            },
        });
    }
    write(kind, delta) {
        let out = '';
        let index = this.open?.kind === kind ? this.open.index : -1;
        if (index < 0) {
            out += this.closeOpen();
            index = this.nextIndex;
            out += this.openBlock({ kind }, kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '', signature: '' });
        }
        return out + claudeSse({ type: 'content_block_delta', index, delta });
    }
    tool(call) {
        let out = '';
        const toolIndex = call.index ?? 0;
        let index = this.toolBlocks.get(toolIndex);
        if (index === undefined) {
            out += this.closeOpen();
            index = this.nextIndex;
            this.toolBlocks.set(toolIndex, index);
            const id = call.id || `toolu_${String(index).padStart(2, '0')}`;
            out += this.openBlock({ kind: 'tool', toolIndex }, { type: 'tool_use', id, name: call.function?.name ?? '', input: {} });
        }
        const args = call.function?.arguments;
        // Deltas for an earlier call that arrive after the next one began still go to its own index: the SDK
        // accumulates input_json_delta by index, so nothing is lost.
        if (args)
            out += claudeSse({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: args } });
        return out;
    }
    openBlock(block, content) {
        const index = this.nextIndex++;
        this.open = { ...block, index };
        return claudeSse({ type: 'content_block_start', index, content_block: content });
    }
    closeOpen() {
        if (!this.open)
            return '';
        const index = this.open.index;
        this.open = null;
        return claudeSse({ type: 'content_block_stop', index });
    }
}
//# sourceMappingURL=from-chat-stream.js.map