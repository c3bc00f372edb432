import type { Attempt, ChunkDecoder, UpstreamCall, WireCodec } from '../../types.js';
import { parseJson } from '../openai/wire.js';
import { parseJinaError } from './errors.js';
import type { JinaAnswer } from './types.js';

/*
 * Jina's embeddings and rerank bodies are OpenAI's and the Jina rerank shape the relay's clients already send: the
 * request goes as it came (model mapped, the channel's overrides applied). Its answers report usage as total_tokens
 * alone (rerank), which would read as output tokens: both answers are given usage with every token on the prompt
 * side, as the established gateway's rerank answers have it (prompt_tokens = total_tokens, completion_tokens 0).
 */

declare module '../../types.js' {
  interface ProviderWires {
    jina: true;
  }
}

const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0);

/** The answer with its usage on the prompt side; without usage when Jina reported none (counted here then). */
export function normalizeJinaAnswer(answer: JinaAnswer): Record<string, unknown> {
  const { usage, ...rest } = answer;
  const tokens = count(usage?.total_tokens) || count(usage?.prompt_tokens);
  return tokens > 0 ? { ...rest, usage: { prompt_tokens: tokens, completion_tokens: 0, total_tokens: tokens } } : rest;
}

/** No Jina call streams. */
const noStream: ChunkDecoder = { push: () => [], finish: () => [], failure: null };

export const jinaWire: WireCodec = {
  format: 'jina',
  encode: (canonical: Record<string, unknown>, up: Attempt) => ({ ...canonical, model: up.upstreamModel, ...up.channel.paramOverride }),
  decode: (body: Buffer, _up: UpstreamCall) => normalizeJinaAnswer(parseJson(body) as JinaAnswer),
  streamDecoder: () => noStream,
  parseError: parseJinaError,
};
