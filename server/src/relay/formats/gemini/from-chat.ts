import type { ChatChunk, ChatCompletion, ChatLogprobs, ChatUsage, FinishReason } from '../openai/chat.js';
import { averageLogprob, geminiLogprobsOf } from './logprobs.js';
import type { GeminiCandidate, GeminiPart, GeminiResponse, GeminiUsageMetadata } from './types.js';

const FINISH: Record<FinishReason, string> = {
  stop: 'STOP',
  length: 'MAX_TOKENS',
  // Gemini has no tool-call stop reason: a turn that ends in function calls finishes with STOP.
  tool_calls: 'STOP',
  content_filter: 'SAFETY',
};

/** A ChatCompletion as Gemini's generateContent answer. */
export function chatToGemini(resp: ChatCompletion): GeminiResponse {
  const candidates: GeminiCandidate[] = resp.choices.map((choice) => {
    const m = choice.message;
    const parts: GeminiPart[] = [];
    if (m.reasoning_content) parts.push({ text: m.reasoning_content, thought: true });
    if (typeof m.content === 'string' && m.content !== '') parts.push({ text: m.content });
    for (const call of m.tool_calls ?? []) parts.push({ functionCall: functionCallOf(call.function.name, call.function.arguments) });
    const cand: GeminiCandidate = { content: { role: 'model', parts }, index: choice.index };
    if (choice.finish_reason) cand.finishReason = FINISH[choice.finish_reason];
    addLogprobs(cand, choice.logprobs);
    return cand;
  });
  const out: GeminiResponse = { candidates };
  if (resp.usage) out.usageMetadata = usageMetadataOf(resp.usage);
  out.modelVersion = resp.model;
  out.responseId = resp.id;
  return out;
}

function addLogprobs(cand: GeminiCandidate, logprobs: ChatLogprobs | null | undefined): void {
  if (!logprobs?.content) return;
  cand.logprobsResult = geminiLogprobsOf(logprobs);
  const avg = averageLogprob(logprobs);
  if (avg !== undefined) cand.avgLogprobs = avg;
}

function functionCallOf(name: string, args: string): { name: string; args: Record<string, unknown> } {
  return { name, args: parseArgs(args) };
}

/** Gemini's args is an object; arguments that are not a JSON object are kept under one key rather than lost. */
function parseArgs(args: string): Record<string, unknown> {
  if (args.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(args);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    return { value: parsed };
  } catch {
    return { arguments: args };
  }
}

/** Gemini counts thoughts apart from candidates; OpenAI counts reasoning inside completion_tokens. */
export function usageMetadataOf(u: ChatUsage): GeminiUsageMetadata {
  const thoughts = u.completion_tokens_details?.reasoning_tokens ?? 0;
  const cached = u.prompt_tokens_details?.cached_tokens ?? 0;
  const meta: GeminiUsageMetadata = {
    promptTokenCount: u.prompt_tokens,
    candidatesTokenCount: Math.max(0, u.completion_tokens - thoughts),
    totalTokenCount: u.total_tokens || u.prompt_tokens + u.completion_tokens,
  };
  if (cached > 0) meta.cachedContentTokenCount = cached;
  if (thoughts > 0) meta.thoughtsTokenCount = thoughts;
  return meta;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text || '{}');
    return true;
  } catch {
    return false;
  }
}

function sse(event: GeminiResponse): string {
  return `data: ${JSON.stringify(event)}\r\n\r\n`;
}

interface PendingCall {
  name: string;
  args: string;
}

/** What one choice (one Gemini candidate) holds between chunks. */
interface ChoiceState {
  calls: Map<number, PendingCall>;
  finishReason: FinishReason | null;
}

/**
 * A ChatChunk stream as Gemini's streamGenerateContent?alt=sse events. Text and thoughts go out as they come;
 * a function call is sent whole (Gemini never streams partial arguments), once the next call starts or the choice
 * finishes. Finish reasons are held until the usage that OpenAI sends after them, so the last event carries both,
 * as Gemini's does; finish() must be called at the end of the upstream body to send it.
 */
export class ChatToGeminiStream {
  private readonly choices = new Map<number, ChoiceState>();
  private usage: ChatUsage | null = null;
  private model = '';
  private id = '';
  private done = false;
  private tail: { model: string; id: string; text: string } | null = null;

