import { IncrementalCounter } from '../../tokenizer.js';
import { readUsage } from './usage.js';
/** Tokens added per streamed tool call on top of its text (the established gateway's estimate). */
const TOKENS_PER_TOOL_CALL = 7;
/** Event payloads kept (unparsed) for counting in case usage never comes; beyond this they are counted and let go. */
const UNCOUNTED_LIMIT = 64 * 1024;
/** A content delta with at least one character: the first one marks the first token. */
const HAS_TEXT = /"(content|text|reasoning_content|arguments)":"[^"]/;
const EVENT_END = Buffer.from('\n\n');
const CRLF_EVENT_END = Buffer.from('\r\n\r\n');
const USAGE = Buffer.from('"usage"');
const DONE = Buffer.from('data: [DONE]');
const EMPTY = Buffer.alloc(0);
const NEWLINE = 0x0a;
/** A tail this long without an event end is not SSE as we know it: forwarded as it is. */
const TAIL_LIMIT = 65_536;
/** Where the last whole event in buf ends (\n\n, or \r\n\r\n for servers that frame so), or -1. */
function lastEventEnd(buf) {
    const lf = buf.lastIndexOf(EVENT_END);
    if (lf >= 0)
        return lf + 2;
    const crlf = buf.lastIndexOf(CRLF_EVENT_END);
    return crlf >= 0 ? crlf + 4 : -1;
}
/** The bounds of the event around byte `at` of buf, which holds whole events. */
function eventAround(buf, at) {
    const lfBefore = buf.lastIndexOf(EVENT_END, at);
    const crlfBefore = buf.lastIndexOf(CRLF_EVENT_END, at);
    const start = Math.max(0, lfBefore >= 0 ? lfBefore + 2 : 0, crlfBefore >= 0 ? crlfBefore + 4 : 0);
    const lf = buf.indexOf(EVENT_END, at);
    const crlf = buf.indexOf(CRLF_EVENT_END, at);
    const end = lf >= 0 && (crlf < 0 || lf < crlf) ? lf + 2 : crlf >= 0 ? crlf + 4 : buf.length;
    return [start, end];
}
/** The index of the first byte after `"usage"` and its colon and blanks, or -1 when the JSON there is cut. */
function afterKeyColon(buf, keyAt) {
    let i = keyAt + USAGE.length;
    while (i < buf.length && (buf[i] === 0x20 || buf[i] === 0x3a || buf[i] === 0x09 || buf[i] === 0x0d || buf[i] === NEWLINE))
        i++;
    return i < buf.length ? i : -1;
}
/**
 * Watches an OpenAI-format SSE stream as it passes through: reads usage, notes the first token, and optionally
 * holds back the usage-only chunk a client did not ask for. Whole events are forwarded as soon as they are
 * complete, as the very bytes that arrived (no decoding, no copies in the common case). The work per upstream chunk
 * is a few byte searches over the events it completes, not a pass per event: only events whose "usage" is an object
 * are located and JSON-parsed (OpenAI sends "usage":null on every chunk of a stream that asked for usage). Until
 * usage comes the forwarded bytes are kept unparsed in case the text must be counted here — past 64 KiB they are
 * counted and let go, so memory stays bounded on long streams.
 */
