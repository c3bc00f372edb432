import type { ChatChunk, ChatRequest } from '../../formats/openai/chat.js';
import type { Attempt, ChunkDecoder, UpstreamCall, WireCodec } from '../../types.js';
import { SseSplitter } from '../gemini/sse.js';
import { parseCohereError } from './errors.js';
import { checkCanonical } from '../field-policy.js';
import { COHERE_FIELDS } from './fields.js';
import { chatToCohereRequest } from './request.js';
import { cohereToChatCompletion } from './response.js';
import { CohereStreamToChat, parseCohereEvent } from './stream.js';
import type { CohereChatResponse } from './types.js';

/** Cohere's v2 chat body as a wire (Cohere channels, chat only: rerank goes through as OpenAI/Jina JSON). */

export class CohereChunkDecoder implements ChunkDecoder {
  private readonly splitter = new SseSplitter();
  private readonly toChat: CohereStreamToChat;

  constructor(model: string, created?: number) {
    this.toChat = new CohereStreamToChat(model, created);
  }

  get failure() {
    return this.toChat.failure;
  }

  push(chunk: Buffer): ChatChunk[] {
    return this.read(this.splitter.push(chunk));
  }

  finish(): ChatChunk[] {
    return [...this.read(this.splitter.finish()), ...this.toChat.finish()];
  }

  private read(datas: string[]): ChatChunk[] {
    const out: ChatChunk[] = [];
    for (const data of datas) {
      const event = parseCohereEvent(data);
      if (event) out.push(...this.toChat.push(event));
    }
    return out;
  }
}

export const cohereWire: WireCodec = {
  format: 'cohere',
  encode(canonical: Record<string, unknown>, up: Attempt) {
    checkCanonical(canonical as ChatRequest, COHERE_FIELDS, up.dropped);
    const out = chatToCohereRequest(canonical as ChatRequest, up.upstreamModel, up.call.stream) as unknown as Record<string, unknown>;
    return Object.assign(out, up.channel.paramOverride);
  },
  decode(body: Buffer, up: UpstreamCall) {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('upstream answer is not a JSON object');
    return cohereToChatCompletion(parsed as CohereChatResponse, up.call.model) as unknown as Record<string, unknown>;
  },
  streamDecoder: (up) => new CohereChunkDecoder(up.call.model),
  parseError: parseCohereError,
};
