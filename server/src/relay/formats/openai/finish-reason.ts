import type { FinishReason } from './chat.js';

/**
 * Every provider's stop reason, normalised in one place to OpenAI's four: stop, length, tool_calls, content_filter.
 * Unknown reasons become stop (the answer ended without a more specific cause).
 */
const TABLE: Record<string, FinishReason> = {
  // OpenAI
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  content_filter: 'content_filter',
  // Anthropic
  end_turn: 'stop',
  stop_sequence: 'stop',
  pause_turn: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
  // Gemini
  STOP: 'stop',
  MAX_TOKENS: 'length',
  SAFETY: 'content_filter',
  RECITATION: 'content_filter',
  BLOCKLIST: 'content_filter',
  PROHIBITED_CONTENT: 'content_filter',
  SPII: 'content_filter',
  IMAGE_SAFETY: 'content_filter',
  MALFORMED_FUNCTION_CALL: 'stop',
  OTHER: 'stop',
  LANGUAGE: 'stop',
  FINISH_REASON_UNSPECIFIED: 'stop',
  // Cohere
  COMPLETE: 'stop',
  TOOL_CALL: 'tool_calls',
  ERROR_TOXIC: 'content_filter',
  // Zhipu (Baidu's "normal" is the default: stop)
  sensitive: 'content_filter',
};

export function normalizeFinishReason(reason: string | null | undefined): FinishReason | null {
  if (reason === null || reason === undefined || reason === '') return null;
  return TABLE[reason] ?? 'stop';
}
