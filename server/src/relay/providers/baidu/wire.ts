import type { EmbeddingsRequest } from '../../formats/gemini/embeddings.js';
import type { ChatChunk, ChatRequest } from '../../formats/openai/chat.js';
import type { Attempt, ChunkDecoder, UpstreamCall, Usage, WireCodec } from '../../types.js';
import { checkCanonical } from '../field-policy.js';
import { jsonEventData, SseSplitter } from '../gemini/sse.js';
import { parseJson } from '../openai/wire.js';
import { parseBaiduError } from './errors.js';
import { BAIDU_FIELDS } from './fields.js';
import { chatToErnieRequest, embeddingsToErnie } from './request.js';
import { ernieToChatCompletion, ernieToEmbeddings, ErnieStreamToChat } from './response.js';
import type { ErnieEmbeddingsResponse, ErnieResponse } from './types.js';

/** Qianfan v1's ERNIE chat and embeddings bodies as a wire (channel type 15). */

export const BAIDU_WIRE = 'baidu' as const;

declare module '../../types.js' {
  interface ProviderWires {
    baidu: true;
  }
}

class ErnieChunkDecoder implements ChunkDecoder {
  private readonly splitter = new SseSplitter(jsonEventData);
  private readonly toChat: ErnieStreamToChat;

  constructor(model: string) {
    this.toChat = new ErnieStreamToChat(model);
  }

  get failure() {
    return this.toChat.failure;
  }

  partialUsage(): Usage | null {
    return this.toChat.partialUsage();
  }

  push(chunk: Buffer): ChatChunk[] {
    return this.splitter.push(chunk).flatMap((e) => this.toChat.push(e as ErnieResponse));
  }

  finish(): ChatChunk[] {
    return this.splitter.finish().flatMap((e) => this.toChat.push(e as ErnieResponse));
  }
}

export const baiduWire: WireCodec = {
  format: BAIDU_WIRE,
  encode(canonical: Record<string, unknown>, up: Attempt) {
    if (up.call.mode === 'embeddings') return embeddingsToErnie(canonical as EmbeddingsRequest) as unknown as Record<string, unknown>;
    checkCanonical(canonical as ChatRequest, BAIDU_FIELDS, up.dropped);
    const out = chatToErnieRequest(canonical as ChatRequest, up.call.stream) as unknown as Record<string, unknown>;
    return Object.assign(out, up.channel.paramOverride);
  },
  decode(body: Buffer, up: UpstreamCall) {
    const parsed = parseJson(body);
    if (up.call.mode === 'embeddings') return ernieToEmbeddings(parsed as ErnieEmbeddingsResponse, up.call.model) as unknown as Record<string, unknown>;
    return ernieToChatCompletion(parsed as ErnieResponse, up.call.model) as unknown as Record<string, unknown>;
  },
  streamDecoder: (up) => new ErnieChunkDecoder(up.call.model),
  parseError: parseBaiduError,
};
