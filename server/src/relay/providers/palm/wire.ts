import type { ChatRequest } from '../../formats/openai/chat.js';
import type { Attempt, UpstreamCall, WireCodec } from '../../types.js';
import { checkCanonical } from '../field-policy.js';
import { parseGeminiError } from '../gemini/errors.js';
import { parseJson } from '../openai/wire.js';
import { PALM_FIELDS } from './fields.js';
import { chatToPalmRequest } from './request.js';
import { PalmWholeAnswerDecoder, palmToChatCompletion } from './response.js';
import type { PalmAnswer } from './types.js';

/** PaLM 2's generateMessage body as a wire (chat only; errors are Google's, read as Gemini's). */

declare module '../../types.js' {
  interface ProviderWires {
    palm: true;
  }
}

export const palmWire: WireCodec = {
  format: 'palm',
  encode(canonical: Record<string, unknown>, up: Attempt) {
    checkCanonical(canonical as ChatRequest, PALM_FIELDS, up.dropped);
    return Object.assign(chatToPalmRequest(canonical as ChatRequest) as unknown as Record<string, unknown>, up.channel.paramOverride);
  },
  decode: (body: Buffer, up: UpstreamCall) => palmToChatCompletion(parseJson(body) as PalmAnswer, up.call.model) as unknown as Record<string, unknown>,
  streamDecoder: (up) => new PalmWholeAnswerDecoder(up.call.model),
  parseError: parseGeminiError,
};
