import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type OpenAI from 'openai';
import { testDatabases } from '../../../test/databases.js';
import { startRelay, type RelayFixture } from '../../../test/relay-fixture.js';
import { billing, costOf as costAt, setPrices, type Price, type Tokens } from '../../../test/billing.js';
import { startJinaMock, type JinaMock } from '../../../test/mocks/jina.js';
import { countInputTokens } from '../../tokenizer.js';

/*
 * Embeddings and rerank through a Jina channel (type 38) against the Jina stand-in: bodies sent as the client wrote
 * them (model mapped), answers billed on the prompt side from Jina's usage or counted here without it; refusals free.
 */

const PRICE: Price = { ratio: 0.5, completion: 1 };
const EMBED = 'jina-embeddings-v3';
const RERANK = 'jina-reranker-v2-base-multilingual';
const MODELS = [EMBED, RERANK, 'jina-embeddings-mock-no-usage', 'jina-reranker-mock-no-usage', 'jina-reranker-mock-cut', 'jina-reranker-mock-rate-limit', 'jina-reranker-mock-no-balance', 'my-reranker'];
const costOf = (model: string, t: Tokens) => costAt(model, t, PRICE);

interface RerankAnswer {
  results: Array<{ index: number; relevance_score: number; document?: { text: string } }>;
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

describe.each(testDatabases(['sqlite']))('Jina channels through the relay on $name', (database) => {
  let f: RelayFixture;
  let mock: JinaMock;
  let client: OpenAI;
  let channelId: number;
  const { charged, free } = billing(() => f);
  const documents = [
    'Organic skincare for sensitive skin with aloe vera and chamomile.',
    'New makeup trends focus on bold colors and innovative techniques.',
    'Bio-Hautpflege für empfindliche Haut mit Aloe Vera und Kamille.',
  ];
  const query = 'Organic skincare products for sensitive skin';
  const rerank = (model: string, extra: Record<string, unknown> = {}) => client.post<RerankAnswer>('/rerank', { body: { model, query, documents, top_n: 3, ...extra } });

  beforeAll(async () => {
    mock = await startJinaMock();
    f = await startRelay(database);
    await setPrices(f, Object.fromEntries(MODELS.map((m) => [m, PRICE])));
    channelId = await f.channel({ type: 38, base_url: mock.url, key: mock.key, models: MODELS.join(','), model_mapping: JSON.stringify({ 'my-reranker': RERANK }), auto_ban: 0 });
    client = f.client((await f.token()).key);
  });

  afterAll(async () => {
    await f.close();
    await mock.close();
  });

  it('relays a rerank as Jina’s body and bills its total_tokens as prompt tokens', async () => {
    let answer!: RerankAnswer;
    const c = await charged(async () => {
      answer = await rerank(RERANK, { return_documents: true });
    });
    expect(answer.results.map((r) => r.index)).toEqual([0, 2, 1]);
    expect(answer.results[0].document?.text).toBe(documents[0]);
    expect(answer.usage).toEqual({ prompt_tokens: 815, completion_tokens: 0, total_tokens: 815 });
    const sent = mock.requests.at(-1)!;
    expect(sent.path).toBe('/v1/rerank');
    expect(sent.headers.authorization).toBe(`Bearer ${mock.key}`);
    expect(sent.json).toEqual({ model: RERANK, query, documents, top_n: 3, return_documents: true });
    expect(c.log).toMatchObject({ model_name: RERANK, prompt_tokens: 815, completion_tokens: 0 });
    expect(c.spent).toBe(costOf(RERANK, { prompt: 815, completion: 0 }));
  });

  it('sends the mapped model name and still bills the name the client asked for', async () => {
    const c = await charged(() => rerank('my-reranker'));
    expect(mock.requests.at(-1)!.json).toMatchObject({ model: RERANK });
    expect(c.log).toMatchObject({ model_name: 'my-reranker', prompt_tokens: 815 });
    expect(c.spent).toBe(costOf('my-reranker', { prompt: 815, completion: 0 }));
  });

  it('counts a rerank Jina reports no usage for: the query and the documents', async () => {
    const model = 'jina-reranker-mock-no-usage';
    const c = await charged(() => rerank(model));
    const prompt = countInputTokens(query, model) + countInputTokens(documents, model);
    expect(c.log).toMatchObject({ prompt_tokens: prompt, completion_tokens: 0 });
    expect(c.spent).toBe(costOf(model, { prompt, completion: 0 }));
  });

  it('relays embeddings through the OpenAI SDK, billed by Jina’s usage or counted without it', async () => {
    let out!: OpenAI.Embeddings.CreateEmbeddingResponse;
    const c = await charged(async () => {
      out = await client.embeddings.create({ model: EMBED, input: ['hello', 'world'], encoding_format: 'float' });
    });
    expect(out.data.map((d) => d.embedding)).toEqual([
      [0.1, -0.2, 0.3],
      [0.4, 0.5, -0.6],
    ]);
    expect(mock.requests.at(-1)!.json).toEqual({ model: EMBED, input: ['hello', 'world'], encoding_format: 'float' });
    expect(c.spent).toBe(costOf(EMBED, { prompt: 14, completion: 0 }));

    const model = 'jina-embeddings-mock-no-usage';
    const n = await charged(() => client.embeddings.create({ model, input: ['hello', 'world'], encoding_format: 'float' }));
    const prompt = countInputTokens(['hello', 'world'], model);
    expect(n.log).toMatchObject({ prompt_tokens: prompt, completion_tokens: 0 });
    expect(n.spent).toBe(costOf(model, { prompt, completion: 0 }));
  });

  it('passes Jina’s refusals on in its words and charges nothing, a cut answer included', async () => {
    await free(() => expect(rerank('jina-reranker-mock-rate-limit')).rejects.toMatchObject({ status: 429 }));
    await free(() => expect(rerank('jina-reranker-mock-no-balance')).rejects.toMatchObject({ status: 502 }));
    await free(() => expect(rerank('jina-reranker-mock-cut')).rejects.toMatchObject({ status: 502 }));
    await free(() => expect(client.chat.completions.create({ model: RERANK, messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 400 }));
  });

  describe('the console', () => {
    const get = async <T>(url: string): Promise<T> => (await f.t.call(f.root, { method: 'GET', url })).json();

    it('tests a channel with an embedding or a rerank, and reports a wrong key in Jina’s words', async () => {
      expect(await get(`/api/channel/test/${channelId}?model=${EMBED}`)).toMatchObject({ success: true, message: '' });
      expect(await get(`/api/channel/test/${channelId}?model=${RERANK}`)).toMatchObject({ success: true, message: '' });
      expect(mock.requests.at(-1)!.json).toEqual({ model: RERANK, query: 'hello', documents: ['hello world'] });
      const bad = await f.channel({ type: 38, base_url: mock.url, key: 'jina_wrong', models: EMBED, auto_ban: 0 });
      expect(await get(`/api/channel/test/${bad}?model=${EMBED}`)).toMatchObject({ success: false, message: expect.stringContaining('Invalid API key') });
    });
  });
});
