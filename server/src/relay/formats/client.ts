import type { StreamCut } from './passthrough-meter.js';
import type { ChatChunk, ChatUsage } from './openai/chat.js';
import type { ClientCall, ClientFormat, Usage } from '../types.js';
import type { TextVisitor } from './prompt-text.js';

/*
 * What the pipeline needs from a client format: its request in the canonical shape, canonical answers in its own
 * shape (whole and streamed), metering of a same-format stream passed through, and its error body.
 */

/** Reads a same-format stream on the side while its bytes go to the client. */
export interface StreamMeter {
  /** Upstream bytes in; the bytes to forward now out. */
  push(chunk: Buffer): Buffer;
  /**
   * The end of the upstream body: anything still held and what the format needs to close a stream cleanly; or,
   * when the upstream was cut (or ended without its final event), the format's error event instead.
   */
  finish(cut: boolean, reason?: StreamCut): Buffer;
  /**
   * After a clean finish: the last bytes, given the usage the call is charged for (as reported, or counted here when
   * the upstream never said). A format that reports usage in the stream sends it here if the upstream did not.
   */
  close?(usage: Usage): Buffer;
  /** Usage as the upstream reported it; null when it never came. */
  readonly usage: Usage | null;
  /** Prompt-side usage known before the end (Claude's message_start), for a stream that stopped early. */
  partialUsage?(): Usage | null;
  /** ms timestamp of the first generated token, 0 before it. */
  readonly firstTokenAt: number;
  /** Output tokens counted from what went by (when the upstream never reported usage). */
  counted(): number;
  /** Headers of the answer when it is not an SSE stream (Gemini's JSON array stream). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Canonical chunks into this format's stream. */
export interface ChunkEncoder {
  push(chunk: ChatChunk): string;
  /** The closing events; usage, when given, is the one to report. */
  finish(usage: ChatUsage | undefined): string;
  /** A failure after the stream started, the way the format reports one. */
  error(status: number, message: string): string;
  /** Headers of the answer when it is not an SSE stream (Gemini's JSON array stream). */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface ErrorFields {
  status: number;
  message: string;
  /** OpenAI's error type; derived from the status when unset. */
  type?: string;
  code?: string;
  /** The request field at fault (OpenAI's `param`). */
  param?: string;
  /** Seconds after which a call may succeed again (sent as Retry-After). */
  retryAfter?: number;
}

export interface ClientFormatModule {
  format: ClientFormat;
  /** The request as canonical OpenAI (ChatRequest in chat mode, the embeddings request in embeddings mode). */
  toCanonical(call: ClientCall): Record<string, unknown>;
  /** A canonical answer (ChatCompletion or embeddings response) in this format. */
  fromCanonical(answer: Record<string, unknown>, call: ClientCall): Record<string, unknown>;
  streamEncoder(call: ClientCall, promptEstimate: number): ChunkEncoder;
  streamMeter(call: ClientCall): StreamMeter;
  /** Usage of a same-format JSON answer. */
  usageFromJson(body: Buffer, call: ClientCall): Usage | null;
  errorBody(err: ErrorFields): string;
  /** Each piece of text the client wrote into the request (text parts only), for the sensitive-word check. */
  promptTexts(call: ClientCall, visit: TextVisitor): void;
}
