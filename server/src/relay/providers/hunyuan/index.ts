import { CHANNEL_TYPE } from '@switchyard/shared';
import type { Provider, UpstreamCall, UpstreamRequest } from '../../types.js';
import { resolveBaseUrl } from '../base-url.js';
import { hunyuanErrorStatus, parseHunyuanError } from './errors.js';
import { parseTencentKey } from './key.js';
import { tc3Authorization } from './sign.js';
import { hunyuanWire } from './wire.js';

/*
 * Tencent Hunyuan (channel type 23): the ChatCompletions action of Tencent Cloud API 3.0 (version 2023-09-01), a POST
 * to the service root signed with TC3-HMAC-SHA256 from the key appId|secretId|secretKey. Every client format reaches
 * it through the canonical shape (the hunyuan wire). The region is the channel's "other" field, ap-guangzhou unless
 * set. Tencent answers errors with HTTP 200 and Response.Error: answerError tells the pipeline which status they mean.
 */

export { hunyuanWire, HunyuanChunkDecoder } from './wire.js';
export { parseHunyuanError, hunyuanErrorStatus } from './errors.js';
export { tc3Authorization } from './sign.js';

const SERVICE = 'hunyuan';
const ACTION = 'ChatCompletions';
const VERSION = '2023-09-01';
const DEFAULT_REGION = 'ap-guangzhou';
const CONTENT_TYPE = 'application/json';

function signedRequest(up: UpstreamCall): UpstreamRequest {
  const key = parseTencentKey(up.key);
  const url = `${resolveBaseUrl(up.channel)}/`;
  const host = new URL(url).host;
  const body = JSON.stringify(up.converted ?? {});
  const timestamp = Math.floor(Date.now() / 1000);
  const authorization = tc3Authorization({ secretId: key.secretId, secretKey: key.secretKey, service: SERVICE, host, contentType: CONTENT_TYPE, timestamp, payload: body });
  const headers: Record<string, string> = {
    authorization,
    'content-type': CONTENT_TYPE,
    'x-tc-action': ACTION,
    'x-tc-version': VERSION,
    'x-tc-timestamp': String(timestamp),
    'x-tc-region': up.channel.other.trim() || DEFAULT_REGION,
  };
  if (up.call.stream) headers.accept = 'text/event-stream';
  return { url, method: 'POST', headers, body };
}

export const hunyuanProvider: Provider = {
  name: 'hunyuan',
  types: [CHANNEL_TYPE.TENCENT],
  supports: (mode) => mode === 'chat',
  wire: () => 'hunyuan',
  build: signedRequest,
  answerError: (_up, body) => hunyuanErrorStatus(body),
  parseError: (status, body) => parseHunyuanError(status, body),
  codecs: [hunyuanWire],
  defaultTestModel: 'hunyuan-lite',
};
