export interface SseEvent {
  /** The `event:` field, '' when the event had none. */
  event: string;
  /** The `data:` lines joined with \n. */
  data: string;
}

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
/** A line longer than this is dropped rather than buffered: an upstream that never sends a newline must not grow memory. */
const MAX_LINE_BYTES = 8 * 1024 * 1024;

/**
 * Incremental SSE parsing: bytes in, whole events out. Only the unfinished last line is carried between calls, so no
 * byte is scanned twice and a character split across chunks is decoded once it is whole. \n and \r\n line ends both
 * work; comments and id/retry fields are ignored.
 */
export class SseReader {
  private partial: Buffer[] = [];
  private partialBytes = 0;
  private dropping = false;
  private event = '';
  private data: string[] = [];

  push(chunk: Buffer): SseEvent[] {
    const out: SseEvent[] = [];
    let buf = chunk;
    if (this.dropping) {
      const nl = chunk.indexOf(LF);
      if (nl < 0) return out;
      this.dropping = false;
      buf = chunk.subarray(nl + 1);
    }
    const last = buf.lastIndexOf(LF);
    if (last < 0) {
      this.keep(buf);
      return out;
    }
    if (this.partial.length > 0) {
      const head = this.partialBytes;
      buf = Buffer.concat([...this.partial, buf]);
      this.partial = [];
      this.partialBytes = 0;
      this.lines(buf.toString('utf8', 0, head + last + 1), out);
      if (head + last + 1 < buf.length) this.keep(buf.subarray(head + last + 1));
    } else {
      // Whole lines are decoded at once: a line feed never falls inside a character, so none is split here.
      this.lines(buf.toString('utf8', 0, last + 1), out);
      if (last + 1 < buf.length) this.keep(buf.subarray(last + 1));
    }
    return out;
  }

  /**
   * Text made of whole lines (it ends with \n). The two fields read are recognised in place, so a line costs one
   * slice (its value); every other line goes through line().
   */
  private lines(text: string, out: SseEvent[]): void {
    let start = 0;
    while (start < text.length) {
      const nl = text.indexOf('\n', start);
      const end = nl > start && text.charCodeAt(nl - 1) === CR ? nl - 1 : nl;
      if (text.startsWith('data:', start)) this.data.push(text.slice(text.charCodeAt(start + 5) === SPACE ? start + 6 : start + 5, end));
      else if (text.startsWith('event:', start)) this.event = text.slice(text.charCodeAt(start + 6) === SPACE ? start + 7 : start + 6, end);
      else this.line(text.slice(start, end), out);
      start = nl + 1;
    }
  }

  /** The unfinished last line, until its end comes (or dropped when it grows past the limit). */
  private keep(rest: Buffer): void {
    if (rest.length === 0) return;
    this.partial.push(rest);
    this.partialBytes += rest.length;
    if (this.partialBytes > MAX_LINE_BYTES) {
      this.partial = [];
      this.partialBytes = 0;
      this.dropping = true;
    }
  }

  /** The event left open when the body ended without its blank line. */
  finish(): SseEvent[] {
    const out: SseEvent[] = [];
    if (this.partial.length > 0) {
      const text = Buffer.concat(this.partial).toString('utf8');
      this.partial = [];
      this.partialBytes = 0;
      this.line(text.charCodeAt(text.length - 1) === CR ? text.slice(0, -1) : text, out);
    }
    this.line('', out);
    return out;
  }

  private line(text: string, out: SseEvent[]): void {
    if (text.length === 0) {
      if (this.data.length > 0 || this.event) out.push({ event: this.event, data: this.data.join('\n') });
      this.event = '';
      this.data = [];
      return;
    }
    const colon = text.indexOf(':');
    if (colon === 0) return;
    const field = colon < 0 ? text : text.slice(0, colon);
    const value = colon < 0 ? '' : text.slice(text.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
  }
}
