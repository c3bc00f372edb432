import { IncrementalCounter } from '../tokenizer.js';
import { SseReader } from './claude/sse.js';
/** Tokens added per streamed tool call on top of its text (the same estimate in every meter). */
export const TOKENS_PER_TOOL_CALL = 7;
/** Output events kept unparsed for counting in case usage never comes; beyond this they are counted and let go. */
const UNCOUNTED_LIMIT = 64 * 1024;
/**
 * The shared half of the meters that read a passed-through SSE stream on the side (Claude, Responses): bytes are
 * returned unchanged as they arrive and events are read whole. A format reads its usage from its own events; until
 * that usage comes, output events are kept unparsed in case the stream breaks first and the output must be counted
 * here — past 64 KiB they are counted and let go, so memory stays bounded.
 */
export class SideMeter {
    firstTokenAt = 0;
    counter;
    reader = new SseReader();
    usageCame = false;
    uncounted = [];
    uncountedBytes = 0;
    constructor(model) {
        this.counter = new IncrementalCounter(model);
    }
    /** Takes upstream bytes; returns the same bytes to forward now. */
    push(chunk) {
        for (const event of this.reader.push(chunk))
            this.read(event);
        return chunk;
    }
    /** Call when the upstream body ends, to read an event that lacked its closing blank line. */
    finish() {
        for (const event of this.reader.finish())
            this.read(event);
    }
    completionTokens() {
        return this.usage?.completionTokens ?? this.counted();
    }
    counted() {
        this.countKept();
        return this.counter.total();
    }
    /** Keeps an output event to count, unless usage already came. */
    keep(data) {
        if (this.usageCame)
            return;
        this.uncounted.push(data);
        this.uncountedBytes += data.length;
        if (this.uncountedBytes > UNCOUNTED_LIMIT)
            this.countKept();
    }
    /** Usage came: what was kept will never be counted. */
    usageReported() {
        this.usageCame = true;
        this.uncounted = [];
        this.uncountedBytes = 0;
    }
    parse(data) {
        return parseObject(data);
    }
    read(e) {
        this.inspect(e.event || typeOf(e.data), e.data);
    }
    countKept() {
        for (const data of this.uncounted) {
            const p = this.parse(data);
            if (p)
                this.count(p);
        }
        this.uncounted = [];
        this.uncountedBytes = 0;
    }
}
function parseObject(data) {
    try {
        const v = JSON.parse(data);
        return v && typeof v === 'object' ? v : null;
    }
    catch {
        return null;
    }
}
/** Streams without `event:` lines still name the event in the data's type. */
function typeOf(data) {
    const m = /"type"\s*:\s*"([a-z_.]+)"/.exec(data);
    return m ? m[1] : '';
}
//# sourceMappingURL=side-meter.js.map