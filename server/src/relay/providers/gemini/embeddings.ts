import type { EmbeddingsRequest, EmbeddingsResponse } from '../../formats/gemini/embeddings.js';
import type { GeminiBatchEmbedRequest, GeminiBatchEmbedResponse } from '../../formats/gemini/types.js';

/** OpenAI's embeddings request as batchEmbedContents: one request per input, each naming the model again. */
export function embeddingsToGemini(req: EmbeddingsRequest, model: string): GeminiBatchEmbedRequest {
  const inputs = Array.isArray(req.input) ? req.input : [req.input];
  return {
    requests: inputs.map((text) => {
      const r: GeminiBatchEmbedRequest['requests'][number] = { model: `models/${model}`, content: { parts: [{ text: String(text) }] } };
      if (typeof req.dimensions === 'number') r.outputDimensionality = req.dimensions;
      return r;
    }),
  };
}

/** batchEmbedContents reports no usage: the prompt tokens counted here are passed in. */
export function geminiToEmbeddings(resp: GeminiBatchEmbedResponse, model: string, promptTokens: number): EmbeddingsResponse {
  return {
    object: 'list',
    data: (resp.embeddings ?? []).map((e, index) => ({ object: 'embedding', index, embedding: e.values ?? [] })),
    model,
    usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
  };
}
