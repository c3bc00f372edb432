import type { UpstreamRequest } from '../../types.js';
import type { BufferedCall, UpstreamClient } from '../../upstream.js';
import { jsonAnswer, ok, parseObject, runSteps } from './calls.js';
import type { DashScopeEmbeddingRequest, DashScopeEmbeddingResponse } from './types.js';

/*
 * DashScope embeds at most 10 texts a call (text-embedding-v3 and v4; 25 for v1 and v2). A longer input is sent in
 * batches, one after another, and the answers joined into one: vectors indexed over the whole input, usage summed
 * (absent when any batch reported none, so the whole input is then counted here). The first refused batch is the
 * answer; what earlier batches used is not charged (as with any refused call).
 */

export function batchSize(model: string): number {
  return /^text-embedding-v[12]\b/.test(model) ? 25 : 10;
}

/** The batched call, or null when the input fits one call. */
export function embedInBatches(req: UpstreamRequest, client: Pick<UpstreamClient, 'fetch'>): BufferedCall | null {
  const body = typeof req.body === 'string' ? req.body : Buffer.isBuffer(req.body) ? req.body.toString('utf8') : null;
  const json = body === null ? null : (JSON.parse(body) as DashScopeEmbeddingRequest);
  const texts = json?.input?.texts;
  if (!json || !Array.isArray(texts)) return null;
  const size = batchSize(json.model);
  if (texts.length <= size) return null;
  return runSteps(client, async (steps) => {
    const embeddings: NonNullable<NonNullable<DashScopeEmbeddingResponse['output']>['embeddings']> = [];
    let tokens: number | null = 0;
    let requestId = '';
    for (let start = 0; start < texts.length; start += size) {
      const part = { ...json, input: { ...json.input, texts: texts.slice(start, start + size) } };
      const answer = await steps.send({ ...req, body: JSON.stringify(part) });
      if (!ok(answer.statusCode)) return answer;
      const parsed = parseObject<DashScopeEmbeddingResponse>(answer.body);
      if (!parsed) return answer;
      for (const [i, e] of (parsed.output?.embeddings ?? []).entries()) embeddings.push({ ...e, text_index: start + (typeof e.text_index === 'number' ? e.text_index : i) });
      const used = parsed.usage?.total_tokens;
      tokens = tokens !== null && typeof used === 'number' ? tokens + used : null;
      requestId ||= parsed.request_id ?? '';
    }
    const joined: DashScopeEmbeddingResponse = { output: { embeddings }, request_id: requestId };
    if (tokens !== null) joined.usage = { total_tokens: tokens };
    return jsonAnswer(200, joined);
  });
}
