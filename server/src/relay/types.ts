import type { IncomingHttpHeaders } from 'node:http';
import type { RoutedChannel } from '../cache/routing.js';
import type { OptionReader } from '../options/index.js';
import type { ChatChunk } from './formats/openai/chat.js';
import type { ParsedUpstreamError } from './formats/openai/errors.js';
import type { ResponsesTurn } from './formats/responses/turn.js';
import type { BufferedCall, StreamingCall, UpstreamClient } from './upstream.js';

/** The wire format a client speaks: OpenAI (chat and the rest), Claude Messages, Gemini, OpenAI Responses. */
export type ClientFormat = 'openai' | 'claude' | 'gemini' | 'responses';

/**
 * The body formats of providers' own. A provider folder adds its format by declaration merging
 * (`declare module '../../types.js' { interface ProviderWires { name: true } }`), so only the folder names it.
 */
export interface ProviderWires {
  cohere: true;
}

/** The body format of one upstream attempt: a client format, or a provider's own. */
export type WireFormat = ClientFormat | keyof ProviderWires;

/** A feature of a wire format that not every upstream speaking it offers. */
export type WireFeature = 'claude.output_format';

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
  /** Seconds of the uploaded audio (transcriptions, translations), when its format tells. */
  audioSeconds?: number;
  /** The client asked for usage in the stream (stream_options.include_usage). */
  clientWantsStreamUsage: boolean;
  /** Largest completion the client allows (max_tokens / max_completion_tokens), 0 when unset. */
  maxTokens: number;
  /** Client headers a same-format upstream must see (anthropic-version, anthropic-beta). */
  passHeaders?: Record<string, string>;
  /** Gemini embeddings: embedContent (single) rather than batchEmbedContents. */
  single?: boolean;
  /** Gemini streamGenerateContent without alt=sse: the stream is one JSON array rather than SSE events. */
  arrayStream?: boolean;
  /** The request in the canonical OpenAI shape, converted once when first needed (formats other than openai). */
  canonical?: Record<string, unknown>;
  /** Hint fields of the client's request that converting it to the canonical shape left out (named as sent). */
  dropped?: string[];
  /**
   * POST /v1/responses/compact (formats/responses/compact.ts): `json` is the Responses request that asks for the
   * compaction, and the answer is the compacted conversation.
   */
  compact?: true;
  /** Responses calls: the references resolved and the answer to keep (formats/responses/turn.ts). */
  turn?: ResponsesTurn;
  /** The client's ?api-version= (upstreams whose API version a caller may choose read it; others ignore it). */
  apiVersion?: string;
}

/** One attempt against one channel. */
export interface Attempt {
  call: ClientCall;
  channel: RoutedChannel;
  /** The model name sent upstream, after the channel's model_mapping. */
  upstreamModel: string;
  /** The channel's key for this attempt (one line of a multi-key channel, later). */
  key: string;
  /** Settings the conversions read (claude.default_max_tokens, gemini.safety_settings, ...). */
  options: OptionReader;
  /**
   * On a converted path: the hint fields left out on the way to this upstream, the client's (ClientCall.dropped) and
   * then the wire's; the answer names them (X-Switchyard-Dropped). Absent on passthrough.
   */
  dropped?: string[];
}

/** An attempt once its body format is known. */
export interface UpstreamCall extends Attempt {
  /** The format the body is in (Provider.wire). */
  wire: WireFormat;
  /**
   * The request converted to the wire format (WireCodec.encode of the canonical request); null when the client's
   * own body goes upstream (same format: build it from call.raw / call.json).
   */
  converted: Record<string, unknown> | null;
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
  /** The part of cacheCreationTokens written to Claude's one-hour cache (priced apart from five-minute writes). */
  cacheCreation1hTokens?: number;
}

/** Upstream stream bytes read as canonical chunks (ChatChunk), incrementally. */
export interface ChunkDecoder {
  push(chunk: Buffer): ChatChunk[];
  /** The end of the upstream body: whatever was held back (e.g. the final usage chunk of a cut stream). */
  finish(): ChatChunk[];
  /** An error the upstream reported inside the stream (after its 200), if any. */
  readonly failure?: { type: string; message: string } | null;
  /** Prompt-side usage reported before the end (Claude's message_start), for a stream that stopped early. */
  partialUsage?(): Usage | null;
}

