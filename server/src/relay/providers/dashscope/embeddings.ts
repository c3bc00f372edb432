import type { EmbeddingsRequest, EmbeddingsResponse } from '../../formats/gemini/embeddings.js';
import { RelayError } from '../../errors.js';
import type { DashScopeEmbeddingRequest, DashScopeEmbeddingResponse } from './types.js';

const refused = (message: string, param: string) => {
  const err = new RelayError(400, message, 'unsupported_parameter', 'invalid_request_error');
  err.param = param;
  return err;
};

/** OpenAI's embeddings request as DashScope's native text-embedding body. */
export function embeddingsToDashScope(req: EmbeddingsRequest, model: string): DashScopeEmbeddingRequest {
  const inputs: unknown[] = Array.isArray(req.input) ? req.input : [req.input];
  if (!inputs.every((i): i is string => typeof i === 'string')) throw refused('DashScope 只接受文本输入，不接受 token 数组', 'input');
  const format = req.encoding_format;
  if (format !== undefined && format !== 'float' && format !== 'base64') throw refused(`不支持的 encoding_format：${String(format)}`, 'encoding_format');
  const out: DashScopeEmbeddingRequest = { model, input: { texts: inputs } };
  if (typeof req.dimensions === 'number') out.parameters = { dimension: req.dimensions };
  return out;
}

/** A float vector as OpenAI's base64 encoding: the float32 values, little-endian. */
export function base64Floats(values: readonly number[]): string {
  const buf = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => buf.writeFloatLE(v, i * 4));
  return buf.toString('base64');
}

/**
 * DashScope's embeddings answer as OpenAI's, in input order, as floats or base64 as the client asked; usage is
 * DashScope's total_tokens (all prompt), absent when it sent none.
 */
export function dashScopeToEmbeddings(resp: DashScopeEmbeddingResponse, model: string, base64: boolean): EmbeddingsResponse | Omit<EmbeddingsResponse, 'usage'> {
  const items = [...(resp.output?.embeddings ?? [])].map((e, i) => ({ index: typeof e.text_index === 'number' ? e.text_index : i, values: e.embedding ?? [] }));
  items.sort((a, b) => a.index - b.index);
  const data = items.map(({ index, values }) => ({ object: 'embedding' as const, index, embedding: base64 ? (base64Floats(values) as unknown as number[]) : values }));
  const tokens = resp.usage?.total_tokens;
  if (typeof tokens !== 'number' || !Number.isFinite(tokens) || tokens < 0) return { object: 'list', data, model };
  return { object: 'list', data, model, usage: { prompt_tokens: tokens, total_tokens: tokens } };
}
