import { CHANNEL_TYPE } from '@switchyard/shared';
import { compatibleProvider, versionedUrl } from '../openai/compatible.js';

/*
 * Baidu Qianfan v2 (type 46): OpenAI's shapes under /v2 with the API key (bce-v3/…) as a Bearer token. A key written
 * as `API Key|AppID` also names the Qianfan application, sent in the appid header.
 */

export function qianfanKey(key: string): { apiKey: string; appId: string } {
  const bar = key.lastIndexOf('|');
  return bar < 0 ? { apiKey: key, appId: '' } : { apiKey: key.slice(0, bar).trim(), appId: key.slice(bar + 1).trim() };
}

export const baiduV2Provider = compatibleProvider({
  name: 'baidu-v2',
  types: [CHANNEL_TYPE.BAIDU_V2],
  modes: ['chat', 'embeddings'],
  url: (base, up) => versionedUrl(base, '/v2', up.call.mode === 'chat' ? '/chat/completions' : '/embeddings'),
  headers(up): Record<string, string> {
    const { apiKey, appId } = qianfanKey(up.key);
    return appId ? { authorization: `Bearer ${apiKey}`, appid: appId } : { authorization: `Bearer ${apiKey}` };
  },
  defaultTestModel: 'ernie-3.5-8k',
});
