import type { ChatChunk, ChatUsage } from '../../formats/openai/chat.js';
import { OpenAIChunkDecoder, openAIWire } from '../openai/wire.js';
import type { WireCodec } from '../../types.js';
import { openAIUsageOfXai } from './usage.js';

/*
 * xAI's chat bodies as a wire: OpenAI's, except for how usage counts reasoning (usage.ts). Answers are read and
 * re-sent with the usage corrected, so what the client is told matches what it is billed.
 */

export const XAI_WIRE = 'xai' as const;

declare module '../../types.js' {
  interface ProviderWires {
    xai: true;
  }
}

class XaiChunkDecoder extends OpenAIChunkDecoder {
  protected override accept(chunk: ChatChunk): ChatChunk[] {
    openAIUsageOfXai(chunk.usage);
    return super.accept(chunk);
  }
}

export const xaiWire: WireCodec = {
  ...openAIWire,
  format: XAI_WIRE,
  decode(body, up) {
    const answer = openAIWire.decode(body, up);
    openAIUsageOfXai(answer.usage as ChatUsage | undefined);
    return answer;
  },
  streamDecoder: () => new XaiChunkDecoder(),
};
