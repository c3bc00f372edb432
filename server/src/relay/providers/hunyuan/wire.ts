import type { ChatChunk, ChatRequest } from '../../formats/openai/chat.js';
import type { Attempt, ChunkDecoder, Usage, UpstreamCall, WireCodec } from '../../types.js';
import { checkCanonical } from '../field-policy.js';
import { SseSplitter } from '../gemini/sse.js';
import { parseHunyuanError } from './errors.js';
import { HUNYUAN_FIELDS } from './fields.js';
import { chatToHunyuanRequest } from './request.js';
import { HunyuanStreamToChat, hunyuanToChatCompletion } from './response.js';
import type { HunyuanAnswer, HunyuanEnvelope } from './types.js';

/** Hunyuan's ChatCompletions body as a wire (Tencent channels, chat only). */

function parseEvent(data: string): HunyuanAnswer | null {
  try {
    const parsed: unknown = JSON.parse(data);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
    const env = parsed as HunyuanEnvelope & HunyuanAnswer;
    return env.Response ?? env;
  } catch {
    return null;
  }
}

export class HunyuanChunkDecoder implements ChunkDecoder {
  private readonly splitter = new SseSplitter();
  private readonly toChat: HunyuanStreamToChat;

  constructor(model: string, created?: number) {
    this.toChat = new HunyuanStreamToChat(model, created);
  }

  get failure() {
    return this.toChat.failure;
  }

  push(chunk: Buffer): ChatChunk[] {
    return this.read(this.splitter.push(chunk));
  }

  finish(): ChatChunk[] {
    return this.read(this.splitter.finish());
  }

  partialUsage(): Usage | null {
    return this.toChat.partialUsage();
  }

  private read(datas: string[]): ChatChunk[] {
    const out: ChatChunk[] = [];
    for (const data of datas) {
      if (data.trim() === '[DONE]') continue;
      const event = parseEvent(data);
      if (!event) continue;
      if (event.Error && typeof event.Error === 'object') {
        this.toChat.failure = { type: 'upstream_error', message: event.Error.Message || '混元返回错误' };
        continue;
      }
      out.push(...this.toChat.push(event));
    }
    return out;
  }
}

export const hunyuanWire: WireCodec = {
  format: 'hunyuan',
  encode(canonical: Record<string, unknown>, up: Attempt) {
    checkCanonical(canonical as ChatRequest, HUNYUAN_FIELDS, up.dropped);
    const out = chatToHunyuanRequest(canonical as ChatRequest, up.upstreamModel, up.call.stream) as unknown as Record<string, unknown>;
    return Object.assign(out, up.channel.paramOverride);
  },
  decode(body: Buffer, up: UpstreamCall) {
    const answer = parseEvent(body.toString('utf8'));
    if (!answer) throw new Error('upstream answer is not a JSON object');
    return hunyuanToChatCompletion(answer, up.call.model) as unknown as Record<string, unknown>;
  },
  streamDecoder: (up) => new HunyuanChunkDecoder(up.call.model),
  parseError: parseHunyuanError,
};
