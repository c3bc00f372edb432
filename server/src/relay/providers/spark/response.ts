import type { ChatChunk, ChatCompletion, ChatUsage, ToolCall } from '../../formats/openai/chat.js';
import { ChunkWriter, newChatId } from '../chunk-writer.js';
import { frameErrorCode } from './errors.js';
import type { SparkFrame, SparkTextItem, SparkUsage } from './types.js';

/*
 * Spark's answer frames in the canonical shape. Each frame carries a piece of text (or a whole function call) in
 * payload.choices.text[]; the last frame has status 2 and the usage of the call in payload.usage.text, where
 * prompt_tokens counts the whole history sent (question_tokens only the last question). Spark gives no finish
 * reason: an answer ends in a function call or stops.
 */

const LAST = 2;

const count = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : null);

/** Spark's usage in OpenAI's terms; null without a prompt count. */
export function chatUsageFromSpark(u: SparkUsage | null | undefined): ChatUsage | null {
  const prompt = count(u?.prompt_tokens);
  if (prompt === null) return null;
  const completion = count(u?.completion_tokens) ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

export const isLastFrame = (f: SparkFrame) => f.header?.status === LAST || f.payload?.choices?.status === LAST;

function argumentsOf(args: unknown): string {
  if (typeof args === 'string') return args || '{}';
  return args && typeof args === 'object' ? JSON.stringify(args) : '{}';
}

function callOf(item: SparkTextItem, id: string): ToolCall | null {
  const fc = item.function_call;
  if (!fc || typeof fc.name !== 'string' || !fc.name) return null;
  return { id, type: 'function', function: { name: fc.name, arguments: argumentsOf(fc.arguments) } };
}

function itemsOf(f: SparkFrame): SparkTextItem[] {
  const items = f.payload?.choices?.text;
  return Array.isArray(items) ? items : [];
}

/** The frames of one answer, read whole, as a ChatCompletion (the call's sid as its id). */
export function sparkFramesToCompletion(frames: readonly SparkFrame[], model: string): ChatCompletion {
  const id = frames.find((f) => typeof f.header?.sid === 'string')?.header?.sid || newChatId();
  let text = '';
  const calls: ToolCall[] = [];
  let usage: ChatUsage | null = null;
  for (const f of frames) {
    for (const item of itemsOf(f)) {
      if (typeof item.content === 'string') text += item.content;
      const call = callOf(item, `call_${id}_${calls.length}`);
      if (call) calls.push(call);
    }
    usage = chatUsageFromSpark(f.payload?.usage?.text) ?? usage;
  }
  const message: ChatCompletion['choices'][number]['message'] = { role: 'assistant', content: text || (calls.length > 0 ? null : '') };
  if (calls.length > 0) message.tool_calls = calls;
  const out: ChatCompletion = {
    id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, finish_reason: calls.length > 0 ? 'tool_calls' : 'stop' }],
  };
  if (usage) out.usage = usage;
  return out;
}

/**
 * Spark's frames as ChatChunks, one frame at a time: text as content, a function call as one tool call, the last
 * frame's end as the finish and then its usage as a usage-only chunk (choices: []). An error frame ends the stream
 * as a failure.
 */
export class SparkStreamToChat {
  failure: { type: string; message: string } | null = null;
  private ended = false;
  private calls = 0;
  private readonly out: ChunkWriter;

  constructor(model: string, created?: number) {
    this.out = new ChunkWriter(model, created);
  }

  push(f: SparkFrame): ChatChunk[] {
    if (this.ended) return [];
    const code = frameErrorCode(f);
    if (code !== null) {
      this.ended = true;
      const message = typeof f.header?.message === 'string' && f.header.message ? f.header.message : '';
      this.failure = { type: 'upstream_error', message: message ? `${message} (${code})` : `星火返回错误 ${code}` };
      return [];
    }
    if (!this.out.id && typeof f.header?.sid === 'string') this.out.id = f.header.sid;
    const out: ChatChunk[] = [];
    for (const item of itemsOf(f)) {
      if (typeof item.content === 'string' && item.content) out.push(this.out.chunk({ content: item.content }));
      const call = callOf(item, `call_${this.out.id || newChatId()}_${this.calls}`);
      if (call) out.push(this.out.chunk({ tool_calls: [{ index: this.calls++, id: call.id, type: 'function', function: call.function }] }));
    }
    if (isLastFrame(f)) {
      this.ended = true;
      out.push(this.out.chunk({}, this.calls > 0 ? 'tool_calls' : 'stop'));
      const usage = chatUsageFromSpark(f.payload?.usage?.text);
      if (usage) out.push(this.out.usage(usage));
    }
    return out;
  }
}
