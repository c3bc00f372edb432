import type { EmbeddingsRequest } from '../../formats/gemini/embeddings.js';
import type { Attempt, UpstreamCall, WireCodec } from '../../types.js';
import { dashScopeToEmbeddings, embeddingsToDashScope } from './embeddings.js';
import { parseDashScopeError } from './errors.js';
import { imageAnswerFormat, imagesToDashScope, taskToImages } from './images.js';
import type { DashScopeEmbeddingResponse, DashScopeTaskAnswer } from './types.js';

/**
 * DashScope's native API as a wire: text embedding and text-to-image tasks. Chat goes through DashScope's
 * OpenAI-compatible mode, on the OpenAI wire.
 */

const noStream = (): never => {
  throw new Error('DashScope native calls are not streamed');
};

function parseObject(body: Buffer): Record<string, unknown> {
  const parsed: unknown = JSON.parse(body.toString('utf8'));
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('upstream answer is not a JSON object');
  return parsed as Record<string, unknown>;
}

/** The canonical request of a call (what the converters read). */
const canonicalOf = (up: Attempt | UpstreamCall): Record<string, unknown> => up.call.canonical ?? up.call.json ?? {};

export const dashScopeWire: WireCodec = {
  format: 'dashscope',
  encode(canonical: Record<string, unknown>, up: Attempt) {
    const out =
      up.call.mode === 'images'
        ? imagesToDashScope(canonical, up.upstreamModel)
        : embeddingsToDashScope(canonical as EmbeddingsRequest, up.upstreamModel);
    return Object.assign(out as unknown as Record<string, unknown>, up.channel.paramOverride);
  },
  decode(body: Buffer, up: UpstreamCall) {
    const parsed = parseObject(body);
    const req = canonicalOf(up);
    if (up.call.mode === 'images') return taskToImages(parsed as DashScopeTaskAnswer, imageAnswerFormat(req)) as unknown as Record<string, unknown>;
    return dashScopeToEmbeddings(parsed as DashScopeEmbeddingResponse, up.call.model, req.encoding_format === 'base64') as unknown as Record<string, unknown>;
  },
  streamDecoder: noStream,
  parseError: parseDashScopeError,
};
