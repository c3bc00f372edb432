import type { ChatChunk, ChatUsage } from '../openai/chat.js';
import { claudeErrorObject } from './errors.js';
import { claudeMessageId, claudeStop, claudeUsage, matchedStopSequence } from './from-chat.js';
import type { ClaudeResponseBlock, ClaudeStreamEvent } from './types.js';

type OpenBlock = { kind: 'text' | 'thinking' } | { kind: 'tool'; toolIndex: number };

/** Claude's SSE framing: a named event whose data repeats the name as `type`. */
export function claudeSse(event: ClaudeStreamEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** claudeSse of a content_block_delta, with only the delta's text serialised (most events of a stream are these). */
function deltaSse(index: number, delta: { type: 'text_delta'; text: string } | { type: 'thinking_delta'; thinking: string } | { type: 'signature_delta'; signature: string }): string {
  if (delta.type === 'text_delta') {
    return `event: content_block_delta\ndata: {"type":"content_block_delta","index":${index},"delta":{"type":"text_delta","text":${JSON.stringify(delta.text)}}}\n\n`;
  }
  return claudeSse({ type: 'content_block_delta', index, delta });
}

/**
 * A ChatChunk stream as Claude's event stream: message_start, then one content block at a time (thinking, text,
 * tool_use — each start, deltas, stop), then message_delta with the stop reason and usage, then message_stop.
 * The closing events wait for finish(): OpenAI sends usage in a chunk after the one carrying finish_reason.
 */
export class ChatToClaudeStream {
  private started = false;
  private ended = false;
  private nextIndex = 0;
  private open: (OpenBlock & { index: number }) | null = null;
  /** OpenAI tool_calls[].index -> Claude block index. */
  private readonly toolBlocks = new Map<number, number>();
  private finishReason: string | null = null;
  private stopSequence: string | null = null;
  private usage: ChatUsage | null = null;

  /** promptEstimate fills message_start's input_tokens: OpenAI reports real usage only at the end. */
  constructor(
    private readonly requestModel: string,
    private readonly promptEstimate = 0,
  ) {}

  push(chunk: ChatChunk): string {
    if (this.ended) return '';
    let out = this.start(chunk.id);
    if (chunk.usage) this.usage = chunk.usage;
    const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0);
    if (!choice) return out;
    const d = choice.delta ?? {};
    if (d.reasoning_content) out += this.write('thinking', { type: 'thinking_delta', thinking: d.reasoning_content });
    // The signature closes the thinking it proves; one that comes after other blocks gets a thinking block of its own.
    if (d.reasoning_signature) out += this.write('thinking', { type: 'signature_delta', signature: d.reasoning_signature });
    if (d.content) out += this.write('text', { type: 'text_delta', text: d.content });
    for (const call of d.tool_calls ?? []) out += this.tool(call);
    if (choice.finish_reason) {
      this.finishReason = choice.finish_reason;
      this.stopSequence = matchedStopSequence(choice);
    }
    return out;
  }

  /** The closing events. usage, when given, wins over what the stream carried (e.g. counted by the gateway). */
  finish(usage?: ChatUsage): string {
    if (this.ended) return '';
    let out = this.start(undefined) + this.closeOpen();
    this.ended = true;
    const stop = claudeStop(this.finishReason ?? (this.toolBlocks.size > 0 ? 'tool_calls' : 'stop'), this.stopSequence);
    out += claudeSse({
      type: 'message_delta',
      delta: { stop_reason: stop.reason, stop_sequence: stop.sequence },
      usage: claudeUsage(usage ?? this.usage, this.promptEstimate),
    });
    return out + claudeSse({ type: 'message_stop' });
  }

  /** A failure mid-stream, the way Anthropic reports one after the 200: an error event, and nothing after it. */
  error(status: number, message: string): string {
    if (this.ended) return '';
    this.ended = true;
    return this.start(undefined) + claudeSse(claudeErrorObject(status, message));
  }

  private start(id: string | undefined): string {
    if (this.started) return '';
    this.started = true;
    return claudeSse({
      type: 'message_start',
      message: {
        id: claudeMessageId(id),
        type: 'message',
        role: 'assistant',
        content: [],
        model: this.requestModel,
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: this.promptEstimate, output_tokens: 0 },
      },
    });
  }

  private write(
    kind: 'text' | 'thinking',
    delta: { type: 'text_delta'; text: string } | { type: 'thinking_delta'; thinking: string } | { type: 'signature_delta'; signature: string },
  ): string {
    let out = '';
    let index = this.open?.kind === kind ? this.open.index : -1;
    if (index < 0) {
      out += this.closeOpen();
      index = this.nextIndex;
      out += this.openBlock({ kind }, kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '', signature: '' });
    }
    return out + deltaSse(index, delta);
  }

  private tool(call: NonNullable<ChatChunk['choices'][number]['delta']['tool_calls']>[number]): string {
    let out = '';
    const toolIndex = call.index ?? 0;
    let index = this.toolBlocks.get(toolIndex);
    if (index === undefined) {
      out += this.closeOpen();
      index = this.nextIndex;
      this.toolBlocks.set(toolIndex, index);
      const id = call.id || `toolu_${String(index).padStart(2, '0')}`;
      out += this.openBlock({ kind: 'tool', toolIndex }, { type: 'tool_use', id, name: call.function?.name ?? '', input: {} });
    }
    const args = call.function?.arguments;
    // Deltas for an earlier call that arrive after the next one began still go to its own index: the SDK
    // accumulates input_json_delta by index, so nothing is lost.
    if (args) out += claudeSse({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: args } });
    return out;
  }

  private openBlock(block: OpenBlock, content: ClaudeResponseBlock): string {
    const index = this.nextIndex++;
    this.open = { ...block, index };
    return claudeSse({ type: 'content_block_start', index, content_block: content });
  }

  private closeOpen(): string {
    if (!this.open) return '';
    const index = this.open.index;
    this.open = null;
    return claudeSse({ type: 'content_block_stop', index });
  }
}
