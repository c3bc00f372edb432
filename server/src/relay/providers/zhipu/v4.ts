import type { Mode, UpstreamCall, UpstreamRequest } from '../../types.js';
import { resolveBaseUrl } from '../base-url.js';
import { jsonBody } from '../body.js';
import { openAIRequest } from '../openai/index.js';

/*
 * Zhipu's v4 API (channel type 26, GLM-4 and GLM-4V): OpenAI's chat and embeddings bodies under /api/paas/v4, with
 * a token made from the key (key.ts) as the bearer.
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

/** Zhipu takes top_p in the open interval (0, 1): 1 (no cut at all) goes as the nearest value it accepts. */
const TOP_P_CEILING = 0.99;

function v4Body(up: UpstreamCall): Buffer | string {
  const body = jsonBody(up);
  const topP = (up.converted ?? up.call.json)?.top_p;
  if (up.call.mode !== 'chat' || typeof topP !== 'number' || topP < 1) return body;
  return JSON.stringify({ ...(JSON.parse(String(body)) as Record<string, unknown>), top_p: TOP_P_CEILING });
}

export function buildZhipuV4Request(up: UpstreamCall, token: string): UpstreamRequest {
  const req = openAIRequest(up, zhipuV4Url(resolveBaseUrl(up.channel), up.call.mode), { authorization: `Bearer ${token}` });
  req.body = v4Body(up);
  return req;
}
