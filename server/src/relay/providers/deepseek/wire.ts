import type { ChatUsage } from '../../formats/openai/chat.js';
import { amendedOpenAIWire } from '../openai/amended-wire.js';

/*
 * DeepSeek's chat bodies read for a client of another format (Claude, Gemini, Responses): its cache hits
 * (prompt_cache_hit_tokens) put where OpenAI's usage keeps them, so the client's own usage shows them as cache reads.
 * OpenAI-format clients get DeepSeek's answer untouched.
 */

export const DEEPSEEK_WIRE = 'deepseek' as const;

declare module '../../types.js' {
  interface ProviderWires {
    deepseek: true;
  }
}

function cacheHitsAsCachedTokens(usage: ChatUsage & { prompt_cache_hit_tokens?: unknown }): void {
  const hits = usage.prompt_cache_hit_tokens;
  if (typeof hits !== 'number' || hits <= 0 || usage.prompt_tokens_details?.cached_tokens) return;
  usage.prompt_tokens_details = { ...usage.prompt_tokens_details, cached_tokens: hits };
}

export const deepSeekWire = amendedOpenAIWire(DEEPSEEK_WIRE, { usage: cacheHitsAsCachedTokens });
