import type { ChatChunk, ChatRequest } from '../../formats/openai/chat.js';
import type { Attempt, ChunkDecoder, UpstreamCall, WireCodec } from '../../types.js';
import { checkCanonical } from '../field-policy.js';
import { SseSplitter } from '../gemini/sse.js';
import { parseJson } from '../openai/wire.js';
import { parseZhipuError } from './errors.js';
import { ZHIPU_V3_FIELDS } from './v3-fields.js';
import { chatToZhipuV3Request } from './v3-request.js';
import { parseZhipuV3Event, zhipuV3ToChatCompletion, ZhipuV3StreamToChat } from './v3-response.js';
import type { ZhipuV3Event, ZhipuV3Response } from './v3-types.js';

/** Zhipu's v3 invoke / sse-invoke bodies as a wire (channel type 16, chat only). */

export const ZHIPU_V3_WIRE = 'zhipu_v3' as const;

declare module '../../types.js' {
  interface ProviderWires {
    zhipu_v3: true;
  }
}

class ZhipuV3ChunkDecoder implements ChunkDecoder {
  private readonly splitter = new SseSplitter<ZhipuV3Event>(parseZhipuV3Event);
  private readonly toChat: ZhipuV3StreamToChat;

  constructor(model: string) {
    this.toChat = new ZhipuV3StreamToChat(model);
  }

  get failure() {
    return this.toChat.failure;
  }

  push(chunk: Buffer): ChatChunk[] {
    return this.splitter.push(chunk).flatMap((e) => this.toChat.push(e));
  }

  finish(): ChatChunk[] {
    return this.splitter.finish().flatMap((e) => this.toChat.push(e));
  }
}

export const zhipuV3Wire: WireCodec = {
  format: ZHIPU_V3_WIRE,
  encode(canonical: Record<string, unknown>, up: Attempt) {
    checkCanonical(canonical as ChatRequest, ZHIPU_V3_FIELDS, up.dropped);
    const out = chatToZhipuV3Request(canonical as ChatRequest, up.call.stream) as unknown as Record<string, unknown>;
    return Object.assign(out, up.channel.paramOverride);
  },
  decode(body: Buffer, up: UpstreamCall) {
    return zhipuV3ToChatCompletion(parseJson(body) as ZhipuV3Response, up.call.model) as unknown as Record<string, unknown>;
  },
  streamDecoder: (up) => new ZhipuV3ChunkDecoder(up.call.model),
  parseError: parseZhipuError,
};
