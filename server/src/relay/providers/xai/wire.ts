import { amendedOpenAIWire } from '../openai/amended-wire.js';
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

export const xaiWire = amendedOpenAIWire(XAI_WIRE, { usage: openAIUsageOfXai });
