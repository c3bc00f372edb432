import { CHANNEL_TYPE } from '@switchyard/shared';
import { pathSegment } from '../../path-segment.js';
import type { Provider } from '../../types.js';
import { resolveBaseUrl } from '../base-url.js';
import { palmWire } from './wire.js';

/*
 * Google PaLM 2 (channel type 11): the legacy chat API, POST {base}/v1beta2/models/{model}:generateMessage?key=KEY.
 * It has no stream: a streamed call sends the same request and gives the whole answer to the client as chunks.
 */

export { palmWire } from './wire.js';
export { chatToPalmRequest } from './request.js';

/** The API root: a base URL given with its /v1beta2 is used as is. */
export const palmRoot = (base: string): string => base.replace(/\/v1beta2$/, '');

export const palmProvider: Provider = {
  name: 'palm',
  types: [CHANNEL_TYPE.PALM],
  supports: (mode) => mode === 'chat',
  wire: () => 'palm',
  build(up) {
    const url = `${palmRoot(resolveBaseUrl(up.channel))}/v1beta2/models/${pathSegment(up.upstreamModel)}:generateMessage?key=${encodeURIComponent(up.key)}`;
    return { url, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(up.converted ?? {}) };
  },
  codecs: [palmWire],
  defaultTestModel: 'chat-bison-001',
};
