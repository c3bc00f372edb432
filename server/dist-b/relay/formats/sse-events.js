const LF = 0x0a;
const CR = 0x0d;
const EMPTY = Buffer.alloc(0);
/** The end of the last whole SSE event in `buf` (after its blank line), 0 when none ended. */
function lastEventEnd(buf) {
    for (let i = buf.length - 1; i > 0; i--) {
        if (buf[i] !== LF)
            continue;
        if (buf[i - 1] === LF)
            return i + 1;
        if (buf[i - 1] === CR && i >= 3 && buf[i - 2] === LF && buf[i - 3] === CR)
            return i + 1;
    }
    return 0;
}
/**
 * Holds back the unfinished last event of a stream passed through, so the client only ever gets whole events: a
 * stream that stops mid-event can then be closed with an error event the client's parser reads cleanly.
 */
export class WholeEvents {
    held = EMPTY;
    /** Bytes in; the whole events among everything so far out. */
    push(chunk) {
        const buf = this.held.length > 0 ? Buffer.concat([this.held, chunk]) : chunk;
        const end = lastEventEnd(buf);
        this.held = end < buf.length ? Buffer.from(buf.subarray(end)) : EMPTY;
        return end === buf.length ? buf : buf.subarray(0, end);
    }
    /** What is held (an upstream that ended cleanly but without a last blank line). */
    take() {
        const rest = this.held;
        this.held = EMPTY;
        return rest;
    }
}
//# sourceMappingURL=sse-events.js.map