import { CHANNEL_TYPE } from '@switchyard/shared';
import { RelayError } from '../../errors.js';
import type { Provider } from '../../types.js';
import { resolveBaseUrl } from '../base-url.js';
import { libraryErrorStatus, parseLibraryError } from './errors.js';
import { libraryIdOf, libraryWire } from './wire.js';

/*
 * AI Proxy knowledge base (channel type 21): POST {base}/api/library/ask {model, query, libraryId, stream} with the
 * key as a Bearer token; the knowledge base's id is the channel's "other" field. The answer comes with the documents
 * it drew on, appended as references. Refusals come in 200 answers (answerError).
 */

export { libraryWire, LibraryChunkDecoder } from './wire.js';
export { parseLibraryError, libraryErrorStatus } from './errors.js';

export const aiProxyLibraryProvider: Provider = {
  name: 'aiproxy-library',
  types: [CHANNEL_TYPE.AIPROXY_LIBRARY],
  supports: (mode) => mode === 'chat',
  wire: () => 'aiproxy-library',
  build(up) {
    if (!libraryIdOf(up)) throw new RelayError(502, 'AI Proxy 知识库渠道需要在"其他参数"中填写知识库 ID', 'library_id_missing', undefined, false);
    const headers = { authorization: `Bearer ${up.key}`, 'content-type': 'application/json', accept: up.call.stream ? 'text/event-stream' : 'application/json' };
    return { url: `${resolveBaseUrl(up.channel)}/api/library/ask`, method: 'POST', headers, body: JSON.stringify(up.converted ?? {}) };
  },
  answerError: (_up, body) => libraryErrorStatus(body),
  parseError: (status, body) => parseLibraryError(status, body),
  codecs: [libraryWire],
  defaultTestModel: 'gpt-3.5-turbo',
};
