import type { EmbeddingsRequest } from '../../formats/gemini/embeddings.js';
import type { Attempt, ChunkDecoder, UpstreamCall, WireCodec } from '../../types.js';
import { parseJson } from '../openai/wire.js';
import { embeddingsToOllama, ollamaToEmbeddings, type OllamaEmbedResponse } from './embed.js';
import { parseOllamaError } from './errors.js';

/** Ollama's native embed body as a wire (embeddings only; chat goes through Ollama's OpenAI-compatible API). */

declare module '../../types.js' {
  interface ProviderWires {
    ollama: true;
  }
}

const noStream: ChunkDecoder = { push: () => [], finish: () => [], failure: null };

const wantsBase64 = (up: UpstreamCall) => (up.call.canonical ?? up.call.json ?? {}).encoding_format === 'base64';

export const ollamaWire: WireCodec = {
  format: 'ollama',
  encode: (canonical: Record<string, unknown>, up: Attempt) =>
    Object.assign(embeddingsToOllama(canonical as EmbeddingsRequest, up.upstreamModel) as unknown as Record<string, unknown>, up.channel.paramOverride),
  decode: (body: Buffer, up: UpstreamCall) => ollamaToEmbeddings(parseJson(body) as OllamaEmbedResponse, up.call.model, wantsBase64(up)) as unknown as Record<string, unknown>,
  streamDecoder: () => noStream,
  parseError: parseOllamaError,
};