/**
 * One upstream body format, as seen from the canonical OpenAI shapes: chat mode converts a ChatRequest and reads
 * answers back as ChatCompletion / ChatChunk; embeddings mode converts OpenAI's embeddings request and response.
 */
export interface WireCodec {
  format: WireFormat;
  /**
   * The canonical request as this wire's JSON body (throws RelayError 400 for what it cannot express). `withheld`:
   * features of the wire this attempt's upstream does not offer.
   */
  encode(canonical: Record<string, unknown>, up: Attempt, withheld?: ReadonlySet<WireFeature>): Record<string, unknown>;
  /** This wire's JSON answer as the canonical answer (ChatCompletion, or OpenAI's embeddings response). */
  decode(body: Buffer, up: UpstreamCall): Record<string, unknown>;
  /** This wire's stream (after the provider's streamAdapter) as canonical chunks. */
  streamDecoder(up: UpstreamCall): ChunkDecoder;
  /** An error answer's message, type and code. */
  parseError(status: number, body: string): ParsedUpstreamError;
}

/** Counting a request's prompt tokens upstream (free where the provider offers it). */
export interface CountCall {
  request: UpstreamRequest;
  /** The count in the upstream's answer; null when it has none. */
  read(answer: Record<string, unknown>): number | null;
}

/** An upstream family. The pipeline asks the provider; it never switches on a type code. */
export interface Provider {
  name: string;
  /** Channel type codes it serves. */
  types: readonly number[];
  /** Modes this upstream can serve. */
  supports(mode: Mode, channel: RoutedChannel): boolean;
  /**
   * The body format of an attempt. When it equals the client's format the client's body is passed through;
   * otherwise the pipeline converts through the canonical shape with that wire's codec.
   */
  wire(up: Attempt): WireFormat;
  /** Features of that wire format this upstream does not offer for the attempt (absent: all of them). */
  withholds?(up: Attempt): ReadonlySet<WireFeature>;
  /** URL, headers and body of one attempt (async when it needs a signature or an access token). */
  build(up: UpstreamCall): UpstreamRequest | Promise<UpstreamRequest>;
  /**
   * A fresh, stateful transform from the upstream's stream framing to its wire format's own SSE bytes (Bedrock's
   * binary event stream to Claude SSE). Absent when the stream already is SSE.
   */
  streamAdapter?(up: UpstreamCall): (chunk: Buffer) => Buffer;
  /**
   * An error the upstream reports in a 2xx answer (Baidu's and Zhipu v3's error codes, Tencent Cloud's Response.Error,
   * all in a 200 body): the HTTP status
   * it stands for, or null when the answer is a real one. `body` is the whole answer; a streamed call's answer is
   * offered here only when it did not come as a stream (an error body in its place). The refusal is then handled as
   * if the upstream had answered that status (parseError reads the body).
   */
  answerError?(up: UpstreamCall, body: string): number | null;
  /** Errors in a transport-specific shape (Bedrock); else the wire codec reads them. */
  parseError?(status: number, body: string, headers: IncomingHttpHeaders): ParsedUpstreamError;
  /** The model a channel test uses when the channel names none. */
  defaultTestModel?: string;
  /** Codecs of the provider's own body formats (ProviderWires), registered with the client formats' ones. */
  codecs?: readonly WireCodec[];
  /**
   * A call read whole that takes more than one upstream round trip (an async task: submit, then poll until done), or
   * that is not made over HTTP (a WebSocket exchange): the provider drives it from the built request and resolves
   * with the final answer, or a refusal in the upstream's own error shape. Null: the request is sent once, as for
   * every other call.
   */
  fetch?(up: UpstreamCall, req: UpstreamRequest, client: Pick<UpstreamClient, 'fetch' | 'timeouts'>): BufferedCall | null;
  /**
   * A streamed call not made over HTTP (a WebSocket exchange): the provider presents it as a streamed answer whose
   * body is its wire's stream (or a refusal). Null or absent: the request is sent by the HTTP client.
   */
  stream?(up: UpstreamCall, req: UpstreamRequest, client: Pick<UpstreamClient, 'timeouts'>): StreamingCall | null;
  /**
   * The upstream's own token count for an attempt whose request body (`body`, in the attempt's wire format) it
   * counts; absent or null where it does not count (the call is then counted locally).
   */
  countTokens?(up: UpstreamCall, body: Record<string, unknown>): CountCall | Promise<CountCall> | null;
}
