import { CHANNEL_TYPE } from '@switchyard/shared';
import type { Provider, UpstreamCall, UpstreamRequest } from '../../types.js';
import { resolveBaseUrl } from '../base-url.js';
import { parseDifyError } from './errors.js';
import type { DifyRequest } from './types.js';
import { withUploadedFiles } from './upload.js';
import { difyWire } from './wire.js';

/*
 * Dify (channel type 37): a chat or ChatFlow app's API, POST {base}/v1/chat-messages with the app's key as a Bearer
 * token (the key names the app, so the model name is not sent). Every client format reaches it through the canonical
 * shape: the conversation flattened into one query, images as files (data: URLs uploaded first, in build). Streams
 * are Dify's events; workflow and node progress is shown only when the channel's setting JSON has
 * {"show_workflow_events": true}.
 */

export { difyWire, DifyChunkDecoder, SHOW_PROGRESS_SETTING } from './wire.js';
export { parseDifyError } from './errors.js';
export { chatToDifyRequest } from './request.js';

/** The API root: a base URL given with its /v1 is used as is. */
export const difyRoot = (base: string): string => base.replace(/\/v1$/, '');

async function build(up: UpstreamCall): Promise<UpstreamRequest> {
  const root = difyRoot(resolveBaseUrl(up.channel));
  const body = await withUploadedFiles((up.converted ?? {}) as unknown as DifyRequest, root, up.key);
  const headers: Record<string, string> = {
    authorization: `Bearer ${up.key}`,
    'content-type': 'application/json',
    accept: up.call.stream ? 'text/event-stream' : 'application/json',
  };
  return { url: `${root}/v1/chat-messages`, method: 'POST', headers, body: JSON.stringify(body) };
}

export const difyProvider: Provider = {
  name: 'dify',
  types: [CHANNEL_TYPE.DIFY],
  supports: (mode) => mode === 'chat',
  wire: () => 'dify',
  build,
  parseError: (status, body) => parseDifyError(status, body),
  codecs: [difyWire],
  defaultTestModel: 'dify',
};
