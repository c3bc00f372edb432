import type { RoutedChannel } from '../cache/routing.js';

/** The wire format a client speaks. Later formats (claude, gemini, responses) join this union. */
export type ClientFormat = 'openai';

/** What the client asked for; decides the upstream path, how usage is read and how the call is billed. */
export type Mode =
  | 'chat'
  | 'completions'
  | 'embeddings'
  | 'moderations'
  | 'images'
  | 'speech'
  | 'transcriptions'
  | 'translations'
  | 'rerank';

/** A parsed client request, independent of the channel it will be sent to. */
export interface ClientCall {
  format: ClientFormat;
  mode: Mode;
  /** The model the client asked for: billing always uses this name. */
  model: string;
  stream: boolean;
  /** Parsed JSON body (JSON modes). */
  json?: Record<string, unknown>;
  /** The body bytes exactly as received (JSON modes), forwarded untouched when nothing needs to change. */
  raw?: Buffer;
  /** Multipart fields and files (audio uploads). */
  form?: FormData;
  /** The client asked for usage in the stream (stream_options.include_usage). */
  clientWantsStreamUsage: boolean;
  /** Largest completion the client allows (max_tokens / max_completion_tokens), 0 when unset. */
  maxTokens: number;
}

/** One attempt against one channel. */
export interface UpstreamCall {
  call: ClientCall;
  channel: RoutedChannel;
  /** The model name sent upstream, after the channel's model_mapping. */
  upstreamModel: string;
  /** The channel's key for this attempt (one line of a multi-key channel, later). */
  key: string;
}

export interface UpstreamRequest {
  url: string;
  method: 'POST' | 'GET';
  headers: Record<string, string>;
  body?: Buffer | string | FormData;
}

/** Token counts of one call, as reported upstream or counted here. */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens served from the provider's cache (billed at the cache ratio later). */
  cachedTokens: number;
  /** Prompt tokens written to the provider's cache (Claude cache_creation_input_tokens), included in promptTokens. */
  cacheCreationTokens?: number;
}

/** An upstream family. The pipeline asks the provider; it never switches on a type code. */
export interface Provider {
  name: string;
  /** Channel type codes it serves. */
  types: readonly number[];
  /** Formats it speaks natively: calls in these formats are passed through. */
  native: readonly ClientFormat[];
  /** Modes this upstream can serve. */
  supports(mode: Mode): boolean;
  /** URL, headers and body of one attempt. */
  build(up: UpstreamCall): UpstreamRequest;
  /** Default models shown for a new channel of this provider's types (UI), and used by channel tests. */
  defaultTestModel?: string;
}
