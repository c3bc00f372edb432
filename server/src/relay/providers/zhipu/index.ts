import { CHANNEL_TYPE } from '@switchyard/shared';
import type { Provider, UpstreamCall, UpstreamRequest } from '../../types.js';
import { pathSegment } from '../../path-segment.js';
import { resolveBaseUrl } from '../base-url.js';
import type { TokenCache } from '../token-cache.js';
import { parseZhipuError, zhipuV3AnswerError } from './errors.js';
import { parseZhipuKey, zhipuTokenCache, type ZhipuKey } from './key.js';
import { buildZhipuV4Request, V4_PATHS } from './v4.js';
import { ZHIPU_V3_WIRE, zhipuV3Wire } from './v3-wire.js';
import { ZHIPU_V4_WIRE, zhipuV4AnswerError, zhipuV4Wire } from './v4-wire.js';

/*
 * Zhipu AI: the v4 API (channel type 26) speaks bodies close to OpenAI's (v4-wire.ts); the older v3 model API (type 16, ChatGLM) has its
 * own (v3-*.ts). Both take a JWT made from the key `id.secret` as the bearer (key.ts), made once per key and reused
 * until shortly before it expires.
 */

/** The v3 endpoint of a model; a base URL that already names an API version is cut back to the host's root. */
export function zhipuV3Url(base: string, model: string, stream: boolean): string {
  const root = base.replace(/\/+$/, '').replace(/\/api\/paas\/v\d+$/, '');
  return `${root}/api/paas/v3/model-api/${pathSegment(model)}/${stream ? 'sse-invoke' : 'invoke'}`;
}

function buildZhipuV3Request(up: UpstreamCall, token: string): UpstreamRequest {
  const headers: Record<string, string> = {
    authorization: token,
    'content-type': 'application/json',
    accept: up.call.stream ? 'text/event-stream' : 'application/json',
  };
  // Every client's chat is converted (no client speaks the v3 body); the raw body is only a defensive fallback.
  const body = up.converted ? JSON.stringify(up.converted) : (up.call.raw ?? JSON.stringify(up.call.json ?? {}));
  return { url: zhipuV3Url(resolveBaseUrl(up.channel), up.upstreamModel, up.call.stream), method: 'POST', headers, body };
}

export function createZhipuProviders(tokens: TokenCache<ZhipuKey>): { v3: Provider; v4: Provider } {
  const tokenOf = (up: UpstreamCall) => tokens.get(parseZhipuKey(up.key));
  const v4: Provider = {
    name: 'zhipu_v4',
    types: [CHANNEL_TYPE.ZHIPU_V4],
    supports: (mode) => mode in V4_PATHS,
    wire: () => ZHIPU_V4_WIRE,
    codecs: [zhipuV4Wire],
    build: async (up) => buildZhipuV4Request(up, await tokenOf(up)),
    answerError: (up, body) => (up.call.mode === 'chat' ? zhipuV4AnswerError(body) : null),
    parseError: (status, body) => parseZhipuError(status, body),
    defaultTestModel: 'glm-4-flash',
  };
  const v3: Provider = {
    name: 'zhipu_v3',
    types: [CHANNEL_TYPE.ZHIPU],
    supports: (mode) => mode === 'chat',
    wire: () => ZHIPU_V3_WIRE,
    codecs: [zhipuV3Wire],
    // The v3 API sends the token without a Bearer prefix, as its own clients do.
    build: async (up) => buildZhipuV3Request(up, await tokenOf(up)),
    answerError: (_up, body) => zhipuV3AnswerError(body),
    parseError: (status, body) => parseZhipuError(status, body),
    defaultTestModel: 'chatglm_turbo',
  };
  return { v3, v4 };
}

const providers = createZhipuProviders(zhipuTokenCache());

export const zhipuProvider: Provider = providers.v3;
export const zhipuV4Provider: Provider = providers.v4;

export { parseZhipuKey, signZhipuToken, zhipuTokenCache, TOKEN_LIFETIME_SECONDS, type ZhipuKey } from './key.js';
export { parseZhipuError, zhipuCodeStatus, zhipuV3AnswerError } from './errors.js';
export { zhipuV4Url } from './v4.js';
export { zhipuV3Wire } from './v3-wire.js';
export { zhipuV4Wire } from './v4-wire.js';
