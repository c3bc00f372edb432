import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type OpenAI from 'openai';
import { testDatabases } from '../../../test/databases.js';
import { startRelay, type RelayFixture } from '../../../test/relay-fixture.js';
import { billing, costOf as costAt, setPrices, type Price, type Tokens } from '../../../test/billing.js';
import { startLibraryMock, type LibraryMock } from '../../../test/mocks/aiproxy-library.js';
import { countTextTokens } from '../../tokenizer.js';

/*
 * An AI Proxy knowledge-base channel (type 21) against its stand-in: the last question asked of the library named in
 * the channel's "other" field, the answer with its references, whole and streamed, counted here (the library reports
 * no usage); refusals answered with HTTP 200 read as the statuses they stand for and not billed.
 */

const PRICE: Price = { ratio: 1, completion: 1 };
const MODEL = 'gpt-3.5-turbo';
const MODELS = [MODEL, 'gpt-mock-cut', 'gpt-mock-no-balance', 'gpt-no-library'];
const costOf = (model: string, t: Tokens) => costAt(model, t, PRICE);
const ANSWER = 'Switchyard relays calls to many upstreams.\n\n参考文档：\n1. [Switchyard overview](https://docs.example.test/overview)\n2. [Channels](https://docs.example.test/channels)\n';

describe.each(testDatabases(['sqlite']))('AI Proxy knowledge-base channels through the relay on $name', (database) => {
  let f: RelayFixture;
  let mock: LibraryMock;
  let client: OpenAI;
  let channelId: number;
  const { charged, free } = billing(() => f);
  const ask: OpenAI.Chat.ChatCompletionMessageParam[] = [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'What is Switchyard?' },
  ];

  beforeAll(async () => {
    mock = await startLibraryMock();
    f = await startRelay(database);
    await setPrices(f, Object.fromEntries(MODELS.map((m) => [m, PRICE])));
    channelId = await f.channel({ type: 21, base_url: mock.url, key: mock.key, other: mock.libraryId, models: [MODEL, 'gpt-mock-cut', 'gpt-mock-no-balance'].join(','), auto_ban: 0 });
    await f.channel({ type: 21, base_url: mock.url, key: mock.key, models: 'gpt-no-library', auto_ban: 0 });
    client = f.client((await f.token()).key);
  });

  afterAll(async () => {
    await f.close();
    await mock.close();
  });

  it.each([false, true])('asks the library and answers with its references, counted here (stream: %s)', async (stream) => {
    let text = '';
    const c = await charged(async () => {
      if (!stream) {
        text = (await client.chat.completions.create({ model: MODEL, messages: ask })).choices[0].message.content ?? '';
        return;
      }
      for await (const chunk of await client.chat.completions.create({ model: MODEL, messages: ask, stream: true })) text += chunk.choices[0]?.delta?.content ?? '';
    });
    expect(text).toBe(ANSWER);
    const sent = mock.requests.at(-1)!;
    expect(sent.headers.authorization).toBe(`Bearer ${mock.key}`);
    expect(sent.json).toEqual({ model: MODEL, query: 'What is Switchyard?', libraryId: mock.libraryId, stream });
    const completion = countTextTokens(ANSWER, MODEL);
    expect(c.log).toMatchObject({ completion_tokens: completion, is_stream: stream ? 1 : 0 });
    expect(c.spent).toBe(costOf(MODEL, { prompt: c.log.prompt_tokens, completion }));
  });

  it('bills a stream cut mid-way for what was delivered, and refuses a whole answer cut half-way for free', async () => {
    let text = '';
    let failure: unknown = null;
    const c = await charged(async () => {
      try {
        for await (const chunk of await client.chat.completions.create({ model: 'gpt-mock-cut', messages: ask, stream: true })) text += chunk.choices[0]?.delta?.content ?? '';
      } catch (err) {
        failure = err;
      }
    });
    expect(text).toBe('Switchyard relays');
    expect(failure).not.toBeNull();
    expect(c.log.completion_tokens).toBe(countTextTokens('Switchyard relays', 'gpt-mock-cut'));
    await free(() => expect(client.chat.completions.create({ model: 'gpt-mock-cut', messages: ask })).rejects.toMatchObject({ status: 502 }));
  });

  it('reads refusals answered with HTTP 200, whole and streamed, and charges nothing', async () => {
    for (const stream of [false, true]) {
      await free(() => expect(client.chat.completions.create({ model: 'gpt-mock-no-balance', messages: ask, stream })).rejects.toMatchObject({ status: 500 }));
    }
    await free(() => expect(client.chat.completions.create({ model: 'gpt-no-library', messages: ask })).rejects.toMatchObject({ status: 502 }));
  });

  it('tests a channel, and reports a wrong key and a missing library in words', async () => {
    const get = async <T>(url: string): Promise<T> => (await f.t.call(f.root, { method: 'GET', url })).json();
    expect(await get(`/api/channel/test/${channelId}`)).toMatchObject({ success: true, message: '' });
    const badKey = await f.channel({ type: 21, base_url: mock.url, key: 'ap-wrong', other: mock.libraryId, models: MODEL, auto_ban: 0 });
    expect(await get(`/api/channel/test/${badKey}`)).toMatchObject({ success: false, message: 'Api Key 无效' });
    const noLibrary = await f.channel({ type: 21, base_url: mock.url, key: mock.key, models: MODEL, auto_ban: 0 });
    expect(await get(`/api/channel/test/${noLibrary}`)).toMatchObject({ success: false, message: expect.stringContaining('知识库 ID') });
  });
});
