import type { ChatChunk, ChatUsage } from '../../formats/openai/chat.js';
import type { WireCodec, WireFormat } from '../../types.js';
import { OpenAIChunkDecoder, openAIWire } from './wire.js';

/*
 * OpenAI's wire with an upstream's answers amended as they are read: its usage put in OpenAI's terms, its messages'
 * (and stream deltas') own fields put in OpenAI's spelling. Requests go as OpenAI's.
 */

export interface AnswerAmendments {
  /** Changes the usage object in place. */
  usage?(usage: ChatUsage): void;
  /** Changes a choice's message, or a stream chunk's delta, in place. */
  message?(message: Record<string, unknown>): void;
}

type Choice = { message?: Record<string, unknown>; delta?: Record<string, unknown> };

function amend(answer: { usage?: unknown; choices?: unknown }, fix: AnswerAmendments): void {
  if (fix.usage && answer.usage && typeof answer.usage === 'object') fix.usage(answer.usage as ChatUsage);
  if (!fix.message || !Array.isArray(answer.choices)) return;
  for (const choice of answer.choices as Choice[]) {
    const message = choice?.message ?? choice?.delta;
    if (message && typeof message === 'object') fix.message(message);
  }
}

class AmendedChunkDecoder extends OpenAIChunkDecoder {
  constructor(private readonly fix: AnswerAmendments) {
    super();
  }

  protected override accept(chunk: ChatChunk): ChatChunk[] {
    amend(chunk, this.fix);
    return super.accept(chunk);
  }
}

export function amendedOpenAIWire(format: WireFormat, fix: AnswerAmendments): WireCodec {
  return {
    ...openAIWire,
    format,
    decode(body, up) {
      const answer = openAIWire.decode(body, up);
      if (up.call.mode === 'chat' || up.call.mode === 'completions') amend(answer, fix);
      return answer;
    },
    streamDecoder: () => new AmendedChunkDecoder(fix),
  };
}