  push(chunk: ChatChunk): string {
    if (chunk.model) this.model = chunk.model;
    if (chunk.id) this.id = chunk.id;
    if (chunk.usage) this.usage = chunk.usage;
    let out = '';
    for (const choice of chunk.choices ?? []) {
      const state = this.state(choice.index ?? 0);
      const d = choice.delta ?? {};
      const parts: GeminiPart[] = [];
      if (d.reasoning_content) parts.push({ text: d.reasoning_content, thought: true });
      if (typeof d.content === 'string' && d.content !== '') parts.push({ text: d.content });
      for (const tc of d.tool_calls ?? []) {
        for (const [index] of state.calls) if (index < tc.index) parts.push(...takeCall(state, index));
        const call = state.calls.get(tc.index) ?? { name: '', args: '' };
        if (tc.function?.name) call.name += tc.function.name;
        if (tc.function?.arguments) call.args += tc.function.arguments;
        state.calls.set(tc.index, call);
      }
      if (choice.finish_reason) {
        state.finishReason = choice.finish_reason;
        parts.push(...takeAllCalls(state));
      }
      if (parts.length === 0) continue;
      const candidate: GeminiCandidate = { content: { role: 'model', parts }, index: choice.index ?? 0 };
      if (choice.logprobs?.content) candidate.logprobsResult = geminiLogprobsOf(choice.logprobs);
      else if (candidate.index === 0 && parts.length === 1 && isTextOnly(parts[0])) {
        out += this.textEvent(parts[0].text);
        continue;
      }
      out += this.event([candidate]);
    }
    return out;
  }

  /** Ends the stream: the last event with the finish reasons and usage (a cut stream gets what is known). */
  finish(usage?: ChatUsage): string {
    if (this.done) return '';
    this.done = true;
    if (usage) this.usage = usage;
    const candidates: GeminiCandidate[] = [];
    for (const [index, state] of [...this.choices].sort((a, b) => a[0] - b[0])) {
      // A call still open when the stream was cut has unfinished arguments: the client must not run it.
      const parts = takeAllCalls(state, state.finishReason === null);
      if (parts.length === 0 && !state.finishReason) continue;
      // The text already went out: the closing event carries the finish reason (and usage) with no invented part.
      const cand: GeminiCandidate = { content: { role: 'model', parts }, index };
      if (state.finishReason) cand.finishReason = FINISH[state.finishReason];
      candidates.push(cand);
    }
    if (candidates.length === 0 && !this.usage) return '';
    if (candidates.length === 0) candidates.push({ content: { role: 'model', parts: [] }, index: 0 });
    return this.event(candidates, this.usage);
  }

  private state(index: number): ChoiceState {
    let state = this.choices.get(index);
    if (!state) {
      state = { calls: new Map(), finishReason: null };
      this.choices.set(index, state);
    }
    return state;
  }

  /**
   * this.event of one text part on candidate 0 (most events of a stream), with the part after the text (model and
   * response id) serialised once per stream.
   */
  private textEvent(text: string): string {
    if (!this.tail || this.tail.model !== this.model || this.tail.id !== this.id) {
      const rest: Pick<GeminiResponse, 'modelVersion' | 'responseId'> = {};
      if (this.model) rest.modelVersion = this.model;
      if (this.id) rest.responseId = this.id;
      const json = JSON.stringify(rest);
      this.tail = { model: this.model, id: this.id, text: `}]},"index":0}]${json === '{}' ? '' : `,${json.slice(1, -1)}`}}\r\n\r\n` };
    }
    return `data: {"candidates":[{"content":{"role":"model","parts":[{"text":${JSON.stringify(text)}${this.tail.text}`;
  }

  private event(candidates: GeminiCandidate[], usage?: ChatUsage | null): string {
    const event: GeminiResponse = { candidates };
    if (usage) event.usageMetadata = usageMetadataOf(usage);
    if (this.model) event.modelVersion = this.model;
    if (this.id) event.responseId = this.id;
    return sse(event);
  }
}

/** A part that is only text (no thought flag, no call). */
function isTextOnly(part: GeminiPart): part is { text: string } {
  let keys = 0;
  for (const key in part) {
    if (key !== 'text' || ++keys > 1) return false;
  }
  return keys === 1 && typeof (part as { text?: unknown }).text === 'string';
}

function takeCall(state: ChoiceState, index: number, onlyComplete = false): GeminiPart[] {
  const call = state.calls.get(index);
  state.calls.delete(index);
  if (!call || !call.name || (onlyComplete && !isJson(call.args))) return [];
  return [{ functionCall: functionCallOf(call.name, call.args) }];
}

function takeAllCalls(state: ChoiceState, onlyComplete = false): GeminiPart[] {
  const indexes = [...state.calls.keys()].sort((a, b) => a - b);
  return indexes.flatMap((i) => takeCall(state, i, onlyComplete));
}
