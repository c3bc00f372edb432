import { endingOf, requestModel, responseShell, responsesUsage } from './from-chat.js';
import { itemId, responseId } from './ids.js';
/**
 * A ChatChunk stream as the Responses event stream: response.created and response.in_progress, then one output item
 * at a time — reasoning (summary text events), the message (output_text / refusal parts), function calls (argument
 * deltas) — each opened, filled and closed, then response.completed (or response.incomplete) carrying the whole
 * response with usage. The closing events wait for finish(): OpenAI-style upstreams send usage in a chunk after the
 * one carrying finish_reason. The answer is kept because the protocol repeats it whole in the closing events.
 *
 * Function calls stay open until the answer ends (or text resumes): a chat upstream may interleave the argument
 * deltas of parallel calls, and clients act on output_item.done, so it must never carry partial arguments.
 */
export class ChatToResponsesStream {
    req;
    model;
    base;
    seq = 0;
    started = false;
    ended = false;
    shell = null;
    output = [];
    open = null;
    /** chat tool_calls[].index -> the function_call item. */
    calls = new Map();
    openCalls = [];
    finishReason = null;
    usage = null;
    /** The whole response as the closing event carried it, once finish() ran. */
    finished = null;
    /**
     * req is the client's Responses request (its settings are echoed); model is the name reported to the client; base
     * names the response and its items (ids.ts: newIdBase).
     */
    constructor(req, model, base) {
        this.req = req;
        this.model = model;
        this.base = base;
    }
    push(chunk) {
        if (this.ended)
            return '';
        let out = this.start(chunk.created);
        if (chunk.usage)
            this.usage = chunk.usage;
        const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0);
        if (!choice)
            return out;
        const d = choice.delta ?? {};
        if (d.reasoning_content)
            out += this.reasoning(d.reasoning_content);
        if (d.content)
            out += this.text('output_text', d.content);
        const refusal = d.refusal;
        if (typeof refusal === 'string' && refusal)
            out += this.text('refusal', refusal);
        for (const call of d.tool_calls ?? [])
            out += this.tool(call);
        if (choice.finish_reason)
            this.finishReason = choice.finish_reason;
        return out;
    }
    /** The closing events. usage, when given, wins over what the stream carried (e.g. counted by the gateway). */
    finish(usage) {
        if (this.ended)
            return '';
        let out = this.start(undefined);
        this.ended = true;
        const ending = endingOf(this.finishReason);
        const status = ending.status === 'completed' ? 'completed' : 'incomplete';
        out += this.closeOpen(status) + this.closeCalls(status);
        const response = { ...this.response(), ...ending, usage: responsesUsage(usage ?? this.usage) };
        this.finished = response;
        return out + this.event({ type: ending.status === 'completed' ? 'response.completed' : 'response.incomplete', response });
    }
    /**
     * A failure after the stream began: the documented error event, then response.failed as the terminal event with
     * what was produced so far (the item being written marked incomplete). Nothing follows.
     */
    error(message, code = 'server_error') {
        if (this.ended)
            return '';
        let out = this.start(undefined);
        this.ended = true;
        if (this.open?.kind === 'message')
            this.open.item.status = 'incomplete';
        for (const call of this.openCalls)
            call.item.status = 'incomplete';
        this.open = null;
        this.openCalls = [];
        out += this.event({ type: 'error', code, message, param: null });
        const response = { ...this.response(), status: 'failed', error: { code, message }, usage: responsesUsage(this.usage) };
        return out + this.event({ type: 'response.failed', response });
    }
    event(e) {
        const { type, ...rest } = e;
        return `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: this.seq++, ...rest })}\n\n`;
    }
    /** The response so far. Events are serialised as soon as they are made, so sharing the live items is safe. */
    response() {
        return { ...this.shell, output: this.output };
    }
    start(created) {
        if (this.started)
            return '';
        this.started = true;
        const createdAt = typeof created === 'number' && created > 0 ? created : Math.floor(Date.now() / 1000);
        this.shell = responseShell(this.req, this.model || requestModel(this.req, ''), responseId(this.base), createdAt);
        return this.event({ type: 'response.created', response: this.response() }) + this.event({ type: 'response.in_progress', response: this.response() });
    }
    addItem(item) {
        this.output.push(item);
        return this.event({ type: 'response.output_item.added', output_index: this.output.length - 1, item: item });
    }
    reasoning(delta) {
        let out = '';
        if (this.open?.kind !== 'reasoning') {
            out += this.closeOpen('completed') + this.closeCalls('completed');
            const index = this.output.length;
            const item = { id: itemId('rs', this.base, index), type: 'reasoning', summary: [] };
            out += this.addItem(item);
            item.summary.push({ type: 'summary_text', text: '' });
            out += this.event({ type: 'response.reasoning_summary_part.added', item_id: item.id, output_index: index, summary_index: 0, part: { type: 'summary_text', text: '' } });
            this.open = { kind: 'reasoning', index, item };
        }
        const { index, item } = this.open;
        item.summary[0].text += delta;
        return out + this.event({ type: 'response.reasoning_summary_text.delta', item_id: item.id, output_index: index, summary_index: 0, delta });
    }
    text(kind, delta) {
        let out = '';
        if (this.open?.kind !== 'message') {
            out += this.closeOpen('completed') + this.closeCalls('completed');
            const index = this.output.length;
            const item = { id: itemId('msg', this.base, index), type: 'message', status: 'in_progress', role: 'assistant', content: [] };
            out += this.addItem(item);
            this.open = { kind: 'message', index, item, part: -1 };
        }
        const open = this.open;
        if (open.item.content[open.part]?.type !== kind) {
            out += this.closePart(open);
            const part = kind === 'output_text' ? { type: kind, text: '', annotations: [], logprobs: [] } : { type: kind, refusal: '' };
            open.item.content.push(part);
            open.part = open.item.content.length - 1;
            out += this.event({ type: 'response.content_part.added', item_id: open.item.id, output_index: open.index, content_index: open.part, part: part });
        }
        const located = { item_id: open.item.id, output_index: open.index, content_index: open.part };
        const part = open.item.content[open.part];
        if (part.type === 'output_text') {
            part.text += delta;
            return out + this.event({ type: 'response.output_text.delta', ...located, delta, logprobs: [] });
        }
        part.refusal += delta;
        return out + this.event({ type: 'response.refusal.delta', ...located, delta });
    }
    tool(call) {
        let out = '';
        const toolIndex = call.index ?? 0;
        let known = this.calls.get(toolIndex);
        if (!known) {
            out += this.closeOpen('completed');
            const index = this.output.length;
            const item = {
                id: itemId('fc', this.base, index),
                type: 'function_call',
                status: 'in_progress',
                call_id: call.id || `call_${this.base}_${index}`,
                name: call.function?.name ?? '',
                arguments: '',
            };
            out += this.addItem(item);
            known = { index, item };
            this.calls.set(toolIndex, known);
            this.openCalls.push(known);
        }
        else if (!known.item.name && call.function?.name) {
            known.item.name = call.function.name;
        }
        const args = call.function?.arguments;
        if (!args)
            return out;
        known.item.arguments += args;
        return out + this.event({ type: 'response.function_call_arguments.delta', item_id: known.item.id, output_index: known.index, delta: args });
    }
    closePart(open) {
        const part = open.item.content[open.part];
        if (!part)
            return '';
        const located = { item_id: open.item.id, output_index: open.index, content_index: open.part };
        const done = part.type === 'output_text'
            ? this.event({ type: 'response.output_text.done', ...located, text: part.text, logprobs: [] })
            : this.event({ type: 'response.refusal.done', ...located, refusal: part.refusal });
        return done + this.event({ type: 'response.content_part.done', ...located, part: part });
    }
    closeOpen(status) {
        const open = this.open;
        if (!open)
            return '';
        this.open = null;
        let out = '';
        if (open.kind === 'reasoning') {
            const part = open.item.summary[0];
            const located = { item_id: open.item.id, output_index: open.index, summary_index: 0 };
            out += this.event({ type: 'response.reasoning_summary_text.done', ...located, text: part.text });
            out += this.event({ type: 'response.reasoning_summary_part.done', ...located, part });
        }
        else {
            out += this.closePart(open);
            open.item.status = status;
        }
        return out + this.event({ type: 'response.output_item.done', output_index: open.index, item: open.item });
    }
    closeCalls(status) {
        let out = '';
        for (const { index, item } of this.openCalls) {
            out += this.event({ type: 'response.function_call_arguments.done', item_id: item.id, output_index: index, name: item.name, arguments: item.arguments });
            item.status = status;
            out += this.event({ type: 'response.output_item.done', output_index: index, item: item });
        }
        this.openCalls = [];
        return out;
    }
}
//# sourceMappingURL=from-chat-stream.js.map