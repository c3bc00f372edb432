import { CHANNEL_TYPE, isAttributionReferer, isAttributionTitle } from '@switchyard/shared';
import type { UpstreamCall } from '../../types.js';
import { channelMemo } from '../channel-memo.js';
import { OPENAI_PATHS } from '../openai/index.js';
import { compatibleProvider, versionedUrl } from '../openai/compatible.js';
import { OPENROUTER_WIRE, openRouterWire } from './wire.js';

/*
 * OpenRouter (type 20): OpenAI's paths under https://openrouter.ai/api/v1. It ranks the apps that call it by two
 * headers, HTTP-Referer and X-Title: the channel's own (its setting's http_referer and x_title), else the system's
 * ServerAddress and SystemName, each sent only when it can be a header value (a Chinese SystemName cannot, and would
 * fail every call). Its answers (reasoning, reasoning_details, provider) pass through to OpenAI-format clients as
 * they are; other clients' calls go through OpenRouter's wire (wire.ts), which reads its reasoning as thinking.
 */

/** The headers of the attribution that can be sent, checked once per channel and value. */
function attributionHeaders(up: UpstreamCall, site: string, title: string): Readonly<Record<string, string>> {
  return channelMemo(up.channel, `openrouter-attribution\n${site}\n${title}`, () => {
    const out: Record<string, string> = {};
    if (isAttributionReferer(site)) out['http-referer'] = site;
    if (isAttributionTitle(title)) out['x-title'] = title;
    return Object.freeze(out);
  });
}

export const openRouterProvider = compatibleProvider({
  name: 'openrouter',
  types: [CHANNEL_TYPE.OPENROUTER],
  modes: ['chat', 'completions', 'embeddings'],
  url: (base, up) => versionedUrl(base, '/v1', OPENAI_PATHS[up.call.mode].slice(3)),
  wire: (up) => (up.call.mode === 'chat' && up.call.format !== 'openai' ? OPENROUTER_WIRE : 'openai'),
  codecs: [openRouterWire],
  headers(up) {
    const headers: Record<string, string> = { authorization: `Bearer ${up.key}` };
    const own = up.channel.settings?.attribution;
    const site = own?.referer || up.options.get('ServerAddress').trim();
    const title = own?.title || up.options.get('SystemName').trim();
    return Object.assign(headers, attributionHeaders(up, site, title));
  },
});
