import type { ClientCall } from '../../types.js';
import type { ChunkEncoder, ClientFormatModule } from '../client.js';
import type { ChatCompletion, ChatChunk, ChatUsage } from '../openai/chat.js';
import { geminiEmbedToOpenAI, openAIToGeminiEmbed, type EmbeddingsResponse } from './embeddings.js';
import { geminiErrorBody } from './errors.js';
import { camelCaseFields } from './field-names.js';
import { chatToGemini, ChatToGeminiStream } from './from-chat.js';
import { GeminiStreamMeter, geminiUsageFromJson } from './meter.js';
import { PassthroughMeter, UPSTREAM_CUT, type StreamCut } from '../passthrough-meter.js';
import { JSON_STREAM_HEADERS, SseToJsonArray } from './json-array.js';
import { geminiToChat } from './to-chat.js';
import type { GeminiBatchEmbedRequest, GeminiEmbedContentRequest, GeminiRequest } from './types.js';
import { geminiPromptTexts } from './prompt-text.js';

/** Gemini reports a failure inside a stream as an event holding its error body (an element of an array stream). */
const errorJson = (status: number, message: string) => JSON.stringify(geminiErrorBody(status, message));
const streamError = (status: number, message: string) => `data: ${errorJson(status, message)}\r\n\r\n`;

class GeminiChunkEncoder implements ChunkEncoder {
  private readonly stream = new ChatToGeminiStream();
  /** Set for a client that asked for the JSON array rather than SSE. */
  private readonly array: SseToJsonArray | null;
  readonly headers: Readonly<Record<string, string>> | undefined;

  constructor(call: ClientCall) {
    this.array = call.arrayStream ? new SseToJsonArray() : null;
    this.headers = call.arrayStream ? JSON_STREAM_HEADERS : undefined;
  }

  push(chunk: ChatChunk): string {
    const sse = this.stream.push(chunk);
    return this.array && sse ? this.array.push(Buffer.from(sse)).toString() : sse;
  }

  finish(usage: ChatUsage | undefined): string {
    const sse = this.stream.finish(usage);
    if (!this.array) return sse;
    return Buffer.concat([this.array.push(Buffer.from(sse)), this.array.end()]).toString();
  }

  error(status: number, message: string): string {
    return this.array ? this.array.fail(errorJson(status, message)).toString() : streamError(status, message);
  }
}

/** Gemini's own stream passed through: forwarded as it came, or as the JSON array the client asked for. */
class GeminiPassthroughMeter extends PassthroughMeter<GeminiStreamMeter> {
  private readonly array: SseToJsonArray | null;
  readonly headers: Readonly<Record<string, string>> | undefined;

  constructor(call: ClientCall) {
    super(new GeminiStreamMeter(call.model));
    this.array = call.arrayStream ? new SseToJsonArray() : null;
    this.headers = call.arrayStream ? JSON_STREAM_HEADERS : undefined;
  }

  override push(chunk: Buffer): Buffer {
    const bytes = this.meter.push(chunk);
    return this.array ? this.array.push(bytes) : bytes;
  }

  finish(cut: boolean, reason: StreamCut = UPSTREAM_CUT): Buffer {
    const rest = this.meter.finish();
    if (this.array) return cut ? this.array.fail(errorJson(reason.status, reason.message)) : Buffer.concat([this.array.push(rest), this.array.end()]);
    return cut ? Buffer.from(streamError(reason.status, reason.message)) : rest;
  }
}

export const geminiClient: ClientFormatModule = {
  format: 'gemini',
  toCanonical(call) {
    if (call.mode === 'embeddings') {
      return geminiEmbedToOpenAI(camelCaseFields(call.json) as unknown as GeminiEmbedContentRequest | GeminiBatchEmbedRequest, call.model);
    }
    return geminiToChat(call.json as unknown as GeminiRequest, call.model, call.stream, (call.dropped = [])) as unknown as Record<string, unknown>;
  },
  fromCanonical(answer, call) {
    if (call.mode === 'embeddings') return openAIToGeminiEmbed(answer as unknown as EmbeddingsResponse, !call.single) as unknown as Record<string, unknown>;
    return chatToGemini(answer as unknown as ChatCompletion) as unknown as Record<string, unknown>;
  },
  streamEncoder: (call) => new GeminiChunkEncoder(call),
  streamMeter: (call) => new GeminiPassthroughMeter(call),
  usageFromJson: (body) => geminiUsageFromJson(body),
  errorBody: (err) => JSON.stringify(geminiErrorBody(err.status, err.message)),
  promptTexts: geminiPromptTexts,
};
