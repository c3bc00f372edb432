import type { GeminiBatchEmbedRequest, GeminiBatchEmbedResponse, GeminiContent, GeminiEmbedContentRequest } from './types.js';

/** OpenAI's embeddings request and answer, as far as the Gemini conversions use them. */
export interface EmbeddingsRequest {
  model: string;
  input: string | string[];
  dimensions?: number;
  encoding_format?: 'float' | 'base64';
  [key: string]: unknown;
}

export interface EmbeddingsResponse {
  object: 'list';
  data: Array<{ object: 'embedding'; index: number; embedding: number[] }>;
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
}

const textOf = (content: GeminiContent | undefined): string =>
  (content?.parts ?? []).map((p) => (typeof p.text === 'string' ? p.text : '')).join('');

/**
 * A Gemini client's embedContent or batchEmbedContents body as an OpenAI embeddings request. OpenAI takes one
 * dimensions value per call: the first request's outputDimensionality stands for all.
 */
export function geminiEmbedToOpenAI(req: GeminiEmbedContentRequest | GeminiBatchEmbedRequest, model: string): EmbeddingsRequest {
  const requests = 'requests' in req ? req.requests : [req];
  const out: EmbeddingsRequest = { model, input: requests.map((r) => textOf(r.content)) };
  const dims = requests[0]?.outputDimensionality;
  if (typeof dims === 'number') out.dimensions = dims;
  return out;
}

/** An OpenAI embeddings answer in the shape of the Gemini call the client made. */
export function openAIToGeminiEmbed(resp: EmbeddingsResponse, batch: boolean): GeminiBatchEmbedResponse | { embedding: { values: number[] } } {
  const ordered = [...(resp.data ?? [])].sort((a, b) => a.index - b.index);
  if (!batch) return { embedding: { values: ordered[0]?.embedding ?? [] } };
  return { embeddings: ordered.map((d) => ({ values: d.embedding })) };
}
