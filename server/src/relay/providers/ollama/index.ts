import { CHANNEL_TYPE } from '@switchyard/shared';
import type { Provider, UpstreamRequest } from '../../types.js';
import { resolveBaseUrl } from '../base-url.js';
import { openAIProvider, openAIWireOf } from '../openai/index.js';
import { ollamaWire } from './wire.js';

/*
 * Ollama (channel type 4): chat and completions through Ollama's OpenAI-compatible API ({base}/v1/...), embeddings
 * through its native POST {base}/api/embed (the ollama wire), flattened into OpenAI's shape. Ollama itself checks no
 * key; a key set on the channel is sent as a Bearer token for the proxy in front of it.
 */

export { ollamaWire } from './wire.js';
export { parseOllamaError } from './errors.js';

/** The server root: a base URL given with its /v1 (the OpenAI-compatible prefix) is used without it. */
export const ollamaRoot = (base: string): string => base.replace(/\/v1$/, '');

const MODES = new Set(['chat', 'completions', 'embeddings']);

export const ollamaProvider: Provider = {
  name: 'ollama',
  types: [CHANNEL_TYPE.OLLAMA],
  supports: (mode) => MODES.has(mode),
  wire: (up) => (up.call.mode === 'embeddings' ? 'ollama' : openAIWireOf(up)),
  build(up) {
    if (up.call.mode !== 'embeddings') return openAIProvider.build(up);
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (up.key) headers.authorization = `Bearer ${up.key}`;
    const req: UpstreamRequest = { url: `${ollamaRoot(resolveBaseUrl(up.channel))}/api/embed`, method: 'POST', headers, body: JSON.stringify(up.converted ?? {}) };
    return req;
  },
  codecs: [ollamaWire],
  defaultTestModel: 'llama3.2',
};
