import { IncrementalCounter } from '../../tokenizer.js';
import type { Usage } from '../../types.js';
import { readUsage } from './usage.js';

/** Tokens added per streamed tool call on top of its text (the established gateway's estimate). */
const TOKENS_PER_TOOL_CALL = 7;
/** Event payloads kept (unparsed) for counting in case usage never comes; beyond this they are counted and let go. */
const UNCOUNTED_LIMIT = 64 * 1024;

type Delta = {
  content?: unknown;
  reasoning_content?: unknown;
  reasoning?: unknown;
  tool_calls?: Array<{ index?: number; id?: unknown; function?: { name?: unknown; arguments?: unknown } }>;
};
type Chunk = { choices?: Array<{ delta?: Delta; text?: unknown }>; usage?: unknown };

/** A content delta with at least one character: the first one marks the first token. */
const HAS_TEXT = /"(content|text|reasoning_content|arguments)":"[^"]/;
const EVENT_END = Buffer.from('\n\n');
const USAGE = Buffer.from('"usage"');
const DONE = Buffer.from('data: [DONE]');
const EMPTY = Buffer.alloc(0);

/**
 * Watches an OpenAI-format SSE stream as it passes through: reads usage, notes the first token, and optionally
 * holds back the usage-only chunk a client did not ask for. Whole events are forwarded as soon as they are
 * complete, as the very bytes that arrived (no decoding, no copies in the common case). Parsing is lazy: only
 * events carrying usage are JSON-parsed; the others are kept unparsed in case usage never comes and the text must be
 * counted here — past 64 KiB they are counted and let go, so memory stays bounded on long streams.
 */
export class OpenAIStreamMeter {
  usage: Usage | null = null;
  sawDone = false;
  firstTokenAt = 0;
  private tail: Buffer = EMPTY;
  private readonly counter: IncrementalCounter;
  private readonly toolCallIds = new Set<string>();
  private uncounted: Buffer[] = [];
  private uncountedBytes = 0;

  constructor(
    model: string,
    private readonly dropUsageOnlyChunk: boolean,
  ) {
    this.counter = new IncrementalCounter(model);
  }

  /** Takes upstream bytes; returns the bytes to forward now (empty when no event is complete yet). */
  push(chunk: Buffer): Buffer {
    const buf = this.tail.length > 0 ? Buffer.concat([this.tail, chunk]) : chunk;
    const parts: Buffer[] = [];
    let start = 0;
    let runStart = 0;
    for (;;) {
      const end = buf.indexOf(EVENT_END, start);
      if (end < 0) break;
      const next = end + 2;
      if (!this.inspect(buf.subarray(start, next))) {
        if (start > runStart) parts.push(buf.subarray(runStart, start));
        runStart = next;
      }
      start = next;
    }
    if (start > runStart) parts.push(buf.subarray(runStart, start));
    this.tail = buf.subarray(start);
    // Upstreams that frame events with \r\n\r\n are rare; forward their bytes as they are rather than hold them.
    if (this.tail.length > 65_536) {
      parts.push(this.tail);
      this.tail = EMPTY;
    }
    return parts.length === 1 ? parts[0] : parts.length === 0 ? EMPTY : Buffer.concat(parts);
  }

  /** Whatever is left at the end of the upstream body. */
  finish(): Buffer {
    const rest = this.tail;
    this.tail = EMPTY;
    if (rest.toString('utf8').trim() === '') return EMPTY;
    return this.inspect(rest) ? rest : EMPTY;
  }

  /** Completion tokens: as reported, else as counted from everything delivered. */
  completionTokens(): number {
    return this.usage?.completionTokens ?? this.counted();
  }

  counted(): number {
    this.countKept();
    return this.counter.total();
  }

  /** Returns false for an event to hold back. */
  private inspect(event: Buffer): boolean {
    if (event.indexOf(DONE) >= 0) {
      this.sawDone = true;
      return true;
    }
    if (!this.firstTokenAt && HAS_TEXT.test(event.toString('utf8'))) this.firstTokenAt = Date.now();
    if (event.indexOf(USAGE) >= 0) return this.readUsageEvent(dataOf(event.toString('utf8')));
    if (this.usage === null) this.keep(event);
    return true;
  }

  private readUsageEvent(payload: string): boolean {
    let chunk: Chunk;
    try {
      chunk = JSON.parse(payload) as Chunk;
    } catch {
      return true;
    }
    const usage = readUsage(chunk.usage);
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    if (usage) {
      this.usage = usage;
      this.uncounted = [];
      this.uncountedBytes = 0;
    } else {
      for (const choice of choices) this.countChoice(choice);
    }
    return !(usage && choices.length === 0 && this.dropUsageOnlyChunk);
  }

  private keep(event: Buffer): void {
    this.uncounted.push(event);
    this.uncountedBytes += event.length;
    if (this.uncountedBytes > UNCOUNTED_LIMIT) this.countKept();
  }

  private countKept(): void {
    for (const event of this.uncounted) {
      try {
        const chunk = JSON.parse(dataOf(event.toString('utf8'))) as Chunk;
        for (const choice of chunk.choices ?? []) this.countChoice(choice);
      } catch {
        // not JSON: nothing to count
      }
    }
    this.uncounted = [];
    this.uncountedBytes = 0;
  }

  private countChoice(choice: { delta?: Delta; text?: unknown }): void {
    if (typeof choice.text === 'string') this.counter.add(choice.text);
    const d = choice.delta;
    if (!d) return;
    if (typeof d.content === 'string') this.counter.add(d.content);
    if (typeof d.reasoning_content === 'string') this.counter.add(d.reasoning_content);
    else if (typeof d.reasoning === 'string') this.counter.add(d.reasoning);
    for (const call of d.tool_calls ?? []) {
      const id = typeof call.id === 'string' ? call.id : `#${call.index ?? 0}`;
      if (!this.toolCallIds.has(id)) {
        this.toolCallIds.add(id);
        this.counter.addTokens(TOKENS_PER_TOOL_CALL);
      }
      if (typeof call.function?.name === 'string') this.counter.add(call.function.name);
      if (typeof call.function?.arguments === 'string') this.counter.add(call.function.arguments);
    }
  }
}

/** The data of an SSE event (its data: lines joined). */
function dataOf(event: string): string {
  let out = '';
  for (const line of event.split('\n')) {
    if (line.startsWith('data:')) out += line.slice(line.charCodeAt(5) === 32 ? 6 : 5);
  }
  return out;
}
