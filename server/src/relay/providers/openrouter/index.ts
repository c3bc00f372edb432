import { CHANNEL_TYPE } from '@switchyard/shared';
import { OPENAI_PATHS } from '../openai/index.js';
import { compatibleProvider, versionedUrl } from '../openai/compatible.js';
import { OPENROUTER_WIRE, openRouterWire } from './wire.js';

/*
 * OpenRouter (type 20): OpenAI's paths under https://openrouter.ai/api/v1. It ranks the apps that call it by two
 * headers, filled from the system's own settings: HTTP-Referer (ServerAddress) and X-Title (SystemName). Its answers
 * (reasoning, reasoning_details, provider) pass through to OpenAI-format clients as they are; other clients' calls go
 * through OpenRouter's wire (wire.ts), which reads its reasoning as thinking.
 */

export const openRouterProvider = compatibleProvider({
  name: 'openrouter',
  types: [CHANNEL_TYPE.OPENROUTER],
  modes: ['chat', 'completions', 'embeddings'],
  url: (base, up) => versionedUrl(base, '/v1', OPENAI_PATHS[up.call.mode].slice(3)),
  wire: (up) => (up.call.mode === 'chat' && up.call.format !== 'openai' ? OPENROUTER_WIRE : 'openai'),
  codecs: [openRouterWire],
  headers(up) {
    const headers: Record<string, string> = { authorization: `Bearer ${up.key}` };
    const site = up.options.get('ServerAddress').trim();
    const title = up.options.get('SystemName').trim();
    if (site) headers['http-referer'] = site;
    if (title) headers['x-title'] = title;
    return headers;
  },
});
