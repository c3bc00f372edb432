import type { ChatChunk, ChatUsage, FinishReason } from '../../formats/openai/chat.js';
import { normalizeFinishReason } from '../../formats/openai/finish-reason.js';
import { SseReader, type SseEvent } from '../../formats/claude/sse.js';
import type { RawClaudeUsage } from '../../formats/claude/usage.js';
import { chatUsageFromClaude } from './response.js';

export interface ClaudeSseEvent {
  event: string;
  data: object;
}

/**
 * Upstream bytes -> (event name, parsed data) pairs, incrementally. Events whose data is not a JSON object are skipped.
 * The relay's decoder reads events unparsed instead (ClaudeStreamToChat.pushRaw); this is for readers of whole events.
 */
export class ClaudeSseSplitter {
  private readonly reader = new SseReader();

  push(chunk: Buffer): ClaudeSseEvent[] {
    return toEvents(this.reader.push(chunk));
  }

  /** Whatever was left when the body ended. */
  finish(): ClaudeSseEvent[] {
    return toEvents(this.reader.finish());
  }
}

// Loops rather than flatMap: this runs for every event of every converted Claude stream.
function toEvents(events: Array<{ event: string; data: string }>): ClaudeSseEvent[] {
  const out: ClaudeSseEvent[] = [];
  for (const e of events) {
    const event = toEvent(e);
    if (event) out.push(event);
  }
  return out;
}

function toEvent(e: { event: string; data: string }): ClaudeSseEvent | null {
  try {
    const data: unknown = JSON.parse(e.data);
    if (!data || typeof data !== 'object' || Array.isArray(data)) return null;
    const type = (data as { type?: unknown }).type;
    return { event: e.event || (typeof type === 'string' ? type : ''), data };
  } catch {
    return null;
  }
}

const TEXT_DELTA_HEAD = '{"type":"content_block_delta","index":';
const TEXT_DELTA_TEXT = ',"delta":{"type":"text_delta","text":';
const QUOTE = 0x22;

/**
 * A text delta as Anthropic writes it (these keys, this order, no spaces) read without parsing the object: most
 * events of a stream are these, and JSON.parse of each was the largest cost of a converted stream. Only the text's
 * string literal is parsed; anything else (other keys, spacing, an index with a leading zero) returns null and is
 * parsed whole, as every other event is.
 */
function textDelta(data: string): { index: number; text: string } | null {
  if (!data.startsWith(TEXT_DELTA_HEAD)) return null;
  const digits = TEXT_DELTA_HEAD.length;
  let at = digits;
  while (at < data.length && at - digits < 9 && data.charCodeAt(at) >= 0x30 && data.charCodeAt(at) <= 0x39) at++;
  if (at === digits || (at - digits > 1 && data.charCodeAt(digits) === 0x30)) return null;
  if (!data.startsWith(TEXT_DELTA_TEXT, at) || !data.endsWith('}}')) return null;
  const literal = data.slice(at + TEXT_DELTA_TEXT.length, -2);
  if (literal.length < 2 || literal.charCodeAt(0) !== QUOTE || literal.charCodeAt(literal.length - 1) !== QUOTE) return null;
  let text: unknown;
  try {
    text = JSON.parse(literal);
  } catch {
    return null;
  }
  if (typeof text !== 'string') return null;
  return { index: Number(data.slice(digits, at)), text };
}

type Delta = ChatChunk['choices'][number]['delta'];
type EventData = {
  message?: { id?: unknown; model?: unknown; usage?: RawClaudeUsage };
  index?: unknown;
  content_block?: { type?: unknown; id?: unknown; name?: unknown; text?: unknown };
  delta?: { type?: unknown; text?: unknown; thinking?: unknown; signature?: unknown; partial_json?: unknown; stop_reason?: unknown };
  usage?: RawClaudeUsage;
  error?: { type?: unknown; message?: unknown };
};

/**
 * Claude stream events as ChatChunks: text and thinking deltas become content and reasoning_content (a thinking
 * block's signature reasoning_signature), each tool_use block one tool call (its input_json_delta pieces as argument
 * deltas), message_delta the finish_reason, and message_stop a final usage-only chunk (choices: []), as OpenAI sends
 * with include_usage.
 */
export class ClaudeStreamToChat {
  /** message_stop arrived. */
  complete = false;
  /** The error event an upstream sent mid-stream, if any. */
  error: { type: string; message: string } | null = null;
  private id = '';
  private model = '';
  private usageSoFar: RawClaudeUsage = {};
  private sawUsage = false;
  /** Claude block index -> OpenAI tool call index. */
  private readonly tools = new Map<number, number>();
  /** Tool calls that received argument text; the others get "{}" when their block stops. */
  private readonly toolsWithArguments = new Set<number>();
  /** Blocks of the response-format tool (block index -> whether any input came): their input is the answer text. */
  private readonly jsonBlocks = new Map<number, boolean>();
  /**
   * The run of thinking blocks being streamed. Its signature goes out when the run ends, and only for a run of one
   * block: a signature holds for its own block's text, and Claude takes a turn's thinking back only whole.
   */
  private thinking = { blocks: 0, redacted: false, signature: '' };

  /** jsonTool: the name of the tool that carries a response format (see structured-output.ts), if the request has one. */
  constructor(
    private readonly created = Math.floor(Date.now() / 1000),
    private readonly jsonTool: string | null = null,
  ) {}

  /** One SSE event as it came (data unparsed); a text delta is read by its template, any other event parsed whole. */
  pushRaw(e: SseEvent): ChatChunk[] {
    if (e.event === 'content_block_delta' || e.event === '') {
      const delta = textDelta(e.data);
      if (delta) return delta.text ? [this.chunk({ content: delta.text })] : [];
    }
    const parsed = toEvent(e);
    return parsed ? this.push(parsed.event, parsed.data) : [];
  }

