const LF2 = Buffer.from('\n\n');
const CRLF2 = Buffer.from('\r\n\r\n');
const EMPTY = Buffer.alloc(0);

/**
 * Splits an SSE byte stream into event data payloads, incrementally: only the unfinished tail is kept between
 * chunks, and bytes are decoded once an event is complete, so a character split across chunks stays whole.
 * Events may end with a blank line in either newline style (Gemini uses \r\n\r\n). `read` turns one event's text
 * into what is handed out (by default its joined data lines; null skips the event).
 */
export class SseSplitter<T = string> {
  private tail: Buffer = EMPTY;
  private readonly read: (event: string) => T | null;

  constructor(read?: (event: string) => T | null) {
    this.read = read ?? (dataOf as unknown as (event: string) => T | null);
  }

  push(chunk: Buffer): T[] {
    const buf = this.tail.length > 0 ? Buffer.concat([this.tail, chunk]) : chunk;
    const out: T[] = [];
    let start = 0;
    // Each blank-line style is searched again only once the start has passed its last match: a buffer without one
    // (OpenAI's streams never use \r\n) is not scanned to its end for it at every event.
    let lf = -2;
    let crlf = -2;
    for (;;) {
      if (lf !== -1 && lf < start) lf = buf.indexOf(LF2, start);
      if (crlf !== -1 && crlf < start) crlf = buf.indexOf(CRLF2, start);
      const useCrlf = crlf >= 0 && (lf < 0 || crlf < lf);
      const end = useCrlf ? crlf : lf;
      if (end < 0) break;
      const data = this.read(buf.subarray(start, end).toString('utf8'));
      if (data !== null) out.push(data);
      start = end + (useCrlf ? 4 : 2);
    }
    this.tail = start < buf.length ? Buffer.from(buf.subarray(start)) : EMPTY;
    return out;
  }

  /** The last event when the body ends without a blank line. */
  finish(): T[] {
    const rest = this.tail;
    this.tail = EMPTY;
    const data = this.read(rest.toString('utf8'));
    return data !== null && !(typeof data === 'string' && data.trim() === '') ? [data] : [];
  }
}

/** The joined data: lines of one event; null for events without data (comments, keep-alives). */
function dataOf(event: string): string | null {
  // The common event: one data line.
  if (event.startsWith('data: ') && !event.includes('\n')) return event.endsWith('\r') ? event.slice(6, -1) : event.slice(6);
  let out: string | null = null;
  for (const raw of event.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (!line.startsWith('data:')) continue;
    const value = line.slice(line.charCodeAt(5) === 32 ? 6 : 5);
    out = out === null ? value : `${out}\n${value}`;
  }
  return out;
}

/** An event's data as a JSON object; null for an event without one (a keep-alive, [DONE], a cut-off last event). */
export function jsonEventData(event: string): Record<string, unknown> | null {
  const data = dataOf(event);
  if (data === null) return null;
  try {
    const parsed: unknown = JSON.parse(data);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
