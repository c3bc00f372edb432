import type { ChatChunk, ChatRequest } from '../../formats/openai/chat.js';
import type { EmbeddingsRequest } from '../../formats/gemini/embeddings.js';
import type { GeminiBatchEmbedResponse, GeminiResponse } from '../../formats/gemini/types.js';
import { countInputTokens } from '../../tokenizer.js';
import type { Attempt, ChunkDecoder, UpstreamCall, WireCodec } from '../../types.js';
import { embeddingsToGemini, geminiToEmbeddings } from './embeddings.js';
import { parseGeminiError } from './errors.js';
import { chatToGeminiRequest } from './request.js';
import { geminiToChatCompletion, GeminiStreamToChat, parseGeminiEvent } from './response.js';
import { SseSplitter } from './sse.js';
import { checkCanonical } from '../field-policy.js';
import { GEMINI_FIELDS } from './fields.js';

/** Gemini's generateContent / batchEmbedContents bodies as a wire (Gemini channels, and Gemini models on Vertex). */

class GeminiChunkDecoder implements ChunkDecoder {
  failure: { type: string; message: string } | null = null;
  private readonly splitter = new SseSplitter();
  private readonly toChat: GeminiStreamToChat;

  constructor(model: string) {
    this.toChat = new GeminiStreamToChat(model);
  }

  push(chunk: Buffer): ChatChunk[] {
    return this.read(this.splitter.push(chunk));
  }

  finish(): ChatChunk[] {
    return [...this.read(this.splitter.finish()), ...this.toChat.finish()];
  }

  private read(events: string[]): ChatChunk[] {
    const out: ChatChunk[] = [];
    for (const data of events) {
      const event = parseGeminiEvent(data) as (GeminiResponse & { error?: { status?: unknown; message?: unknown } }) | null;
      if (!event) continue;
      if (event.error && typeof event.error === 'object') {
        this.failure = {
          type: typeof event.error.status === 'string' ? event.error.status : 'upstream_error',
          message: typeof event.error.message === 'string' ? event.error.message : '上游返回错误',
        };
        continue;
      }
      out.push(...this.toChat.push(event));
    }
    return out;
  }
}

/** The canonical request of a call (what the converters read). */
function canonicalOf(up: Attempt | UpstreamCall): Record<string, unknown> {
  return up.call.canonical ?? up.call.json ?? {};
}

export const geminiWire: WireCodec = {
  format: 'gemini',
  encode(canonical: Record<string, unknown>, up: Attempt) {
    if (up.call.mode === 'embeddings') return embeddingsToGemini(canonical as EmbeddingsRequest, up.upstreamModel) as unknown as Record<string, unknown>;
    checkCanonical(canonical as ChatRequest, GEMINI_FIELDS, up.dropped);
    const out = chatToGeminiRequest(canonical as ChatRequest, { safetySettings: up.options.get('gemini.safety_settings') });
    return Object.assign(out as unknown as Record<string, unknown>, up.channel.paramOverride);
  },
  decode(body: Buffer, up: UpstreamCall) {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    if (up.call.mode === 'embeddings') {
      const input = (canonicalOf(up) as { input?: unknown }).input;
      const promptTokens = countInputTokens(input, up.call.model);
      return geminiToEmbeddings(parsed as GeminiBatchEmbedResponse, up.call.model, promptTokens) as unknown as Record<string, unknown>;
    }
    return geminiToChatCompletion(parsed as GeminiResponse, up.call.model) as unknown as Record<string, unknown>;
  },
  streamDecoder: (up) => new GeminiChunkDecoder(up.call.model),
  parseError: parseGeminiError,
};
