import type { EmbeddingsResponse } from '../../formats/gemini/embeddings.js';
import type { ChatChunk, ChatCompletion, ChatUsage, FinishReason, ToolCall } from '../../formats/openai/chat.js';
import { ChunkWriter, newChatId } from '../chunk-writer.js';
import { normalizeFinishReason } from '../../formats/openai/finish-reason.js';
import type { Usage } from '../../types.js';
import { errorCodeOf } from './errors.js';
import type { ErnieEmbeddingsResponse, ErnieResponse, ErnieUsage } from './types.js';

const count = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : null);

/** ERNIE's usage in OpenAI's terms; null without a prompt count. */
export function chatUsageFromErnie(u: ErnieUsage | null | undefined): ChatUsage | null {
  const prompt = count(u?.prompt_tokens);
  if (prompt === null) return null;
  const completion = count(u?.completion_tokens) ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/**
 * The finish of an answer: a function call, a cut at max_output_tokens (is_truncated), an input Baidu's safety check
 * refused (need_clear_history: the answer is Baidu's canned reply), or ERNIE's own reason ("normal" is stop).
 */
function finishOf(r: ErnieResponse): FinishReason {
  if (r.function_call || r.finish_reason === 'function_call') return 'tool_calls';
  if (r.is_truncated === true) return 'length';
  if (r.need_clear_history === true) return 'content_filter';
  return normalizeFinishReason(r.finish_reason) ?? 'stop';
}

function toolCall(r: ErnieResponse, id: string): ToolCall | null {
  const fc = r.function_call;
  if (!fc || typeof fc.name !== 'string') return null;
  return { id, type: 'function', function: { name: fc.name, arguments: typeof fc.arguments === 'string' && fc.arguments ? fc.arguments : '{}' } };
}

/** An ERNIE answer as a ChatCompletion; a function call becomes the one tool call (ERNIE gives it no id). */
export function ernieToChatCompletion(r: ErnieResponse, model: string): ChatCompletion {
  const id = r.id || newChatId();
  const call = toolCall(r, `call_${id}`);
  const text = typeof r.result === 'string' ? r.result : '';
  const message: ChatCompletion['choices'][number]['message'] = { role: 'assistant', content: text || (call ? null : '') };
  if (call) message.tool_calls = [call];
  const out: ChatCompletion = {
    id,
    object: 'chat.completion',
    created: count(r.created) ?? Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, finish_reason: finishOf(r) }],
  };
  const usage = chatUsageFromErnie(r.usage);
  if (usage) out.usage = usage;
  return out;
}

/**
 * ERNIE stream events as ChatChunks: each event's result is content; a function call (whole, in one event) one tool
 * call; the event with is_end the finish, then its usage as a usage-only chunk (choices: []), as OpenAI sends with
 * include_usage. Each event carries the usage so far: what the prompt cost is known before the end.
 */
export class ErnieStreamToChat {
  failure: { type: string; message: string } | null = null;
  private ended = false;
  private lastUsage: ChatUsage | null = null;
  private calls = 0;
  private readonly out: ChunkWriter;

  constructor(model: string, created?: number) {
    this.out = new ChunkWriter(model, created);
  }

  /** The prompt as reported so far, for a stream that stops before its end. */
  partialUsage(): Usage | null {
    return this.lastUsage ? { promptTokens: this.lastUsage.prompt_tokens, completionTokens: 0, cachedTokens: 0 } : null;
  }

  push(r: ErnieResponse): ChatChunk[] {
    if (this.ended) return [];
    const code = errorCodeOf(r);
    if (code !== null) {
      this.ended = true;
      this.failure = { type: 'upstream_error', message: typeof r.error_msg === 'string' && r.error_msg ? r.error_msg : `文心返回错误 ${code}` };
      return [];
    }
    if (!this.out.id && typeof r.id === 'string') this.out.id = r.id;
    const usage = chatUsageFromErnie(r.usage);
    if (usage) this.lastUsage = usage;
    const out: ChatChunk[] = [];
    if (typeof r.result === 'string' && r.result) out.push(this.out.chunk({ content: r.result }));
    const call = toolCall(r, `call_${this.out.id || newChatId()}`);
    if (call) out.push(this.out.chunk({ tool_calls: [{ index: this.calls++, id: call.id, type: 'function', function: call.function }] }));
    if (r.is_end === true) {
      this.ended = true;
      out.push(this.out.chunk({}, this.calls > 0 ? 'tool_calls' : finishOf(r)));
      if (usage) out.push(this.out.usage(usage));
    }
    return out;
  }
}

/** ERNIE's embeddings answer in OpenAI's shape, under the model the client asked for. */
export function ernieToEmbeddings(r: ErnieEmbeddingsResponse, model: string): EmbeddingsResponse {
  const prompt = count(r.usage?.prompt_tokens) ?? 0;
  return {
    object: 'list',
    data: (r.data ?? []).map((d, i) => ({ object: 'embedding', index: count(d.index) ?? i, embedding: d.embedding ?? [] })),
    model,
    usage: { prompt_tokens: prompt, total_tokens: count(r.usage?.total_tokens) ?? prompt },
  };
}
