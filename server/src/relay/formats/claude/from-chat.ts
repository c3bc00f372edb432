import type { ChatCompletion, ChatUsage } from '../openai/chat.js';
import { normalizeFinishReason } from '../openai/finish-reason.js';
import type { ClaudeResponse, ClaudeResponseBlock, ClaudeStopReason, ClaudeUsage } from './types.js';

export { ChatToClaudeStream } from './from-chat-stream.js';

/** A ChatCompletion as Claude's Messages answer (a Claude client served by a non-Claude channel). */
export function chatToClaude(resp: ChatCompletion, requestModel: string): ClaudeResponse {
  const choice = resp.choices?.[0];
  const msg = choice?.message;
  const content: ClaudeResponseBlock[] = [];
  if (msg?.reasoning_content || msg?.reasoning_signature) {
    content.push({ type: 'thinking', thinking: msg.reasoning_content ?? '', signature: msg.reasoning_signature ?? '' });
  }
  const text = typeof msg?.content === 'string' && msg.content ? msg.content : (msg?.refusal ?? '');
  if (text) content.push({ type: 'text', text });
  for (const call of msg?.tool_calls ?? []) {
    content.push({ type: 'tool_use', id: call.id, name: call.function.name, input: parseToolInput(call.function.arguments) });
  }
  const stop = claudeStop(choice?.finish_reason ?? null, matchedStopSequence(choice));
  return {
    id: claudeMessageId(resp.id),
    type: 'message',
    role: 'assistant',
    content,
    model: requestModel,
    stop_reason: stop.reason,
    stop_sequence: stop.sequence,
    usage: claudeUsage(resp.usage),
  };
}

export function claudeMessageId(id: string | undefined): string {
  if (!id) return 'msg_switchyard';
  return id.startsWith('msg_') ? id : `msg_${id.replace(/^chatcmpl-/, '')}`;
}

/** Tool arguments as Claude's input object; arguments that are not a JSON object become {}. */
export function parseToolInput(args: string | undefined): Record<string, unknown> {
  if (!args) return {};
  try {
    const v: unknown = JSON.parse(args);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * OpenAI does not say which stop sequence ended the answer; vLLM-style servers do, as a string stop_reason on the
 * choice. Without it a stop is reported as end_turn.
 */
export function matchedStopSequence(choice: object | undefined): string | null {
  const v = (choice as { stop_reason?: unknown } | undefined)?.stop_reason;
  return typeof v === 'string' && v ? v : null;
}

/** The finish reason (normalised first) as Claude's stop_reason. */
export function claudeStop(
  finishReason: string | null,
  stopSequence: string | null,
): { reason: ClaudeStopReason | null; sequence: string | null } {
  switch (normalizeFinishReason(finishReason)) {
    case 'stop':
      return stopSequence ? { reason: 'stop_sequence', sequence: stopSequence } : { reason: 'end_turn', sequence: null };
    case 'length':
      return { reason: 'max_tokens', sequence: null };
    case 'tool_calls':
      return { reason: 'tool_use', sequence: null };
    case 'content_filter':
      return { reason: 'refusal', sequence: null };
    default:
      return { reason: null, sequence: null };
  }
}

/** OpenAI usage counts cached tokens inside prompt_tokens; Claude's input_tokens excludes both cache parts. */
export function claudeUsage(u: ChatUsage | null | undefined, promptEstimate = 0): ClaudeUsage & Required<Omit<ClaudeUsage, 'cache_creation'>> {
  if (!u) return { input_tokens: promptEstimate, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const read = u.prompt_tokens_details?.cached_tokens ?? 0;
  const creation = u.cache_creation_input_tokens ?? 0;
  const usage: ClaudeUsage & Required<Omit<ClaudeUsage, 'cache_creation'>> = {
    input_tokens: Math.max(0, (u.prompt_tokens ?? 0) - read - creation),
    output_tokens: u.completion_tokens ?? 0,
    cache_creation_input_tokens: creation,
    cache_read_input_tokens: read,
  };
  if (u.cache_creation) usage.cache_creation = u.cache_creation;
  return usage;
}
