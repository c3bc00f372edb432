/*
 * The OpenAI Responses API shapes the converters use (POST /v1/responses, openai SDK v6 `responses.create` /
 * `responses.stream`). Only the fields read or written here are typed; requests are read defensively as
 * Record<string, unknown> because the fields arrive from clients unchecked.
 */

/** Content parts of an input message. */
export type ResponsesInputPart =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url?: string | null; file_id?: string | null; detail?: 'low' | 'high' | 'auto' | 'original' }
  | { type: 'input_file'; file_data?: string; file_id?: string | null; file_url?: string; filename?: string }
  /** Assistant turns replayed from an earlier answer. */
  | { type: 'output_text'; text: string; annotations?: unknown[] }
  | { type: 'refusal'; refusal: string };

/** One item of `input` (the subset a chat upstream can be given). */
export type ResponsesInputItem =
  | { type?: 'message'; role: 'user' | 'assistant' | 'system' | 'developer'; content: string | ResponsesInputPart[]; id?: string; status?: string }
  | { type: 'function_call'; call_id: string; name: string; arguments: string; id?: string; status?: string }
  | { type: 'function_call_output'; call_id: string; output: string | ResponsesInputPart[]; id?: string | null }
  | { type: 'reasoning'; id?: string; summary?: Array<{ type: 'summary_text'; text: string }>; content?: Array<{ type: 'reasoning_text'; text: string }>; encrypted_content?: string | null }
  | { type: 'item_reference'; id: string };

export interface ResponsesFunctionTool {
  type: 'function';
  name: string;
  description?: string | null;
  parameters: Record<string, unknown> | null;
  strict: boolean | null;
}

/** Only function tools can be run by a chat upstream's caller; the rest are OpenAI-hosted (web_search, file_search...). */
export type ResponsesTool = ResponsesFunctionTool | { type: string; [key: string]: unknown };

export type ResponsesToolChoice =
  | 'none'
  | 'auto'
  | 'required'
  | { type: 'function'; name: string }
  | { type: 'allowed_tools'; mode: 'auto' | 'required'; tools: Array<{ type: string; name?: string }> }
  | { type: string; [key: string]: unknown };

export type ResponsesTextFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; name: string; schema: Record<string, unknown>; description?: string; strict?: boolean | null };

export interface ResponsesRequest {
  model: string;
  input: string | ResponsesInputItem[];
  instructions?: string | null;
  tools?: ResponsesTool[];
  tool_choice?: ResponsesToolChoice;
  max_output_tokens?: number | null;
  temperature?: number | null;
  top_p?: number | null;
  reasoning?: { effort?: string | null; summary?: string | null } | null;
  text?: { format?: ResponsesTextFormat; verbosity?: string | null };
  stream?: boolean | null;
  parallel_tool_calls?: boolean | null;
  user?: string;
  previous_response_id?: string | null;
  [key: string]: unknown;
}

// ---- the Response object ----

export interface ResponsesOutputText {
  type: 'output_text';
  text: string;
  annotations: unknown[];
  logprobs: unknown[];
}

export interface ResponsesRefusal {
  type: 'refusal';
  refusal: string;
}

export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

export interface ResponsesMessageItem {
  id: string;
  type: 'message';
  status: ItemStatus;
  role: 'assistant';
  content: Array<ResponsesOutputText | ResponsesRefusal>;
}

export interface ResponsesFunctionCallItem {
  id: string;
  type: 'function_call';
  status: ItemStatus;
  call_id: string;
  name: string;
  arguments: string;
  namespace?: string;
}

/** A call of a custom tool (free-form input), which a chat upstream made as a call of its stand-in function. */
export interface ResponsesCustomToolCallItem {
  id: string;
  type: 'custom_tool_call';
  status: ItemStatus;
  call_id: string;
  name: string;
  input: string;
  namespace?: string;
}

/** Reasoning text is reported as a summary: chat upstreams give their thinking as plain text. */
export interface ResponsesReasoningItem {
  id: string;
  type: 'reasoning';
  status?: ItemStatus;
  summary: Array<{ type: 'summary_text'; text: string }>;
  /** Present when the request's include asks for it: the sealed thinking (sealed-reasoning.ts). */
  encrypted_content?: string;
}

/** A compacted history: the summary a later turn starts from (compaction.ts says what this gateway puts in it). */
export interface ResponsesCompactionItem {
  id: string;
  type: 'compaction';
  encrypted_content: string;
}

export type ResponsesOutputItem =
  | ResponsesMessageItem
  | ResponsesFunctionCallItem
  | ResponsesCustomToolCallItem
  | ResponsesReasoningItem
  | ResponsesCompactionItem;

export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number; cache_write_tokens?: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

export type ResponseStatus = 'in_progress' | 'completed' | 'incomplete' | 'failed';

export interface ResponseObject {
  id: string;
  object: 'response';
  created_at: number;
  status: ResponseStatus;
  background: boolean;
  error: { code: string; message: string } | null;
  incomplete_details: { reason: 'max_output_tokens' | 'content_filter' } | null;
  instructions: unknown;
  max_output_tokens: number | null;
  model: string;
  output: ResponsesOutputItem[];
  parallel_tool_calls: boolean;
  previous_response_id: string | null;
  reasoning: { effort: unknown; summary: unknown };
  store: boolean;
  temperature: number | null;
  text: unknown;
  tool_choice: unknown;
  tools: unknown[];
  top_p: number | null;
  truncation: unknown;
  usage: ResponsesUsage | null;
  user: string | null;
  metadata: unknown;
}

// ---- stream events (each also carries sequence_number, added when written) ----

type Located = { item_id: string; output_index: number };

export type ResponsesStreamEvent =
  | { type: 'response.created' | 'response.in_progress' | 'response.completed' | 'response.incomplete' | 'response.failed'; response: ResponseObject }
  | { type: 'response.output_item.added' | 'response.output_item.done'; output_index: number; item: ResponsesOutputItem }
  | ({ type: 'response.content_part.added' | 'response.content_part.done'; content_index: number; part: ResponsesOutputText | ResponsesRefusal } & Located)
  | ({ type: 'response.output_text.delta'; content_index: number; delta: string; logprobs: unknown[] } & Located)
  | ({ type: 'response.output_text.done'; content_index: number; text: string; logprobs: unknown[] } & Located)
  | ({ type: 'response.refusal.delta'; content_index: number; delta: string } & Located)
  | ({ type: 'response.refusal.done'; content_index: number; refusal: string } & Located)
  | ({ type: 'response.function_call_arguments.delta'; delta: string } & Located)
  | ({ type: 'response.function_call_arguments.done'; name: string; arguments: string } & Located)
  | ({ type: 'response.custom_tool_call_input.delta'; delta: string } & Located)
  | ({ type: 'response.custom_tool_call_input.done'; input: string } & Located)
  | ({ type: 'response.reasoning_summary_part.added' | 'response.reasoning_summary_part.done'; summary_index: number; part: { type: 'summary_text'; text: string } } & Located)
  | ({ type: 'response.reasoning_summary_text.delta'; summary_index: number; delta: string } & Located)
  | ({ type: 'response.reasoning_summary_text.done'; summary_index: number; text: string } & Located)
  | { type: 'error'; code: string | null; message: string; param: string | null };
