import { CHANNEL_TYPE } from '@switchyard/shared';
import type { Provider, UpstreamCall, UpstreamRequest } from '../../types.js';
import { resolveBaseUrl } from '../base-url.js';
import { parseSparkError } from './errors.js';
import { parseSparkKey } from './key.js';
import { signedSparkUrl } from './sign.js';
import { fetchSpark, streamSpark } from './socket.js';
import type { SparkRequest } from './types.js';
import { sparkWire, versionOfAttempt } from './wire.js';

/*
 * iFlytek Spark (channel type 18): the chat WebSocket API. The key is appId|apiSecret|apiKey; each call opens a
 * socket at <base>/<version path> with a signed handshake URL, sends one request frame and reads answer frames until
 * the last. The version (domain and path) comes from the client's ?api-version=, the model name or the channel's
 * "other" field (versions.ts). Every client format reaches it through the canonical shape (the spark wire); the
 * exchange itself is presented to the pipeline as an HTTP answer (socket.ts).
 */

export { sparkWire } from './wire.js';
export { parseSparkError } from './errors.js';
export { sparkSignature, sparkAuthorization, signedSparkUrl } from './sign.js';
export { sparkVersion } from './versions.js';

/** A base URL written as http(s) reaches the same host over ws(s). */
function socketBase(base: string): string {
  return base.replace(/^http(s?):\/\//i, 'ws$1://');
}

function signedRequest(up: UpstreamCall): UpstreamRequest {
  const key = parseSparkKey(up.key);
  const version = versionOfAttempt(up);
  const url = signedSparkUrl(`${socketBase(resolveBaseUrl(up.channel))}${version.path}`, key.apiKey, key.apiSecret);
  const converted = (up.converted ?? {}) as unknown as SparkRequest;
  const frame: SparkRequest = { ...converted, header: { ...converted.header, app_id: key.appId } };
  return { url, method: 'GET', headers: {}, body: JSON.stringify(frame) };
}

export const sparkProvider: Provider = {
  name: 'spark',
  types: [CHANNEL_TYPE.XUNFEI],
  supports: (mode) => mode === 'chat',
  wire: () => 'spark',
  build: signedRequest,
  fetch: (_up, req, client) => fetchSpark(req, client.timeouts),
  stream: (_up, req, client) => streamSpark(req, client.timeouts),
  parseError: (status, body) => parseSparkError(status, body),
  codecs: [sparkWire],
  defaultTestModel: 'SparkDesk-v3.5',
};
