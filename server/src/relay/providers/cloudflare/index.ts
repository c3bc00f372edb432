import { CHANNEL_TYPE } from '@switchyard/shared';
import { RelayError } from '../../errors.js';
import { pathSegment } from '../../path-segment.js';
import type { Mode, Provider } from '../../types.js';
import { resolveBaseUrl } from '../base-url.js';
import { openAIRequest } from '../openai/index.js';
import { parseCloudflareError } from './errors.js';

/*
 * Cloudflare Workers AI (channel type 39) through its OpenAI-compatible endpoints, which live under the account:
 * the channel's "other" field holds the account ID.
 */

export { parseCloudflareError } from './errors.js';

const PATHS: Partial<Record<Mode, string>> = {
  chat: '/chat/completions',
  embeddings: '/embeddings',
};

export function cloudflareUrl(base: string, accountId: string, mode: Mode): string {
  const path = PATHS[mode] ?? '/chat/completions';
  return `${base.replace(/\/+$/, '')}/client/v4/accounts/${pathSegment(accountId)}/ai/v1${path}`;
}

export const cloudflareProvider: Provider = {
  name: 'cloudflare',
  types: [CHANNEL_TYPE.CLOUDFLARE],
  supports: (mode) => mode in PATHS,
  wire: () => 'openai',
  build(up) {
    const accountId = up.channel.other.trim();
    if (!accountId) throw new RelayError(500, 'Cloudflare 渠道需要在"其他参数"中填写 Account ID', 'missing_account_id', undefined, false);
    const url = cloudflareUrl(resolveBaseUrl(up.channel), accountId, up.call.mode);
    return openAIRequest(up, url, { authorization: `Bearer ${up.key}` });
  },
  parseError: (status, body) => parseCloudflareError(status, body),
  defaultTestModel: '@cf/meta/llama-3.1-8b-instruct',
};
