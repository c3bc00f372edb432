import type { Mode, UpstreamCall, UpstreamRequest } from '../../types.js';
import { resolveBaseUrl } from '../base-url.js';
import { openAIRequest } from '../openai/index.js';

/*
 * Zhipu's v4 API (channel type 26, GLM-4 and GLM-4V): chat and embeddings under /api/paas/v4 in bodies close to
 * OpenAI's (v4-wire.ts), with a token made from the key (key.ts) as the bearer.
 */

const PREFIX = '/api/paas/v4';

export const V4_PATHS: Partial<Record<Mode, string>> = {
  chat: '/chat/completions',
  embeddings: '/embeddings',
};

/** The endpoint of a call; a base URL that already ends in /api/paas/v4 is not given a second one. */
export function zhipuV4Url(base: string, mode: Mode): string {
  const root = base.replace(/\/+$/, '');
  const prefix = root.endsWith(PREFIX) ? root : root + PREFIX;
  return prefix + (V4_PATHS[mode] ?? V4_PATHS.chat!);
}

export function buildZhipuV4Request(up: UpstreamCall, token: string): UpstreamRequest {
  return openAIRequest(up, zhipuV4Url(resolveBaseUrl(up.channel), up.call.mode), { authorization: `Bearer ${token}` });
}
