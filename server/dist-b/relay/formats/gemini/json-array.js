/*
 * streamGenerateContent without `alt=sse` answers, as Gemini's REST API documents, one JSON array (application/json)
 * whose elements — the response chunks — are written as they are generated: `[{...}` then `,\r\n{...}` per chunk and
 * `]` at the end. Upstreams are always asked for SSE; this turns their events (or a converted stream's) into the
 * array as they complete, holding back only an unfinished event.
 */
const EMPTY = Buffer.alloc(0);
const LF = 0x0a;
const CR = 0x0d;
/** The headers of an array stream (the SSE ones, but JSON). */
export const JSON_STREAM_HEADERS = Object.freeze({
    'content-type': 'application/json; charset=UTF-8',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
});
/** The end of the first event at or after `from`: [end, separator length], or [-1, 0]. */
function nextEventEnd(buf, from) {
    for (let i = buf.indexOf(LF, from); i >= 0; i = buf.indexOf(LF, i + 1)) {
        if (buf[i + 1] === LF)
            return [i, 2];
        if (buf[i + 1] === CR && buf[i + 2] === LF)
            return [i, 3];
    }
    return [-1, 0];
}
/** The data of one SSE event: its `data:` lines joined (a JSON object for Gemini). */
function dataOf(event) {
    const parts = [];
    let start = 0;
    while (start < event.length) {
        let end = event.indexOf(LF, start);
        if (end < 0)
            end = event.length;
        let line = event.subarray(start, end);
        if (line[line.length - 1] === CR)
            line = line.subarray(0, -1);
        if (line.length >= 5 && line.toString('latin1', 0, 5) === 'data:')
            parts.push(line.subarray(line[5] === 0x20 ? 6 : 5));
        start = end + 1;
    }
    return parts.length === 1 ? parts[0] : Buffer.concat(parts);
}
export class SseToJsonArray {
    held = EMPTY;
    opened = false;
    /** SSE bytes in; the array's bytes for every event completed so far out. */
    push(chunk) {
        const buf = this.held.length > 0 ? Buffer.concat([this.held, chunk]) : chunk;
        const out = [];
        let start = 0;
        for (;;) {
            const [end, sep] = nextEventEnd(buf, start);
            if (end < 0)
                break;
            this.element(dataOf(buf.subarray(start, end)), out);
            start = end + sep;
        }
        this.held = start < buf.length ? Buffer.from(buf.subarray(start)) : EMPTY;
        return out.length === 0 ? EMPTY : out.length === 1 ? out[0] : Buffer.concat(out);
    }
    /** A clean end: an event left without its blank line, then the closing bracket. */
    end() {
        const out = [];
        if (this.held.length > 0)
            this.element(dataOf(this.held), out);
        this.held = EMPTY;
        out.push(Buffer.from(this.opened ? '\r\n]' : '[]'));
        return Buffer.concat(out);
    }
    /** A failure after the start: the error body as the last element (an unfinished event is dropped), then `]`. */
    fail(errorJson) {
        this.held = EMPTY;
        const out = [];
        this.element(Buffer.from(errorJson), out);
        out.push(Buffer.from('\r\n]'));
        return Buffer.concat(out);
    }
    element(data, out) {
        if (data.length === 0)
            return;
        out.push(Buffer.from(this.opened ? ',\r\n' : '['), data);
        this.opened = true;
    }
}
//# sourceMappingURL=json-array.js.map