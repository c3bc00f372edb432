import { amendedOpenAIWire } from '../openai/amended-wire.js';

/*
 * OpenRouter's chat bodies read for a client of another format (Claude, Gemini, Responses): its thinking comes as
 * `reasoning`, which becomes OpenAI-compatible servers' reasoning_content, so the client sees it as thinking.
 * OpenAI-format clients get OpenRouter's answer untouched.
 */

export const OPENROUTER_WIRE = 'openrouter' as const;

declare module '../../types.js' {
  interface ProviderWires {
    openrouter: true;
  }
}

export const openRouterWire = amendedOpenAIWire(OPENROUTER_WIRE, {
  message(m) {
    if (typeof m.reasoning === 'string' && m.reasoning && m.reasoning_content === undefined) m.reasoning_content = m.reasoning;
    delete m.reasoning;
  },
});
