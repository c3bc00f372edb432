import { IncrementalCounter } from '../../tokenizer.js';
import type { Usage } from '../../types.js';
import { SseReader, type SseEvent } from './sse.js';
import { relayUsageFromClaude, type RawClaudeUsage } from './usage.js';

export { claudeUsageFromJson } from './usage.js';

/** Tokens added per streamed tool call on top of its text (same estimate as the OpenAI meter). */
const TOKENS_PER_TOOL_CALL = 7;
/** Content events kept unparsed for counting in case usage never comes; beyond this they are counted and let go. */
const UNCOUNTED_LIMIT = 64 * 1024;
/** A delta with at least one character of text, thought or tool input marks the first token. */
const HAS_TEXT = /"(text|thinking|partial_json)":"[^"]/;

type Parsed = {
  message?: { usage?: RawClaudeUsage };
  usage?: RawClaudeUsage;
  content_block?: { type?: string; name?: unknown };
  delta?: { text?: unknown; thinking?: unknown; partial_json?: unknown };
  error?: { type?: unknown; message?: unknown };
};

/**
 * Watches a Claude SSE stream passed through to a Claude client. Bytes are returned unchanged as they arrive (thinking
 * signatures must survive byte for byte); events are read on the side. Usage comes from message_start (input and
 * cache) and message_delta (cumulative totals). Only those and error events are JSON-parsed; content deltas are kept
 * unparsed in case the stream breaks before message_delta and its output must be counted here — past 64 KiB they are
 * counted and let go, so memory stays bounded.
 */
export class ClaudeStreamMeter {
  firstTokenAt = 0;
  /** message_stop arrived: the answer is complete. */
  sawStop = false;
  /** An error event arrived mid-stream. */
  error: { type: string; message: string } | null = null;
  private startUsage: RawClaudeUsage = {};
  private finalUsage: RawClaudeUsage | null = null;
  private readonly reader = new SseReader();
  private readonly counter: IncrementalCounter;
  private uncounted: string[] = [];
  private uncountedBytes = 0;

  constructor(model: string) {
    this.counter = new IncrementalCounter(model);
  }

  /** Takes upstream bytes; returns the same bytes to forward now. */
  push(chunk: Buffer): Buffer {
    for (const event of this.reader.push(chunk)) this.inspect(event);
    return chunk;
  }

  /** Call when the upstream body ends, to read an event that lacked its closing blank line. */
  finish(): void {
    for (const event of this.reader.finish()) this.inspect(event);
  }

  /** Usage as reported once message_delta came; null before that. */
  get usage(): Usage | null {
    return this.finalUsage ? relayUsageFromClaude({ ...this.startUsage, ...this.finalUsage }) : null;
  }

  /** Usage to bill: as reported, else the prompt side from message_start and the output counted here. */
  billedUsage(): Usage {
    return this.usage ?? { ...relayUsageFromClaude(this.startUsage), completionTokens: this.counted() };
  }

  completionTokens(): number {
    return this.usage?.completionTokens ?? this.counted();
  }

  counted(): number {
    this.countKept();
    return this.counter.total();
  }

  private inspect(e: SseEvent): void {
    const name = e.event || typeOf(e.data);
    switch (name) {
      case 'content_block_delta':
      case 'content_block_start':
        if (!this.firstTokenAt && name === 'content_block_delta' && HAS_TEXT.test(e.data)) this.firstTokenAt = Date.now();
        if (this.finalUsage === null) this.keep(e.data);
        return;
      case 'message_start':
        this.startUsage = parse(e.data)?.message?.usage ?? {};
        return;
      case 'message_delta': {
        const usage = parse(e.data)?.usage;
        if (usage) {
          this.finalUsage = { ...this.finalUsage, ...definedOnly(usage) };
          this.uncounted = [];
          this.uncountedBytes = 0;
        }
        return;
      }
      case 'message_stop':
        this.sawStop = true;
        return;
      case 'error': {
        const err = parse(e.data)?.error;
        this.error = {
          type: typeof err?.type === 'string' ? err.type : 'api_error',
          message: typeof err?.message === 'string' ? err.message : '',
        };
        return;
      }
    }
  }

  private keep(data: string): void {
    this.uncounted.push(data);
    this.uncountedBytes += data.length;
    if (this.uncountedBytes > UNCOUNTED_LIMIT) this.countKept();
  }

  private countKept(): void {
    for (const data of this.uncounted) {
      const p = parse(data);
      if (!p) continue;
      if (p.content_block?.type === 'tool_use') {
        this.counter.addTokens(TOKENS_PER_TOOL_CALL);
        if (typeof p.content_block.name === 'string') this.counter.add(p.content_block.name);
      }
      const d = p.delta;
      if (typeof d?.text === 'string') this.counter.add(d.text);
      if (typeof d?.thinking === 'string') this.counter.add(d.thinking);
      if (typeof d?.partial_json === 'string') this.counter.add(d.partial_json);
    }
    this.uncounted = [];
    this.uncountedBytes = 0;
  }
}

function parse(data: string): Parsed | null {
  try {
    const v: unknown = JSON.parse(data);
    return v && typeof v === 'object' ? (v as Parsed) : null;
  } catch {
    return null;
  }
}

/** Streams without `event:` lines still name the event in the data's type. */
function typeOf(data: string): string {
  const m = /"type"\s*:\s*"([a-z_]+)"/.exec(data);
  return m ? m[1] : '';
}

/** message_delta omits or nulls counters that did not change; those keep message_start's values. */
function definedOnly(u: RawClaudeUsage): RawClaudeUsage {
  const out: RawClaudeUsage = {};
  for (const [k, v] of Object.entries(u) as Array<[keyof RawClaudeUsage, unknown]>) if (v !== null && v !== undefined) out[k] = v;
  return out;
}
