/*
 * Cohere's v2 Chat API (POST /v2/chat) as far as the converters use it. Unknown fields are tolerated on answers:
 * Cohere adds fields (citations, logprobs) that have no place in the canonical shape.
 */

export interface CohereTextContent {
  type: 'text';
  text: string;
}

export interface CohereImageContent {
  type: 'image_url';
  image_url: { url: string; detail?: 'low' | 'high' | 'auto' };
}

export type CohereUserContent = CohereTextContent | CohereImageContent;

export interface CohereToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type CohereMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | CohereUserContent[] }
  | { role: 'assistant'; content?: string; tool_calls?: CohereToolCall[]; tool_plan?: string }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface CohereTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

export interface CohereChatRequest {
  model: string;
  messages: CohereMessage[];
  stream: boolean;
  tools?: CohereTool[];
  strict_tools?: boolean;
  tool_choice?: 'REQUIRED' | 'NONE';
  response_format?: { type: 'text' } | { type: 'json_object'; json_schema?: Record<string, unknown> };
  max_tokens?: number;
  stop_sequences?: string[];
  temperature?: number;
  seed?: number;
  frequency_penalty?: number;
  presence_penalty?: number;
  k?: number;
  p?: number;
}

/** usage on an answer and on message-end: what was billed, and what the model saw and produced. */
export interface CohereUsage {
  billed_units?: { input_tokens?: number; output_tokens?: number } | null;
  tokens?: { input_tokens?: number; output_tokens?: number } | null;
  cached_tokens?: number | null;
}

export type CohereFinishReason = 'COMPLETE' | 'STOP_SEQUENCE' | 'MAX_TOKENS' | 'TOOL_CALL' | 'ERROR' | 'ERROR_TOXIC' | 'TIMEOUT' | string;

export interface CohereChatResponse {
  id?: string;
  finish_reason?: CohereFinishReason;
  message?: {
    role?: 'assistant';
    content?: Array<{ type?: string; text?: string; thinking?: string }>;
    tool_plan?: string;
    tool_calls?: Array<{ id?: string; type?: string; function?: { name?: string; arguments?: unknown } }>;
  };
  usage?: CohereUsage | null;
}

/** One stream event (the SSE data); `type` names it, as the SSE event line does. */
export interface CohereStreamEvent {
  type?: string;
  id?: string;
  index?: number;
  delta?: {
    message?: {
      content?: { type?: string; text?: string; thinking?: string };
      tool_plan?: string;
      tool_calls?: { id?: string; type?: string; function?: { name?: string; arguments?: string } };
    };
    finish_reason?: CohereFinishReason;
    usage?: CohereUsage | null;
    error?: string | null;
  };
}