  push(eventName: string, data: object): ChatChunk[] {
    const d = data as EventData;
    switch (eventName) {
      case 'message_start':
        this.id = typeof d.message?.id === 'string' ? d.message.id : '';
        this.model = typeof d.message?.model === 'string' ? d.message.model : '';
        this.addUsage(d.message?.usage);
        return [this.chunk({ role: 'assistant', content: '' })];
      case 'content_block_start': {
        const block = d.content_block ?? {};
        if (block.type === 'thinking') this.thinking.blocks++;
        else if (block.type === 'redacted_thinking') this.thinking.redacted = true;
        else return [...this.endThinking(), ...this.blockStart(typeof d.index === 'number' ? d.index : 0, block)];
        return [];
      }
      case 'content_block_delta':
        return this.blockDelta(typeof d.index === 'number' ? d.index : 0, d.delta ?? {});
      case 'content_block_stop': {
        const index = typeof d.index === 'number' ? d.index : 0;
        if (this.jsonBlocks.get(index) === false) return [this.chunk({ content: '{}' })];
        // A tool without parameters streams no input at all; OpenAI clients JSON.parse the arguments.
        const toolIndex = this.tools.get(index);
        if (toolIndex === undefined || this.toolsWithArguments.has(toolIndex)) return [];
        return [this.chunk({ tool_calls: [{ index: toolIndex, function: { arguments: '{}' } }] })];
      }
      case 'message_delta': {
        const thought = this.endThinking();
        this.addUsage(d.usage);
        const reason = typeof d.delta?.stop_reason === 'string' ? d.delta.stop_reason : null;
        let finish = normalizeFinishReason(reason) ?? (this.tools.size > 0 ? 'tool_calls' : 'stop');
        // The response-format tool was the answer, not a call for the client to run.
        if (finish === 'tool_calls' && this.tools.size === 0 && this.jsonBlocks.size > 0) finish = 'stop';
        return [...thought, this.chunk({}, finish)];
      }
      case 'message_stop': {
        this.complete = true;
        const usage = this.usage();
        return usage ? [{ ...this.chunk({}), choices: [], usage }] : [];
      }
      case 'error':
        this.error = {
          type: typeof d.error?.type === 'string' ? d.error.type : 'api_error',
          message: typeof d.error?.message === 'string' ? d.error.message : '',
        };
        return [];
      default:
        // ping and event types added later carry nothing to convert.
        return [];
    }
  }

  /** Usage reported so far (message_start's input side, message_delta's totals), null before any. */
  usage(): ChatUsage | null {
    return this.sawUsage ? chatUsageFromClaude(this.usageSoFar) : null;
  }

  private endThinking(): ChatChunk[] {
    const { blocks, redacted, signature } = this.thinking;
    if (blocks === 0 && !redacted) return [];
    this.thinking = { blocks: 0, redacted: false, signature: '' };
    return blocks === 1 && !redacted && signature ? [this.chunk({ reasoning_signature: signature })] : [];
  }

  private blockStart(index: number, block: NonNullable<EventData['content_block']>): ChatChunk[] {
    if (block.type === 'tool_use' && this.jsonTool !== null && block.name === this.jsonTool) {
      this.jsonBlocks.set(index, false);
      return [];
    }
    if (block.type === 'tool_use') {
      const toolIndex = this.tools.size;
      this.tools.set(index, toolIndex);
      const id = typeof block.id === 'string' ? block.id : '';
      const name = typeof block.name === 'string' ? block.name : '';
      return [this.chunk({ tool_calls: [{ index: toolIndex, id, type: 'function', function: { name, arguments: '' } }] })];
    }
    if (block.type === 'text' && typeof block.text === 'string' && block.text) return [this.chunk({ content: block.text })];
    return [];
  }

  private blockDelta(index: number, delta: NonNullable<EventData['delta']>): ChatChunk[] {
    switch (delta.type) {
      case 'text_delta':
        return typeof delta.text === 'string' && delta.text ? [this.chunk({ content: delta.text })] : [];
      case 'thinking_delta':
        return typeof delta.thinking === 'string' && delta.thinking ? [this.chunk({ reasoning_content: delta.thinking })] : [];
      case 'signature_delta':
        if (typeof delta.signature === 'string') this.thinking.signature = delta.signature;
        return [];
      case 'input_json_delta': {
        if (this.jsonBlocks.has(index)) {
          if (typeof delta.partial_json !== 'string' || !delta.partial_json) return [];
          this.jsonBlocks.set(index, true);
          return [this.chunk({ content: delta.partial_json })];
        }
        const toolIndex = this.tools.get(index);
        if (toolIndex === undefined || typeof delta.partial_json !== 'string' || !delta.partial_json) return [];
        this.toolsWithArguments.add(toolIndex);
        return [this.chunk({ tool_calls: [{ index: toolIndex, function: { arguments: delta.partial_json } }] })];
      }
      default:
        // Citations have no place in an OpenAI chunk.
        return [];
    }
  }

  /** message_delta counters are cumulative and may be absent or null; a present one replaces the earlier value. */
  private addUsage(u: RawClaudeUsage | undefined): void {
    if (!u || typeof u !== 'object') return;
    for (const [k, v] of Object.entries(u) as Array<[keyof RawClaudeUsage, unknown]>) {
      if (typeof v === 'number') {
        this.usageSoFar[k] = v as never;
        this.sawUsage = true;
      }
    }
    if (u.cache_creation && typeof u.cache_creation === 'object') this.usageSoFar.cache_creation = u.cache_creation;
  }

  private chunk(delta: Delta, finishReason: FinishReason | null = null): ChatChunk {
    return {
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.model,
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    };
  }
}
