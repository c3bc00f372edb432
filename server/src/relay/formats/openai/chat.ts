/*
 * The canonical shape every conversion goes through: OpenAI Chat Completions. A client format converts its request
 * to a ChatRequest and a ChatCompletion/ChatChunk stream back to its own shape; a provider converts a ChatRequest to
 * its wire request and its answers to ChatCompletion/ChatChunk. Only the fields the converters use are typed;
 * unknown fields pass through as `[key: string]: unknown`.
 */

export type ChatRole = 'system' | 'developer' | 'user' | 'assistant' | 'tool';

export interface TextPart {
  type: 'text';
  text: string;
}

export interface ImagePart {
  type: 'image_url';
  /** https URL or data:<mime>;base64,<data> */
  image_url: { url: string; detail?: 'low' | 'high' | 'auto' };
}

export type ContentPart = TextPart | ImagePart | { type: string; [key: string]: unknown };

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: ChatRole;
  content: string | ContentPart[] | null;
  name?: string;
  /** assistant messages */
  tool_calls?: ToolCall[];
  /** assistant reasoning text (thinking), as DeepSeek-style servers return it */
  reasoning_content?: string;
  /** tool messages */
  tool_call_id?: string;
  [key: string]: unknown;
}

export interface ToolDefinition {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean };
}

export type ToolChoice = 'none' | 'auto' | 'required' | { type: 'function'; function: { name: string } };

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  top_p?: number;
  stop?: string | string[];
  tools?: ToolDefinition[];
  tool_choice?: ToolChoice;
  reasoning_effort?: 'low' | 'medium' | 'high';
  response_format?: { type: 'text' | 'json_object' | 'json_schema'; json_schema?: { name: string; description?: string; schema?: Record<string, unknown>; strict?: boolean } };
  user?: string;
  [key: string]: unknown;
}

/** Normalised once (see finish-reason.ts): stop, length, tool_calls, content_filter. */
export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number; [key: string]: unknown };
  completion_tokens_details?: { reasoning_tokens?: number; [key: string]: unknown };
  /** Claude-style cache writes, carried through for billing. */
  cache_creation_input_tokens?: number;
  /** Claude's writes by cache lifetime, when some went to the one-hour cache. */
  cache_creation?: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
}

/** choices[].logprobs: one entry per generated token, with its most likely alternatives. */
export interface ChatLogprobs {
  content: Array<{ token: string; logprob: number; bytes: number[] | null; top_logprobs: Array<{ token: string; logprob: number; bytes: number[] | null }> }> | null;
  refusal?: unknown;
}

export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{
    index: number;
    message: {
      role: 'assistant';
      content: string | null;
      tool_calls?: ToolCall[];
      reasoning_content?: string;
      /** Opaque proof of the reasoning (Gemini's thoughtSignature, Claude's thinking signature), to be sent back. */
      reasoning_signature?: string;
      refusal?: string | null;
    };
    finish_reason: FinishReason | null;
    logprobs?: ChatLogprobs | null;
  }>;
  usage?: ChatUsage;
}

export interface ChatChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: Array<{
    index: number;
    delta: {
      role?: 'assistant';
      content?: string | null;
      reasoning_content?: string;
      reasoning_signature?: string;
      tool_calls?: Array<{ index: number; id?: string; type?: 'function'; function?: { name?: string; arguments?: string } }>;
    };
    finish_reason: FinishReason | null;
    logprobs?: ChatLogprobs | null;
  }>;
  usage?: ChatUsage | null;
}
