const LF = 0x0a;
const CR = 0x0d;
/** A line longer than this is dropped rather than buffered: an upstream that never sends a newline must not grow memory. */
const MAX_LINE_BYTES = 8 * 1024 * 1024;
/**
 * Incremental SSE parsing: bytes in, whole events out. Only the unfinished last line is carried between calls, so no
 * byte is scanned twice and a character split across chunks is decoded once it is whole. \n and \r\n line ends both
 * work; comments and id/retry fields are ignored.
 */
export class SseReader {
    partial = [];
    partialBytes = 0;
    dropping = false;
    event = '';
    data = [];
    push(chunk) {
        const out = [];
        let start = 0;
        for (;;) {
            const nl = chunk.indexOf(LF, start);
            if (nl < 0)
                break;
            let line = chunk.subarray(start, nl);
            start = nl + 1;
            if (this.dropping) {
                this.dropping = false;
                continue;
            }
            if (this.partial.length > 0) {
                line = Buffer.concat([...this.partial, line]);
                this.partial = [];
                this.partialBytes = 0;
            }
            this.line(line.length > 0 && line[line.length - 1] === CR ? line.subarray(0, -1) : line, out);
        }
        if (start < chunk.length && !this.dropping) {
            this.partial.push(chunk.subarray(start));
            this.partialBytes += chunk.length - start;
            if (this.partialBytes > MAX_LINE_BYTES) {
                this.partial = [];
                this.partialBytes = 0;
                this.dropping = true;
            }
        }
        return out;
    }
    /** The event left open when the body ended without its blank line. */
    finish() {
        const out = [];
        if (this.partial.length > 0) {
            const line = Buffer.concat(this.partial);
            this.partial = [];
            this.partialBytes = 0;
            this.line(line[line.length - 1] === CR ? line.subarray(0, -1) : line, out);
        }
        this.line(Buffer.alloc(0), out);
        return out;
    }
    line(line, out) {
        if (line.length === 0) {
            if (this.data.length > 0 || this.event)
                out.push({ event: this.event, data: this.data.join('\n') });
            this.event = '';
            this.data = [];
            return;
        }
        const text = line.toString('utf8');
        const colon = text.indexOf(':');
        if (colon === 0)
            return;
        const field = colon < 0 ? text : text.slice(0, colon);
        const value = colon < 0 ? '' : text.slice(text.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1);
        if (field === 'event')
            this.event = value;
        else if (field === 'data')
            this.data.push(value);
    }
}
//# sourceMappingURL=sse.js.map