import { CHANNEL_TYPE } from '@switchyard/shared';
import type { Provider } from '../../types.js';
import { resolveBaseUrl } from '../base-url.js';
import { parseJinaError } from './errors.js';
import { jinaWire } from './wire.js';

/*
 * Jina AI (channel type 38): embeddings (POST {base}/v1/embeddings, OpenAI's shape plus Jina's own fields such as
 * task, late_chunking and image inputs) and rerank (POST {base}/v1/rerank: query, documents, top_n,
 * return_documents), with the key as a Bearer token. Bodies go through as sent; answers are billed on the prompt
 * side (wire.ts).
 */

export { jinaWire, normalizeJinaAnswer } from './wire.js';
export { parseJinaError } from './errors.js';

const PATHS = { embeddings: '/v1/embeddings', rerank: '/v1/rerank' } as const;

/** The API root: a base URL given with its /v1 is used as is. */
export const jinaRoot = (base: string): string => base.replace(/\/v1$/, '');

export const jinaProvider: Provider = {
  name: 'jina',
  types: [CHANNEL_TYPE.JINA],
  supports: (mode) => mode in PATHS,
  wire: () => 'jina',
  build(up) {
    const path = PATHS[up.call.mode as keyof typeof PATHS];
    const headers = { authorization: `Bearer ${up.key}`, 'content-type': 'application/json', accept: 'application/json' };
    return { url: `${jinaRoot(resolveBaseUrl(up.channel))}${path}`, method: 'POST', headers, body: JSON.stringify(up.converted ?? {}) };
  },
  parseError: (status, body) => parseJinaError(status, body),
  codecs: [jinaWire],
  defaultTestModel: 'jina-embeddings-v3',
};
