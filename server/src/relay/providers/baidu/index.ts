import { CHANNEL_TYPE } from '@switchyard/shared';
import type { Provider, UpstreamCall, UpstreamRequest } from '../../types.js';
import { pathSegment } from '../../path-segment.js';
import { resolveBaseUrl } from '../base-url.js';
import type { TokenCache } from '../token-cache.js';
import { baiduAnswerErrorCode, baiduCodeStatus, parseBaiduError, TOKEN_CODES } from './errors.js';
import { parseBaiduKey } from './key.js';
import { chatEndpoint, embeddingEndpoint } from './models.js';
import { baiduTokenCache, fetchBaiduToken, type BaiduCredential } from './token.js';
import { sharedOnNode } from '../shared-tokens.js';
import { BAIDU_WIRE, baiduWire } from './wire.js';

/*
 * Baidu ERNIE through Qianfan's v1 API (channel type 15): the key `apiKey|secretKey` is exchanged for an access
 * token (OAuth client credentials, token.ts), sent as ?access_token= on each call to the model's own endpoint
 * (models.ts), in ERNIE's bodies (wire.ts). Qianfan reports errors in 200 answers (errors.ts); one that says the
 * token is invalid or expired drops it, so the next call exchanges the key again.
 */

const PREFIX = '/rpc/2.0/ai_custom/v1/wenxinworkshop';

export function baiduUrl(base: string, mode: 'chat' | 'embeddings', model: string, accessToken: string): string {
  const endpoint = mode === 'embeddings' ? `embeddings/${pathSegment(embeddingEndpoint(model))}` : `chat/${pathSegment(chatEndpoint(model))}`;
  return `${base}${PREFIX}/${endpoint}?access_token=${encodeURIComponent(accessToken)}`;
}

function credentialOf(up: UpstreamCall): BaiduCredential {
  return { ...parseBaiduKey(up.key), base: resolveBaseUrl(up.channel) };
}

function buildRequest(up: UpstreamCall, accessToken: string): UpstreamRequest {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: up.call.stream ? 'text/event-stream' : 'application/json' };
  // Every client's call is converted (no client speaks ERNIE's body); the raw body is only a defensive fallback.
  const body = up.converted ? JSON.stringify(up.converted) : (up.call.raw ?? JSON.stringify(up.call.json ?? {}));
  const mode = up.call.mode === 'embeddings' ? 'embeddings' : 'chat';
  return { url: baiduUrl(resolveBaseUrl(up.channel), mode, up.upstreamModel, accessToken), method: 'POST', headers, body };
}

export function createBaiduProvider(tokens: TokenCache<BaiduCredential>): Provider {
  return {
    name: 'baidu',
    types: [CHANNEL_TYPE.BAIDU],
    supports: (mode) => mode === 'chat' || mode === 'embeddings',
    wire: () => BAIDU_WIRE,
    codecs: [baiduWire],
    build: async (up) => buildRequest(up, await tokens.get(credentialOf(up))),
    answerError(up, body) {
      const code = baiduAnswerErrorCode(body);
      if (code === null) return null;
      if (TOKEN_CODES.has(code)) tokens.drop(credentialOf(up));
      return baiduCodeStatus(code);
    },
    parseError: (status, body) => parseBaiduError(status, body),
    defaultTestModel: 'ERNIE-Speed-128K',
  };
}

/** Shared by every Baidu channel: one access token per application, renewed before it expires. */
// One exchange per node: the workers of a node share each token through their primary (shared-tokens.ts).
export const baiduProvider: Provider = createBaiduProvider(baiduTokenCache(sharedOnNode('baidu', fetchBaiduToken)));

export { parseBaiduKey, type BaiduKey } from './key.js';
export { baiduTokenCache, fetchBaiduToken, type BaiduCredential } from './token.js';
export { chatEndpoint, embeddingEndpoint } from './models.js';
export { parseBaiduError, baiduCodeStatus } from './errors.js';
export { baiduWire } from './wire.js';
