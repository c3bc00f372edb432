import { IncrementalCounter } from '../tokenizer.js';
import type { Usage } from '../types.js';
import { SseReader, type SseEvent } from './claude/sse.js';

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
export abstract class SideMeter<Parsed extends object> {
  firstTokenAt = 0;
  protected readonly counter: IncrementalCounter;
  private readonly reader = new SseReader();
  private usageCame = false;
  private uncounted: string[] = [];
  private uncountedBytes = 0;

  constructor(model: string) {
    this.counter = new IncrementalCounter(model);
  }

  /** Usage as the upstream reported it; null before that. */
  abstract get usage(): Usage | null;

  /** Reads one whole event; `name` is its `event:` field, or the type its data names. */
  protected abstract inspect(name: string, data: string): void;

  /** Counts the output of one kept event, once parsed. */
  protected abstract count(event: Parsed): void;

  /** Takes upstream bytes; returns the same bytes to forward now. */
  push(chunk: Buffer): Buffer {
    for (const event of this.reader.push(chunk)) this.read(event);
    return chunk;
  }

  /** Call when the upstream body ends, to read an event that lacked its closing blank line. */
  finish(): void {
    for (const event of this.reader.finish()) this.read(event);
  }

  completionTokens(): number {
    return this.usage?.completionTokens ?? this.counted();
  }

  counted(): number {
    this.countKept();
    return this.counter.total();
  }

  /** Keeps an output event to count, unless usage already came. */
  protected keep(data: string): void {
    if (this.usageCame) return;
    this.uncounted.push(data);
    this.uncountedBytes += data.length;
    if (this.uncountedBytes > UNCOUNTED_LIMIT) this.countKept();
  }

  /** Usage came: what was kept will never be counted. */
  protected usageReported(): void {
    this.usageCame = true;
    this.uncounted = [];
    this.uncountedBytes = 0;
  }

  protected parse(data: string): Parsed | null {
    return parseObject<Parsed>(data);
  }

  private read(e: SseEvent): void {
    this.inspect(e.event || typeOf(e.data), e.data);
  }

  private countKept(): void {
    for (const data of this.uncounted) {
      const p = this.parse(data);
      if (p) this.count(p);
    }
    this.uncounted = [];
    this.uncountedBytes = 0;
  }
}

function parseObject<T extends object>(data: string): T | null {
  try {
    const v: unknown = JSON.parse(data);
    return v && typeof v === 'object' ? (v as T) : null;
  } catch {
    return null;
  }
}

/** Streams without `event:` lines still name the event in the data's type. */
function typeOf(data: string): string {
  const m = /"type"\s*:\s*"([a-z_.]+)"/.exec(data);
  return m ? m[1] : '';
}
