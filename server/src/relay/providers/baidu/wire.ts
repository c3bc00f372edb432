import type { EmbeddingsRequest } from '../../formats/gemini/embeddings.js';
import type { ChatChunk, ChatRequest } from '../../formats/openai/chat.js';
import type { Attempt, ChunkDecoder, UpstreamCall, Usage, WireCodec } from '../../types.js';
import { checkCanonical } from '../field-policy.js';
import { SseSplitter } from '../gemini/sse.js';
import { parseBaiduError } from './errors.js';
import { BAIDU_FIELDS } from './fields.js';
import { chatToErnieRequest, embeddingsToErnie } from './request.js';
import { ernieToChatCompletion, ernieToEmbeddings, ErnieStreamToChat } from './response.js';
import type { ErnieEmbeddingsResponse, ErnieResponse } from './types.js';

/** Qianfan v1's ERNIE chat and embeddings bodies as a wire (channel type 15). */

export const BAIDU_WIRE = 'baidu';

class ErnieChunkDecoder implements ChunkDecoder {
  private readonly splitter = new SseSplitter();
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
    return this.read(this.splitter.push(chunk));
  }

  finish(): ChatChunk[] {
    return this.read(this.splitter.finish());
  }

  private read(events: string[]): ChatChunk[] {
    const out: ChatChunk[] = [];
    for (const data of events) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(data);
      } catch {
        continue;
      }
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) out.push(...this.toChat.push(parsed as ErnieResponse));
    }
    return out;
  }
}

function parseObject(body: Buffer): Record<string, unknown> {
  const parsed: unknown = JSON.parse(body.toString('utf8'));
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('upstream answer is not a JSON object');
  return parsed as Record<string, unknown>;
}

export const baiduWire: WireCodec = {
  format: BAIDU_WIRE,
  encode(canonical: Record<string, unknown>, up: Attempt) {
    if (up.call.mode === 'embeddings') return embeddingsToErnie(canonical as EmbeddingsRequest) as unknown as Record<string, unknown>;
    checkCanonical(canonical as ChatRequest, BAIDU_FIELDS);
    const out = chatToErnieRequest(canonical as ChatRequest, up.call.stream) as unknown as Record<string, unknown>;
    return Object.assign(out, up.channel.paramOverride);
  },
  decode(body: Buffer, up: UpstreamCall) {
    const parsed = parseObject(body);
    if (up.call.mode === 'embeddings') return ernieToEmbeddings(parsed as ErnieEmbeddingsResponse, up.call.model) as unknown as Record<string, unknown>;
    return ernieToChatCompletion(parsed as ErnieResponse, up.call.model) as unknown as Record<string, unknown>;
  },
  streamDecoder: (up) => new ErnieChunkDecoder(up.call.model),
  parseError: parseBaiduError,
};
