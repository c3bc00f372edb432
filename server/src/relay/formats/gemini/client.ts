import type { ClientCall } from '../../types.js';
import type { ChunkEncoder, ClientFormatModule } from '../client.js';
import type { ChatCompletion, ChatChunk, ChatUsage } from '../openai/chat.js';
import { geminiEmbedToOpenAI, openAIToGeminiEmbed, type EmbeddingsResponse } from './embeddings.js';
import { geminiErrorBody } from './errors.js';
import { camelCaseFields } from './field-names.js';
import { chatToGemini, ChatToGeminiStream } from './from-chat.js';
import { GeminiStreamMeter, geminiUsageFromJson } from './meter.js';
import { PassthroughMeter, UPSTREAM_CUT, type StreamCut } from '../passthrough-meter.js';
import { geminiToChat } from './to-chat.js';
import type { GeminiBatchEmbedRequest, GeminiEmbedContentRequest, GeminiRequest } from './types.js';

/** Gemini reports a failure inside a stream as an event holding its error body. */
function streamError(status: number, message: string): string {
  return `data: ${JSON.stringify(geminiErrorBody(status, message))}\r\n\r\n`;
}

class GeminiChunkEncoder implements ChunkEncoder {
  private readonly stream = new ChatToGeminiStream();

  push(chunk: ChatChunk): string {
    return this.stream.push(chunk);
  }

  finish(usage: ChatUsage | undefined): string {
    return this.stream.finish(usage);
  }

  error(status: number, message: string): string {
    return streamError(status, message);
  }
}

class GeminiPassthroughMeter extends PassthroughMeter<GeminiStreamMeter> {
  constructor(call: ClientCall) {
    super(new GeminiStreamMeter(call.model));
  }

  finish(cut: boolean, reason: StreamCut = UPSTREAM_CUT): Buffer {
    const rest = this.meter.finish();
    return cut ? Buffer.from(streamError(reason.status, reason.message)) : rest;
  }
}

export const geminiClient: ClientFormatModule = {
  format: 'gemini',
  toCanonical(call) {
    if (call.mode === 'embeddings') {
      return geminiEmbedToOpenAI(camelCaseFields(call.json) as unknown as GeminiEmbedContentRequest | GeminiBatchEmbedRequest, call.model);
    }
    return geminiToChat(call.json as unknown as GeminiRequest, call.model, call.stream) as unknown as Record<string, unknown>;
  },
  fromCanonical(answer, call) {
    if (call.mode === 'embeddings') return openAIToGeminiEmbed(answer as unknown as EmbeddingsResponse, !call.single) as unknown as Record<string, unknown>;
    return chatToGemini(answer as unknown as ChatCompletion) as unknown as Record<string, unknown>;
  },
  streamEncoder: () => new GeminiChunkEncoder(),
  streamMeter: (call) => new GeminiPassthroughMeter(call),
  usageFromJson: (body) => geminiUsageFromJson(body),
  errorBody: (err) => JSON.stringify(geminiErrorBody(err.status, err.message)),
};
