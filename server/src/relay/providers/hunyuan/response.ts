import type { ChatChunk, ChatCompletion, ChatUsage, FinishReason, ToolCall } from '../../formats/openai/chat.js';
import { normalizeFinishReason } from '../../formats/openai/finish-reason.js';
import type { Usage } from '../../types.js';
import type { HunyuanAnswer, HunyuanToolCall, HunyuanUsage } from './types.js';

type Delta = ChatChunk['choices'][number]['delta'];

const count = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : null);

export function chatUsageFromHunyuan(u: HunyuanUsage | null | undefined): ChatUsage | null {
  if (!u || typeof u !== 'object') return null;
  const prompt = count(u.PromptTokens);
  const completion = count(u.CompletionTokens);
  if (prompt === null && completion === null) return null;
  return { prompt_tokens: prompt ?? 0, completion_tokens: completion ?? 0, total_tokens: (prompt ?? 0) + (completion ?? 0) };
}

/** Hunyuan's finish reasons: stop, length, tool_calls, and `sensitive` (moderation stopped the answer). */
export function finishOf(reason: string | undefined, hasCalls: boolean): FinishReason {
  const normalized = reason === 'sensitive' ? 'content_filter' : (normalizeFinishReason(reason) ?? 'stop');
  return normalized === 'stop' && hasCalls ? 'tool_calls' : normalized;
}

function toCall(c: HunyuanToolCall, i: number): ToolCall {
  const args = c.Function?.Arguments;
  return { id: c.Id || `call_${i}`, type: 'function', function: { name: c.Function?.Name ?? '', arguments: typeof args === 'string' && args !== '' ? args : '{}' } };
}

/** A whole answer (the Response object) as a ChatCompletion. */
export function hunyuanToChatCompletion(answer: HunyuanAnswer, model: string, created = Math.floor(Date.now() / 1000)): ChatCompletion {
  const choice = answer.Choices?.[0];
  const m = choice?.Message ?? {};
  const calls = (m.ToolCalls ?? []).map(toCall);
  const message: ChatCompletion['choices'][number]['message'] = { role: 'assistant', content: m.Content || (calls.length > 0 ? null : '') };
  if (typeof m.ReasoningContent === 'string' && m.ReasoningContent) message.reasoning_content = m.ReasoningContent;
  if (calls.length > 0) message.tool_calls = calls;
  const out: ChatCompletion = {
    id: answer.Id || `chatcmpl-${Math.random().toString(36).slice(2, 14)}`,
    object: 'chat.completion',
    created: count(answer.Created) ?? created,
    model,
    choices: [{ index: 0, message, finish_reason: finishOf(choice?.FinishReason, calls.length > 0) }],
  };
  const usage = chatUsageFromHunyuan(answer.Usage);
  if (usage) out.usage = usage;
  return out;
}

/**
 * Hunyuan stream events as ChatChunks. Every event carries the usage so far; the one with a FinishReason ends the
 * answer and its usage is the answer's, sent as a closing usage-only chunk (choices: []). Tool calls arrive whole or in
 * pieces keyed by Index: the first piece of a call carries its id and name, later ones only arguments.
 */
export class HunyuanStreamToChat {
  failure: { type: string; message: string } | null = null;
  private started = false;
  private ended = false;
  private id = '';
  private lastUsage: ChatUsage | null = null;
  private readonly calls = new Map<number, number>();

  constructor(
    private readonly model: string,
    private readonly created = Math.floor(Date.now() / 1000),
  ) {}

  /** Prompt tokens as the last event counted them, for a stream that broke off before its end. */
  partialUsage(): Usage | null {
    return this.lastUsage ? { promptTokens: this.lastUsage.prompt_tokens, completionTokens: 0, cachedTokens: 0 } : null;
  }

  push(e: HunyuanAnswer): ChatChunk[] {
    if (this.ended) return [];
    if (!this.id && typeof e.Id === 'string') this.id = e.Id;
    const err = e.ErrorMsg;
    if (err && typeof err === 'object' && (err.Code || err.Msg)) {
      this.failure = { type: 'upstream_error', message: typeof err.Msg === 'string' && err.Msg ? err.Msg : `混元生成出错（${String(err.Code)}）` };
      return [];
    }
    const usage = chatUsageFromHunyuan(e.Usage);
    if (usage) this.lastUsage = usage;
    const out: ChatChunk[] = [];
    const choice = e.Choices?.[0];
    const d = choice?.Delta ?? {};
    const delta: Delta = {};
    if (typeof d.Content === 'string' && d.Content) delta.content = d.Content;
    if (typeof d.ReasoningContent === 'string' && d.ReasoningContent) delta.reasoning_content = d.ReasoningContent;
    const calls = (d.ToolCalls ?? []).map((c, i) => this.callDelta(c, i));
    if (calls.length > 0) delta.tool_calls = calls;
    if (Object.keys(delta).length > 0 || !this.started) out.push(this.chunk(delta));
    if (choice?.FinishReason) {
      this.ended = true;
      out.push(this.chunk({}, finishOf(choice.FinishReason, this.calls.size > 0)));
      if (this.lastUsage) out.push({ ...this.chunk({}), choices: [], usage: this.lastUsage });
    }
    return out;
  }

  private callDelta(c: HunyuanToolCall, position: number): NonNullable<Delta['tool_calls']>[number] {
    const key = typeof c.Index === 'number' ? c.Index : position;
    const args = c.Function?.Arguments ?? '';
    const known = this.calls.get(key);
    if (known !== undefined) return { index: known, function: { arguments: args } };
    const index = this.calls.size;
    this.calls.set(key, index);
    return { index, id: c.Id || `call_${index}`, type: 'function', function: { name: c.Function?.Name ?? '', arguments: args } };
  }

  private chunk(delta: Delta, finishReason: FinishReason | null = null): ChatChunk {
    if (!this.started) {
      this.started = true;
      delta = { role: 'assistant', ...delta };
    }
    return { id: this.id, object: 'chat.completion.chunk', created: this.created, model: this.model, choices: [{ index: 0, delta, finish_reason: finishReason }] };
  }
}