export class OpenAIStreamMeter {
    dropUsageOnlyChunk;
    usage = null;
    sawDone = false;
    /** [DONE] went out to the client (it is held back while usage the client asked for has not come). */
    doneSent = false;
    firstTokenAt = 0;
    /** The first whole event, for the id, time and model of a usage chunk made here. */
    firstEvent = null;
    tail = EMPTY;
    counter;
    toolCallIds = new Set();
    uncounted = [];
    uncountedBytes = 0;
    constructor(model, dropUsageOnlyChunk) {
        this.dropUsageOnlyChunk = dropUsageOnlyChunk;
        this.counter = new IncrementalCounter(model);
    }
    /** Takes upstream bytes; returns the bytes to forward now (empty when no event is complete yet). */
    push(chunk) {
        const buf = this.tail.length > 0 ? Buffer.concat([this.tail, chunk]) : chunk;
        const end = lastEventEnd(buf);
        if (end < 0) {
            this.tail = buf;
            if (buf.length <= TAIL_LIMIT)
                return EMPTY;
            this.tail = EMPTY;
            return buf;
        }
        const complete = end === buf.length ? buf : buf.subarray(0, end);
        this.tail = end === buf.length ? EMPTY : buf.subarray(end);
        return this.inspect(complete);
    }
    /** Whatever is left at the end of the upstream body. */
    finish() {
        const rest = this.tail;
        this.tail = EMPTY;
        if (rest.toString('utf8').trim() === '')
            return EMPTY;
        return this.inspect(rest);
    }
    /** Completion tokens: as reported, else as counted from everything delivered. */
    completionTokens() {
        return this.usage?.completionTokens ?? this.counted();
    }
    counted() {
        this.countKept();
        return this.counter.total();
    }
    /** id, created and model of the stream, as its first event gave them. */
    streamIdentity() {
        let first = {};
        try {
            if (this.firstEvent)
                first = JSON.parse(dataOf(this.firstEvent.toString('utf8')));
        }
        catch {
            // not JSON: made up below
        }
        return {
            id: typeof first.id === 'string' ? first.id : `chatcmpl-${Date.now().toString(36)}`,
            created: typeof first.created === 'number' ? first.created : Math.floor(Date.now() / 1000),
            model: typeof first.model === 'string' ? first.model : '',
        };
    }
    /** Reads whole events (one or more); returns the bytes to forward (without a usage-only chunk to hold back). */
    inspect(events) {
        if (!this.firstTokenAt && HAS_TEXT.test(events.toString('latin1')))
            this.firstTokenAt = Date.now();
        if (!this.firstEvent)
            this.firstEvent = Buffer.from(events.subarray(0, eventAround(events, 0)[1]));
        let doneAt = -1;
        if (!this.sawDone) {
            const done = events.lastIndexOf(DONE);
            if (done === 0 || (done > 0 && events[done - 1] === NEWLINE)) {
                this.sawDone = true;
                doneAt = done;
            }
        }
        let out = events;
        let dropped = null;
        let keptFrom = 0;
        for (let at = events.indexOf(USAGE); at >= 0; at = events.indexOf(USAGE, at + USAGE.length)) {
            const value = afterKeyColon(events, at);
            if (value < 0 || events[value] !== 0x7b /* { */)
                continue;
            const [eventStart, eventEnd] = eventAround(events, at);
            if (!this.readUsageEvent(dataOf(events.toString('utf8', eventStart, eventEnd)))) {
                dropped ??= [];
                if (eventStart > keptFrom)
                    dropped.push(events.subarray(keptFrom, eventStart));
                keptFrom = eventEnd;
            }
            at = eventEnd - USAGE.length;
        }
        if (dropped) {
            if (keptFrom < events.length)
                dropped.push(events.subarray(keptFrom));
            out = dropped.length === 1 ? dropped[0] : Buffer.concat(dropped);
        }
        if (this.usage === null)
            this.keep(events);
        if (doneAt >= 0) {
            // A client that asked for usage gets it before [DONE]: while none came, [DONE] waits for the close.
            if (this.usage === null && !this.dropUsageOnlyChunk)
                out = out.subarray(0, out.length - (events.length - doneAt));
            else
                this.doneSent = true;
        }
        return out;
    }
    /** Returns false for an event to hold back. */
    readUsageEvent(payload) {
        let chunk;
        try {
            chunk = JSON.parse(payload);
        }
        catch {
            return true;
        }
        const usage = readUsage(chunk.usage);
        const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
        if (usage) {
            this.usage = usage;
            this.uncounted = [];
            this.uncountedBytes = 0;
        }
        return !(usage && choices.length === 0 && this.dropUsageOnlyChunk);
    }
    keep(event) {
        this.uncounted.push(event);
        this.uncountedBytes += event.length;
        if (this.uncountedBytes > UNCOUNTED_LIMIT)
            this.countKept();
    }
    countKept() {
        for (const events of this.uncounted) {
            for (const event of events.toString('utf8').split(/\r?\n\r?\n/)) {
                const data = dataOf(event).trim();
                if (!data || data === '[DONE]')
                    continue;
                try {
                    const chunk = JSON.parse(data);
                    for (const choice of chunk.choices ?? [])
                        this.countChoice(choice);
                }
                catch {
                    // not JSON: nothing to count
                }
            }
        }
        this.uncounted = [];
        this.uncountedBytes = 0;
    }
    countChoice(choice) {
        if (typeof choice.text === 'string')
            this.counter.add(choice.text);
        const d = choice.delta;
        if (!d)
            return;
        if (typeof d.content === 'string')
            this.counter.add(d.content);
        if (typeof d.reasoning_content === 'string')
            this.counter.add(d.reasoning_content);
        else if (typeof d.reasoning === 'string')
            this.counter.add(d.reasoning);
        for (const call of d.tool_calls ?? []) {
            const id = typeof call.id === 'string' ? call.id : `#${call.index ?? 0}`;
            if (!this.toolCallIds.has(id)) {
                this.toolCallIds.add(id);
                this.counter.addTokens(TOKENS_PER_TOOL_CALL);
            }
            if (typeof call.function?.name === 'string')
                this.counter.add(call.function.name);
            if (typeof call.function?.arguments === 'string')
                this.counter.add(call.function.arguments);
        }
    }
}
/** The data of an SSE event (its data: lines joined). */
function dataOf(event) {
    let out = '';
    for (const line of event.split('\n')) {
        if (line.startsWith('data:'))
            out += line.slice(line.charCodeAt(5) === 32 ? 6 : 5);
    }
    return out;
}
//# sourceMappingURL=stream.js.map