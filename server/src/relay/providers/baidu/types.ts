/* Qianfan v1 (ERNIE) chat and embeddings bodies, as far as the converters use them. The model is in the URL. */

export interface ErnieFunctionCall {
  name: string;
  arguments: string;
  thoughts?: string;
}

export interface ErnieMessage {
  role: 'user' | 'assistant' | 'function';
  content: string;
  /** role function: the function whose result this is. */
  name?: string;
  function_call?: ErnieFunctionCall;
}

export interface ErnieFunction {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ErnieRequest {
  messages: ErnieMessage[];
  /** The persona: system text lives here, never in messages. */
  system?: string;
  stream?: boolean;
  temperature?: number;
  top_p?: number;
  penalty_score?: number;
  max_output_tokens?: number;
  stop?: string[];
  user_id?: string;
  functions?: ErnieFunction[];
  tool_choice?: { type: 'function'; function: { name: string } };
  response_format?: 'json_object' | 'text';
}

export interface ErnieUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
}

/** An answer, or one event of a stream (sentence_id and is_end then). */
export interface ErnieResponse {
  id?: string;
  object?: string;
  created?: number;
  sentence_id?: number;
  is_end?: boolean;
  is_truncated?: boolean;
  finish_reason?: string;
  result?: string;
  need_clear_history?: boolean;
  function_call?: ErnieFunctionCall;
  usage?: ErnieUsage;
  error_code?: number;
  error_msg?: string;
}

export interface ErnieEmbeddingsRequest {
  input: string[];
  user_id?: string;
}

export interface ErnieEmbeddingsResponse {
  data?: Array<{ object?: string; embedding?: number[]; index?: number }>;
  usage?: ErnieUsage;
}
