import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type OpenAI from 'openai';
import { testDatabases } from '../../../test/databases.js';
import { startRelay, type RelayFixture } from '../../../test/relay-fixture.js';
import { billing, costOf as costAt, setPrices, type Price, type Tokens } from '../../../test/billing.js';
import { startPalmMock, type PalmMock } from '../../../test/mocks/palm.js';
import { countTextTokens } from '../../tokenizer.js';

/*
 * A PaLM 2 channel (type 11) against the PaLM stand-in: generateMessage with the key in ?key=, whole and "streamed"
 * (the whole answer given as chunks), counted here as PaLM reports no usage; Google's errors passed on, not billed.
 */

const PRICE: Price = { ratio: 1, completion: 1 };
const MODEL = 'chat-bison-001';
const MODELS = [MODEL, 'chat-bison-mock-filtered', 'chat-bison-mock-cut', 'chat-bison-mock-rate-limit'];
const costOf = (model: string, t: Tokens) => costAt(model, t, PRICE);
const ANSWER = 'Hello from the PaLM mock.';

describe.each(testDatabases(['sqlite']))('PaLM channels through the relay on $name', (database) => {
  let f: RelayFixture;
  let mock: PalmMock;
  let client: OpenAI;
  let channelId: number;
  const { charged, free } = billing(() => f);
  const hi: OpenAI.Chat.ChatCompletionMessageParam[] = [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'hi' },
  ];

  beforeAll(async () => {
    mock = await startPalmMock();
    f = await startRelay(database);
    await setPrices(f, Object.fromEntries(MODELS.map((m) => [m, PRICE])));
    channelId = await f.channel({ type: 11, base_url: mock.url, key: mock.key, models: MODELS.join(','), auto_ban: 0 });
    client = f.client((await f.token()).key);
  });

  afterAll(async () => {
    await f.close();
    await mock.close();
  });

  it.each([false, true])('answers through generateMessage, counted here (stream: %s)', async (stream) => {
    let text = '';
    let finish: string | null = null;
    const c = await charged(async () => {
      if (!stream) {
        const answer = await client.chat.completions.create({ model: MODEL, messages: hi, temperature: 0.3 });
        text = answer.choices[0].message.content ?? '';
        finish = answer.choices[0].finish_reason;
        return;
      }
      for await (const chunk of await client.chat.completions.create({ model: MODEL, messages: hi, temperature: 0.3, stream: true })) {
        text += chunk.choices[0]?.delta?.content ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
    });
    expect(text).toBe(ANSWER);
    expect(finish).toBe('stop');
    const sent = mock.requests.at(-1)!;
    expect(sent.path).toBe(`/v1beta2/models/${MODEL}:generateMessage`);
    expect(sent.query).toEqual({ key: mock.key });
    expect(sent.json).toEqual({ prompt: { context: 'Be brief.', messages: [{ author: '0', content: 'hi' }] }, temperature: 0.3 });
    const completion = countTextTokens(ANSWER, MODEL);
    expect(c.log).toMatchObject({ completion_tokens: completion, is_stream: stream ? 1 : 0 });
    expect(c.log.prompt_tokens).toBeGreaterThan(0);
    expect(c.spent).toBe(costOf(MODEL, { prompt: c.log.prompt_tokens, completion }));
  });

  it('ends a filtered answer with content_filter, billing the prompt only', async () => {
    let answer!: OpenAI.Chat.ChatCompletion;
    const c = await charged(async () => {
      answer = await client.chat.completions.create({ model: 'chat-bison-mock-filtered', messages: hi });
    });
    expect(answer.choices[0]).toMatchObject({ message: { content: '' }, finish_reason: 'content_filter' });
    expect(c.log.completion_tokens).toBe(0);
    expect(c.spent).toBe(costOf('chat-bison-mock-filtered', { prompt: c.log.prompt_tokens, completion: 0 }));
  });

  it('bills a streamed call whose answer broke off for its prompt only, and refuses a whole one for free', async () => {
    let failure: unknown = null;
    const c = await charged(async () => {
      try {
        for await (const chunk of await client.chat.completions.create({ model: 'chat-bison-mock-cut', messages: hi, stream: true })) void chunk;
      } catch (err) {
        failure = err;
      }
    });
    expect(failure).not.toBeNull();
    expect(c.log.completion_tokens).toBe(0);
    expect(c.spent).toBe(costOf('chat-bison-mock-cut', { prompt: c.log.prompt_tokens, completion: 0 }));
    await free(() => expect(client.chat.completions.create({ model: 'chat-bison-mock-cut', messages: hi })).rejects.toMatchObject({ status: 502 }));
  });

  it('passes Google’s refusals on and charges nothing', async () => {
    await free(() => expect(client.chat.completions.create({ model: 'chat-bison-mock-rate-limit', messages: hi })).rejects.toMatchObject({ status: 429 }));
    await free(() => expect(client.chat.completions.create({ model: MODEL, messages: hi, tools: [{ type: 'function', function: { name: 'f' } }] })).rejects.toMatchObject({ status: 400 }));
  });

  it('tests a channel, and reports a wrong key in Google’s words', async () => {
    const get = async <T>(url: string): Promise<T> => (await f.t.call(f.root, { method: 'GET', url })).json();
    expect(await get(`/api/channel/test/${channelId}`)).toMatchObject({ success: true, message: '' });
    const bad = await f.channel({ type: 11, base_url: mock.url, key: 'AIzaWrong', models: MODEL, auto_ban: 0 });
    expect(await get(`/api/channel/test/${bad}`)).toMatchObject({ success: false, message: 'API key not valid. Please pass a valid API key.' });
  });
});
