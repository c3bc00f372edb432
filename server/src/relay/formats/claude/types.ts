/*
 * Anthropic Messages API wire types (POST /v1/messages), as far as the converters use them. Unknown fields on the
 * request pass through as `[key: string]: unknown`; blocks and events are closed unions so switches stay exhaustive.
 */

export interface ClaudeCacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

export interface ClaudeTextBlock {
  type: 'text';
  text: string;
  cache_control?: ClaudeCacheControl | null;
  citations?: unknown[] | null;
}

export type ClaudeImageSource = { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string };

export interface ClaudeImageBlock {
  type: 'image';
  source: ClaudeImageSource;
  cache_control?: ClaudeCacheControl | null;
}

export interface ClaudeDocumentBlock {
  type: 'document';
  source: { type: 'base64'; media_type: string; data: string } | { type: 'text'; media_type: 'text/plain'; data: string } | { type: 'url'; url: string };
  title?: string;
  cache_control?: ClaudeCacheControl | null;
}

export interface ClaudeToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
  cache_control?: ClaudeCacheControl | null;
}

export interface ClaudeToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | Array<ClaudeTextBlock | ClaudeImageBlock>;
  is_error?: boolean;
  cache_control?: ClaudeCacheControl | null;
}

export interface ClaudeThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

export interface ClaudeRedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

/** Blocks a client may send in a message. */
export type ClaudeContentBlock =
  | ClaudeTextBlock
  | ClaudeImageBlock
  | ClaudeDocumentBlock
  | ClaudeToolUseBlock
  | ClaudeToolResultBlock
  | ClaudeThinkingBlock
  | ClaudeRedactedThinkingBlock;

/** Blocks the model answers with. */
export type ClaudeResponseBlock = ClaudeTextBlock | ClaudeToolUseBlock | ClaudeThinkingBlock | ClaudeRedactedThinkingBlock;

export interface ClaudeMessage {
  role: 'user' | 'assistant';
  content: string | ClaudeContentBlock[];
}

export interface ClaudeTool {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
  /** Server tools (web_search_…, bash_…) carry a versioned type and no input_schema. */
  type?: string;
  cache_control?: ClaudeCacheControl | null;
  /** Structured outputs: the input is guaranteed to match input_schema. */
  strict?: boolean;
}

export type ClaudeToolChoice =
  | { type: 'auto'; disable_parallel_tool_use?: boolean }
  | { type: 'any'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean }
  | { type: 'none' };

export type ClaudeThinkingConfig = { type: 'enabled'; budget_tokens: number } | { type: 'disabled' } | { type: 'adaptive' };

export interface ClaudeRequest {
  model: string;
  messages: ClaudeMessage[];
  max_tokens: number;
  system?: string | ClaudeTextBlock[];
  metadata?: { user_id?: string | null };
  stop_sequences?: string[];
  stream?: boolean;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  tools?: ClaudeTool[];
  tool_choice?: ClaudeToolChoice;
  thinking?: ClaudeThinkingConfig;
  [key: string]: unknown;
}

export type ClaudeStopReason =
  | 'end_turn'
  | 'max_tokens'
  | 'stop_sequence'
  | 'tool_use'
  | 'pause_turn'
  | 'refusal'
  | 'model_context_window_exceeded';

/** input_tokens excludes the cached parts: the whole prompt is input + cache_read + cache_creation. */
export interface ClaudeUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  /** The writes by cache lifetime. */
  cache_creation?: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number } | null;
}

export interface ClaudeResponse {
  id: string;
  type: 'message';
  role: 'assistant';
  content: ClaudeResponseBlock[];
  model: string;
  stop_reason: ClaudeStopReason | null;
  stop_sequence: string | null;
  usage: ClaudeUsage;
}

export type ClaudeErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'request_too_large'
  | 'rate_limit_error'
  | 'api_error'
  | 'overloaded_error';

export interface ClaudeErrorBody {
  type: 'error';
  error: { type: ClaudeErrorType | string; message: string };
}

export type ClaudeDelta =
  | { type: 'text_delta'; text: string }
  | { type: 'input_json_delta'; partial_json: string }
  | { type: 'thinking_delta'; thinking: string }
  | { type: 'signature_delta'; signature: string };

/** message_delta usage counts are cumulative totals for the whole message; absent fields keep their earlier value. */
export interface ClaudeDeltaUsage {
  output_tokens: number;
  input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

export type ClaudeStreamEvent =
  | { type: 'message_start'; message: ClaudeResponse }
  | { type: 'content_block_start'; index: number; content_block: ClaudeResponseBlock }
  | { type: 'content_block_delta'; index: number; delta: ClaudeDelta }
  | { type: 'content_block_stop'; index: number }
  | {
      type: 'message_delta';
      delta: { stop_reason: ClaudeStopReason | null; stop_sequence: string | null };
      usage: ClaudeDeltaUsage;
    }
  | { type: 'message_stop' }
  | { type: 'ping' }
  | ClaudeErrorBody;
