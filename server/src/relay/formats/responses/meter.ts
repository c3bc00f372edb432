import { IncrementalCounter } from '../../tokenizer.js';
import type { Usage } from '../../types.js';
import { SseReader, type SseEvent } from '../claude/sse.js';
import { usageOfResponseBytes } from './usage.js';

export { responsesUsageFromJson } from './usage.js';

/** Tokens added per streamed tool call on top of its text (same estimate as the OpenAI and Claude meters). */
const TOKENS_PER_TOOL_CALL = 7;
/** Delta events kept unparsed for counting in case usage never comes; beyond this they are counted and let go. */
const UNCOUNTED_LIMIT = 64 * 1024;
/** A delta with at least one character marks the first token. */
const HAS_DELTA = /"delta"\s*:\s*"[^"]/;

/** Events whose `delta` is generated output: answer text, refusals, tool arguments, thoughts. */
const OUTPUT_DELTAS = new Set([
  'response.output_text.delta',
  'response.refusal.delta',
  'response.function_call_arguments.delta',
  'response.custom_tool_call_input.delta',
  'response.reasoning_summary_text.delta',
  'response.reasoning_text.delta',
]);

type Parsed = {
  delta?: unknown;
  item?: { type?: unknown; name?: unknown };
  response?: { error?: { code?: unknown; message?: unknown } | null };
  code?: unknown;
  message?: unknown;
};

/**
 * Watches a Responses SSE stream passed through to a Responses client. Bytes are returned unchanged as they arrive;
 * events are read on the side. Usage comes from the terminal event (response.completed, response.incomplete or
 * response.failed), which repeats the whole response; only those, error events and function-call items are
 * JSON-parsed. Output deltas are kept unparsed in case the stream breaks before the terminal event and the output
 * must be counted here — past 64 KiB they are counted and let go, so memory stays bounded.
 */
export class ResponsesStreamMeter {
  firstTokenAt = 0;
  /** response.completed or response.incomplete arrived: the answer is whole (as far as it goes). */
  sawStop = false;
  /** An error event or response.failed arrived. */
  error: { code: string; message: string } | null = null;
  private finalUsage: Usage | null = null;
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

  /** Usage as reported by the terminal event; null before that (or when it reported none). */
  get usage(): Usage | null {
    return this.finalUsage;
  }

  /** Usage to bill: as reported, else the prompt estimate given and the output counted here. */
  billedUsage(promptEstimate = 0): Usage {
    return this.finalUsage ?? { promptTokens: promptEstimate, completionTokens: this.counted(), cachedTokens: 0 };
  }

  completionTokens(): number {
    return this.finalUsage?.completionTokens ?? this.counted();
  }

  counted(): number {
    this.countKept();
    return this.counter.total();
  }

  private inspect(e: SseEvent): void {
    const name = e.event || typeOf(e.data);
    if (OUTPUT_DELTAS.has(name)) {
      if (!this.firstTokenAt && HAS_DELTA.test(e.data)) this.firstTokenAt = Date.now();
      if (this.finalUsage === null) this.keep(e.data);
      return;
    }
    switch (name) {
      case 'response.output_item.added':
        if (this.finalUsage === null && e.data.includes('"function_call"')) this.keep(e.data);
        return;
      case 'response.completed':
      case 'response.incomplete':
      case 'response.failed': {
        const usage = usageOfResponseBytes(Buffer.from(e.data), true);
        if (usage) {
          this.finalUsage = usage;
          this.uncounted = [];
          this.uncountedBytes = 0;
        }
        if (name === 'response.failed') {
          const err = parse(e.data)?.response?.error;
          this.error = { code: str(err?.code, 'server_error'), message: str(err?.message, '') };
        } else {
          this.sawStop = true;
        }
        return;
      }
      case 'error': {
        const p = parse(e.data);
        this.error = { code: str(p?.code, 'server_error'), message: str(p?.message, '') };
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
      if (p.item?.type === 'function_call') {
        this.counter.addTokens(TOKENS_PER_TOOL_CALL);
        if (typeof p.item.name === 'string') this.counter.add(p.item.name);
      }
      if (typeof p.delta === 'string') this.counter.add(p.delta);
    }
    this.uncounted = [];
    this.uncountedBytes = 0;
  }
}

const str = (v: unknown, fallback: string): string => (typeof v === 'string' ? v : fallback);

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
  const m = /"type"\s*:\s*"([a-z_.]+)"/.exec(data);
  return m ? m[1] : '';
}
