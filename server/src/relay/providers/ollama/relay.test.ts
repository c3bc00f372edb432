import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type OpenAI from 'openai';
import { testDatabases } from '../../../test/databases.js';
import { startRelay, type RelayFixture } from '../../../test/relay-fixture.js';
import { billing, costOf as costAt, setPrices, type Price, type Tokens } from '../../../test/billing.js';
import { startOllamaMock, type OllamaMock } from '../../../test/mocks/ollama.js';
import { countInputTokens } from '../../tokenizer.js';

/*
 * An Ollama channel (type 4) against the Ollama stand-in: chat through the OpenAI-compatible API as before, embeddings
 * through the native /api/embed flattened into OpenAI's shape and billed by prompt_eval_count (counted when absent).
 */

const PRICE: Price = { ratio: 1, completion: 2 };
const CHAT = 'llama3.2';
const EMBED = 'nomic-embed-text';
const MODELS = [CHAT, EMBED, 'nomic-embed-mock-no-usage', 'nomic-embed-mock-cut', 'nomic-embed-mock-not-pulled'];
const costOf = (model: string, t: Tokens) => costAt(model, t, PRICE);

describe.each(testDatabases(['sqlite']))('Ollama channels through the relay on $name', (database) => {
  let f: RelayFixture;
  let mock: OllamaMock;
  let client: OpenAI;
  let channelId: number;
  const { charged, free } = billing(() => f);
  const vectors = [
    [0.010071029, -0.0017594862, 0.05007221],
    [-0.0098650316, 0.018088287, 0.048214052],
  ];

  beforeAll(async () => {
    mock = await startOllamaMock();
    f = await startRelay(database);
    await setPrices(f, Object.fromEntries(MODELS.map((m) => [m, PRICE])));
    channelId = await f.channel({ type: 4, base_url: mock.url, key: mock.key, models: MODELS.join(','), auto_ban: 0 });
    client = f.client((await f.token()).key);
  });

  afterAll(async () => {
    await f.close();
    await mock.close();
  });

  it('embeds through /api/embed, answering OpenAI’s shape (base64 as the SDK asks) billed by prompt_eval_count', async () => {
    let out!: OpenAI.Embeddings.CreateEmbeddingResponse;
    const c = await charged(async () => {
      out = await client.embeddings.create({ model: EMBED, input: ['hello', 'world'] });
    });
    expect(out.data.map((d) => d.embedding.map((v) => Number(v.toFixed(6))))).toEqual(vectors.map((v) => v.map((x) => Number(Math.fround(x).toFixed(6)))));
    expect(out.usage).toEqual({ prompt_tokens: 8, total_tokens: 8 });
    const sent = mock.requests.at(-1)!;
    expect(sent.path).toBe('/api/embed');
    expect(sent.json).toEqual({ model: EMBED, input: ['hello', 'world'] });
    expect(c.log).toMatchObject({ model_name: EMBED, prompt_tokens: 8, completion_tokens: 0 });
    expect(c.spent).toBe(costOf(EMBED, { prompt: 8, completion: 0 }));

    const floats = await client.embeddings.create({ model: EMBED, input: 'hello', encoding_format: 'float' });
    expect(floats.data[0].embedding).toEqual(vectors[0]);
  });

  it('counts embeddings Ollama reports no prompt_eval_count for', async () => {
    const model = 'nomic-embed-mock-no-usage';
    const c = await charged(() => client.embeddings.create({ model, input: ['hello', 'world'], encoding_format: 'float' }));
    const prompt = countInputTokens(['hello', 'world'], model);
    expect(c.log).toMatchObject({ prompt_tokens: prompt, completion_tokens: 0 });
    expect(c.spent).toBe(costOf(model, { prompt, completion: 0 }));
  });

  it('refuses a model not pulled in Ollama’s words, and a cut answer, for free', async () => {
    await free(() => expect(client.embeddings.create({ model: 'nomic-embed-mock-not-pulled', input: 'hi' })).rejects.toMatchObject({ status: 404, error: { message: 'model "nomic-embed-mock-not-pulled" not found, try pulling it first' } }));
    await free(() => expect(client.embeddings.create({ model: 'nomic-embed-mock-cut', input: 'hi' })).rejects.toMatchObject({ status: 502 }));
  });

  it.each([false, true])('still chats through the OpenAI-compatible API, billed by its usage (stream: %s)', async (stream) => {
    const messages = [{ role: 'user' as const, content: 'hi' }];
    let text = '';
    const c = await charged(async () => {
      if (!stream) {
        text = (await client.chat.completions.create({ model: CHAT, messages })).choices[0].message.content ?? '';
        return;
      }
      for await (const chunk of await client.chat.completions.create({ model: CHAT, messages, stream: true })) text += chunk.choices[0]?.delta?.content ?? '';
    });
    expect(text).toBe('Hello from the Ollama mock.');
    expect(mock.requests.at(-1)!.path).toBe('/v1/chat/completions');
    expect(c.spent).toBe(costOf(CHAT, { prompt: 11, completion: 7 }));
  });

  it('tests a channel with a chat or an embedding', async () => {
    const get = async <T>(url: string): Promise<T> => (await f.t.call(f.root, { method: 'GET', url })).json();
    expect(await get(`/api/channel/test/${channelId}?model=${CHAT}`)).toMatchObject({ success: true });
    expect(await get(`/api/channel/test/${channelId}?model=${EMBED}`)).toMatchObject({ success: true });
    expect(mock.requests.at(-1)!.json).toEqual({ model: EMBED, input: 'hello world' });
  });
});
