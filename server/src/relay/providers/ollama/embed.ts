import type { EmbeddingsRequest, EmbeddingsResponse } from '../../formats/gemini/embeddings.js';
import { RelayError } from '../../errors.js';
import { base64Floats } from '../dashscope/embeddings.js';

/*
 * Ollama's native embeddings: POST /api/embed {model, input, dimensions?} answers {model, embeddings: [[...]],
 * prompt_eval_count}, flattened here into OpenAI's list (the prompt_eval_count as usage).
 */

export interface OllamaEmbedRequest {
  model: string;
  input: string | string[];
  dimensions?: number;
}

export interface OllamaEmbedResponse {
  model?: string;
  embeddings?: number[][];
  prompt_eval_count?: unknown;
}

const refused = (message: string, param: string) => {
  const err = new RelayError(400, message, 'unsupported_parameter', 'invalid_request_error');
  err.param = param;
  return err;
};

/** OpenAI's embeddings request as Ollama's /api/embed body. */
export function embeddingsToOllama(req: EmbeddingsRequest, model: string): OllamaEmbedRequest {
  const input = req.input as unknown;
  const texts = Array.isArray(input) ? input : [input];
  if (!texts.every((i): i is string => typeof i === 'string')) throw refused('Ollama 只接受文本输入，不接受 token 数组', 'input');
  const format = req.encoding_format;
  if (format !== undefined && format !== 'float' && format !== 'base64') throw refused(`不支持的 encoding_format：${String(format)}`, 'encoding_format');
  const out: OllamaEmbedRequest = { model, input: req.input };
  if (typeof req.dimensions === 'number') out.dimensions = req.dimensions;
  return out;
}

/** Ollama's answer as OpenAI's embeddings list, floats or base64 as the client asked; no usage when none came. */
export function ollamaToEmbeddings(resp: OllamaEmbedResponse, model: string, base64: boolean): EmbeddingsResponse | Omit<EmbeddingsResponse, 'usage'> {
  const data = (resp.embeddings ?? []).map((values, index) => ({ object: 'embedding' as const, index, embedding: base64 ? (base64Floats(values) as unknown as number[]) : values }));
  const tokens = resp.prompt_eval_count;
  if (typeof tokens !== 'number' || !Number.isFinite(tokens) || tokens <= 0) return { object: 'list', data, model };
  return { object: 'list', data, model, usage: { prompt_tokens: Math.floor(tokens), total_tokens: Math.floor(tokens) } };
}
