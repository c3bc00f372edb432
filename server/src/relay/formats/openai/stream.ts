import { IncrementalCounter } from '../../tokenizer.js';
import type { Usage } from '../../types.js';
import { readUsage } from './usage.js';

/** Tokens added per streamed tool call on top of its text (the established gateway's estimate). */
const TOKENS_PER_TOOL_CALL = 7;

type Delta = {
  content?: unknown;
  reasoning_content?: unknown;
  reasoning?: unknown;
  tool_calls?: Array<{ index?: number; id?: unknown; function?: { name?: unknown; arguments?: unknown } }>;
};
type Chunk = { choices?: Array<{ delta?: Delta; text?: unknown }>; usage?: unknown };

/**
 * Watches an OpenAI-format SSE stream as it passes through: reads usage, counts the generated text incrementally
 * (bounded memory) for when usage never comes, notes the first token, and optionally holds back the usage-only
 * chunk a client did not ask for. Whole events are forwarded as soon as they are complete, byte for byte.
 */
export class OpenAIStreamMeter {
  usage: Usage | null = null;
  sawDone = false;
  firstTokenAt = 0;
  private tail = '';
  private readonly decoder = new TextDecoder();
  private readonly counter: IncrementalCounter;
  private readonly toolCallIds = new Set<string>();

  constructor(
    model: string,
    private readonly dropUsageOnlyChunk: boolean,
  ) {
    this.counter = new IncrementalCounter(model);
  }

  /** Takes upstream bytes; returns the text to forward now ('' when no event is complete yet). */
  push(chunk: Buffer): string {
    const text = this.tail + this.decoder.decode(chunk, { stream: true });
    let out = '';
    let start = 0;
    for (;;) {
      const end = text.indexOf('\n\n', start);
      if (end < 0) break;
      const event = text.slice(start, end + 2);
      if (this.inspect(event)) out += event;
      start = end + 2;
    }
    this.tail = text.slice(start);
    // Upstreams that frame events with \r\n\r\n are rare; forward their bytes as they are rather than hold them.
    if (this.tail.length > 65_536) {
      out += this.tail;
      this.tail = '';
    }
    return out;
  }

  /** Whatever is left at the end of the upstream body. */
  finish(): string {
    const rest = this.tail + this.decoder.decode();
    this.tail = '';
    if (rest.trim() === '') return '';
    return this.inspect(rest) ? rest : '';
  }

  /** Completion tokens: as reported, else as counted so far (all that was delivered). */
  completionTokens(): number {
    return this.usage?.completionTokens ?? this.counted();
  }

  counted(): number {
    return this.counter.total();
  }

  /** Returns false for an event to hold back. */
  private inspect(event: string): boolean {
    let keep = true;
    for (const line of event.split('\n')) {
      if (!line.startsWith('data:')) continue;
      const payload = line.slice(5).trim();
      if (payload === '[DONE]') {
        this.sawDone = true;
        continue;
      }
      let chunk: Chunk;
      try {
        chunk = JSON.parse(payload) as Chunk;
      } catch {
        continue;
      }
      const usage = readUsage(chunk.usage);
      if (usage) this.usage = usage;
      const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
      if (usage && choices.length === 0 && this.dropUsageOnlyChunk) keep = false;
      for (const choice of choices) this.countChoice(choice);
    }
    return keep;
  }

  private countChoice(choice: { delta?: Delta; text?: unknown }): void {
    if (typeof choice.text === 'string' && choice.text) this.note(choice.text);
    const d = choice.delta;
    if (!d) return;
    if (typeof d.content === 'string' && d.content) this.note(d.content);
    if (typeof d.reasoning_content === 'string' && d.reasoning_content) this.note(d.reasoning_content);
    else if (typeof d.reasoning === 'string' && d.reasoning) this.note(d.reasoning);
    for (const call of d.tool_calls ?? []) {
      const id = typeof call.id === 'string' ? call.id : `#${call.index ?? 0}`;
      if (!this.toolCallIds.has(id)) {
        this.toolCallIds.add(id);
        this.counter.addTokens(TOKENS_PER_TOOL_CALL);
      }
      if (typeof call.function?.name === 'string') this.note(call.function.name);
      if (typeof call.function?.arguments === 'string') this.note(call.function.arguments);
    }
  }

  private note(text: string): void {
    if (!this.firstTokenAt) this.firstTokenAt = Date.now();
    this.counter.add(text);
  }
}
