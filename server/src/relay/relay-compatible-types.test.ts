import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { testDatabases } from '../test/databases.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';
import { billing, costOf as costAt, setPrices, type Price, type Tokens } from '../test/billing.js';
import { CITATIONS, COMPAT_KEY, QIANFAN_KEY, startCompatibleMock, type CompatibleMock, type Flavor } from '../test/mocks/compatible.js';

/*
 * The OpenAI SDK through each OpenAI-compatible type with quirks of its own (Mistral 42, DeepSeek 43, VolcEngine Ark
 * 45, Qianfan v2 46, xAI 48, OpenRouter 20, Perplexity 27), against a stand-in that refuses what the real upstream
 * refuses: each call reaches the upstream's own path with its own headers and body, and is billed exactly.
 */

const PRICES: Record<string, Price> = {
  'mistral-small-latest': { ratio: 1, completion: 3 },
  'mistral-embed': { ratio: 1, completion: 1 },
  'deepseek-chat': { ratio: 1, completion: 2, cache: 0.25 },
  'deepseek-reasoner': { ratio: 2, completion: 2, cache: 0.25 },
  'doubao-1-5-pro-32k-250115': { ratio: 1, completion: 2 },
  'bot-20250101-abcde': { ratio: 1, completion: 2 },
  'ernie-4.5-turbo-128k': { ratio: 1, completion: 4 },
  'grok-3-mini': { ratio: 1, completion: 2, cache: 0.5 },
  'grok-3-mini-high': { ratio: 1, completion: 2, cache: 0.5 },
  'openai/gpt-4o-mini': { ratio: 1, completion: 4 },
  sonar: { ratio: 1, completion: 1 },
};
const SEEDREAM = 'doubao-seedream-3-0-t2i-250415';

const costOf = (model: string, t: Tokens) => costAt(model, t, PRICES[model]);

describe.each(testDatabases(['sqlite']))('OpenAI-compatible types through the relay on $name', (database) => {
  let f: RelayFixture;
  let mock: CompatibleMock;
  let client: OpenAI;
  const { charged, free } = billing(() => f);
  let openRouterId = 0;

  const channel = (type: number, flavor: Flavor, models: string[], key = COMPAT_KEY) =>
    f.channel({ type, base_url: `${mock.url}/${flavor}`, key, models: models.join(','), auto_ban: 0 });

  beforeAll(async () => {
    mock = await startCompatibleMock();
    f = await startRelay(database);
    await setPrices(f, PRICES);
    await f.setOption('ModelPrice', JSON.stringify({ [SEEDREAM]: 0.03 }));
    await f.setOption('ServerAddress', 'https://gateway.example.com');
    await f.setOption('SystemName', 'Switchyard Test');
    await channel(42, 'mistral', ['mistral-small-latest', 'mistral-embed']);
    await channel(43, 'deepseek', ['deepseek-chat', 'deepseek-reasoner']);
    await channel(45, 'volcengine', ['doubao-1-5-pro-32k-250115', 'bot-20250101-abcde', SEEDREAM]);
    await channel(46, 'qianfan', ['ernie-4.5-turbo-128k'], `${QIANFAN_KEY}|app-123`);
    await channel(48, 'xai', ['grok-3-mini', 'grok-3-mini-high']);
    openRouterId = await channel(20, 'openrouter', ['openai/gpt-4o-mini']);
    await channel(27, 'perplexity', ['sonar']);
    apiKey = (await f.token()).key;
    client = f.client(apiKey);
  });

  afterAll(async () => {
    await f.close();
    await mock.close();
  });

  const lastSent = () => mock.requests.at(-1)!;
  const hi: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'hi' }];

  async function streamed(params: OpenAI.Chat.ChatCompletionCreateParamsStreaming) {
    const chunks: OpenAI.Chat.ChatCompletionChunk[] = [];
    for await (const chunk of await client.chat.completions.create(params)) chunks.push(chunk);
    const text = chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
    return { chunks, text, usage: chunks.findLast((c) => c.usage)?.usage };
  }

  let apiKey = '';
  /** A Claude Messages call through the relay (the call is converted to the upstream's OpenAI-style wire). */
  async function claude(model: string, stream = false) {
    const res = await fetch(`${f.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model, max_tokens: 256, messages: [{ role: 'user', content: 'hi' }], stream }),
    });
    expect(res.status).toBe(200);
    if (stream) return { events: await res.text() };
    return (await res.json()) as { content: Array<{ type: string; text?: string; thinking?: string }>; usage: Record<string, number> };
  }

  describe('Mistral (42)', () => {
    it("maps OpenAI's spellings to Mistral's schema and puts history tool call ids in its form", async () => {
      const messages = [
        { role: 'user', content: 'weather in Paris?' },
        {
          role: 'assistant',
          content: '',
          reasoning_content: 'I should call the tool.',
          tool_calls: [{ id: 'call_Xy12abcdefghijklmnop', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_Xy12abcdefghijklmnop', content: 'sunny' },
      ] as OpenAI.Chat.ChatCompletionMessageParam[];
      let answer!: OpenAI.Chat.ChatCompletion;
      const c = await charged(async () => {
        answer = await client.chat.completions.create({
          model: 'mistral-small-latest',
          messages,
          seed: 7,
          max_completion_tokens: 64,
          user: 'end-user-1',
          safe_prompt: true,
        } as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming);
      });
      expect(answer.choices[0].message.content).toBe('Hello from mistral.');
      const sent = lastSent();
      expect(sent.path).toBe('/mistral/v1/chat/completions');
      expect(sent.json).toMatchObject({ random_seed: 7, max_tokens: 64, safe_prompt: true });
      expect(sent.json).not.toHaveProperty('user');
      expect(sent.json).not.toHaveProperty('seed');
      const [, assistant, tool] = sent.json!.messages as Array<{ tool_calls?: Array<{ id: string }>; tool_call_id?: string; reasoning_content?: string }>;
      expect(assistant.tool_calls![0].id).toMatch(/^[a-zA-Z0-9]{9}$/);
      expect(tool.tool_call_id).toBe(assistant.tool_calls![0].id);
      expect(assistant).not.toHaveProperty('reasoning_content');
      expect(c.spent).toBe(costOf('mistral-small-latest', { prompt: 12, completion: 9 }));
    });

    it('streams without stream_options and bills the usage Mistral reports on its last chunk', async () => {
      let s!: Awaited<ReturnType<typeof streamed>>;
      const c = await charged(async () => {
        s = await streamed({ model: 'mistral-small-latest', messages: hi, stream: true, stream_options: { include_usage: true } });
      });
      expect(s.text).toBe('Hello from mistral.');
      expect(lastSent().json).not.toHaveProperty('stream_options');
      expect(s.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 9 });
      expect(c.spent).toBe(costOf('mistral-small-latest', { prompt: 12, completion: 9 }));
      expect(c.log.is_stream).toBe(1);
    });

    it('sends embeddings with dimensions as output_dimension and without user', async () => {
      const c = await charged(() => client.embeddings.create({ model: 'mistral-embed', input: 'hi', dimensions: 256, user: 'u1', encoding_format: 'float' }));
      expect(lastSent().path).toBe('/mistral/v1/embeddings');
      expect(lastSent().json).toEqual({ model: 'mistral-embed', input: 'hi', output_dimension: 256, encoding_format: 'float' });
      expect(c.spent).toBe(costOf('mistral-embed', { prompt: 4, completion: 0 }));
    });
  });

  describe('DeepSeek (43)', () => {
    it('bills prompt_cache_hit_tokens at the cache ratio and passes the usage through', async () => {
      let answer!: OpenAI.Chat.ChatCompletion;
      const c = await charged(async () => {
        answer = await client.chat.completions.create({ model: 'deepseek-chat', messages: hi });
      });
      expect(lastSent().path).toBe('/deepseek/v1/chat/completions');
      expect(answer.usage).toMatchObject({ prompt_tokens: 100, prompt_cache_hit_tokens: 64 });
      expect(c.spent).toBe(costOf('deepseek-chat', { prompt: 100, completion: 20, cached: 64 }));
      expect(c.log).toMatchObject({ prompt_tokens: 100, completion_tokens: 20 });
    });

    it('passes reasoning_content to the client, whole and streamed', async () => {
      const whole = await client.chat.completions.create({ model: 'deepseek-reasoner', messages: hi });
      expect((whole.choices[0].message as unknown as { reasoning_content: string }).reasoning_content).toBe('Thinking it over.');
      let s!: Awaited<ReturnType<typeof streamed>>;
      const c = await charged(async () => {
        s = await streamed({ model: 'deepseek-reasoner', messages: hi, stream: true });
      });
      const thinking = s.chunks.map((ch) => (ch.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? '').join('');
      expect(thinking).toBe('Thinking it over.');
      expect(s.text).toBe('Hello from deepseek.');
      expect(s.usage).toBeUndefined();
      expect(c.spent).toBe(costOf('deepseek-reasoner', { prompt: 100, completion: 20, cached: 64 }));
    });

    it('shows a Claude client the cache hits as cache reads, billed as for OpenAI clients', async () => {
      let answer!: Awaited<ReturnType<typeof claude>>;
      const c = await charged(async () => {
        answer = await claude('deepseek-chat');
      });
      expect('usage' in answer && answer.usage).toMatchObject({ input_tokens: 36, cache_read_input_tokens: 64, output_tokens: 20 });
      expect(c.spent).toBe(costOf('deepseek-chat', { prompt: 100, completion: 20, cached: 64 }));
    });

    it('sends completions (fill in the middle) to /beta/completions', async () => {
      let answer!: OpenAI.Completion;
      const c = await charged(async () => {
        answer = await client.completions.create({ model: 'deepseek-chat', prompt: 'def add(a, b):', suffix: 'return s' });
      });
      expect(lastSent().path).toBe('/deepseek/beta/completions');
      expect(lastSent().json).toMatchObject({ prompt: 'def add(a, b):', suffix: 'return s' });
      expect(answer.choices[0].text).toContain('filled between');
      expect(c.spent).toBe(costOf('deepseek-chat', { prompt: 100, completion: 20, cached: 64 }));
    });
  });

  describe('VolcEngine Ark (45)', () => {
    it('sends models to /api/v3/chat/completions and bot-… applications to /api/v3/bots/chat/completions', async () => {
      const c = await charged(() => client.chat.completions.create({ model: 'doubao-1-5-pro-32k-250115', messages: hi }));
      expect(lastSent().path).toBe('/volcengine/api/v3/chat/completions');
      expect(c.spent).toBe(costOf('doubao-1-5-pro-32k-250115', { prompt: 15, completion: 5 }));
      const bot = await client.chat.completions.create({ model: 'bot-20250101-abcde', messages: hi });
      expect(lastSent().path).toBe('/volcengine/api/v3/bots/chat/completions');
      expect(bot.choices[0].message.content).toBe('Hello from volcengine.');
      let s!: Awaited<ReturnType<typeof streamed>>;
      const b = await charged(async () => {
        s = await streamed({ model: 'bot-20250101-abcde', messages: hi, stream: true, stream_options: { include_usage: true } });
      });
      expect(lastSent().path).toBe('/volcengine/api/v3/bots/chat/completions');
      expect(s.text).toBe('Hello from volcengine.');
      expect(b.spent).toBe(costOf('bot-20250101-abcde', { prompt: 15, completion: 5 }));
    });

    it('generates images at /api/v3/images/generations, billed at the model price', async () => {
      let image!: OpenAI.ImagesResponse;
      const c = await charged(async () => {
        image = await client.images.generate({ model: SEEDREAM, prompt: 'a red fox', size: '1024x1024' });
      });
      expect(lastSent().path).toBe('/volcengine/api/v3/images/generations');
      expect(image.data?.[0].url).toBe('https://images.example/volcengine.png');
      expect(c.spent).toBe(15_000);
    });
  });

  describe('Baidu Qianfan v2 (46)', () => {
    it('sends the key as a Bearer token and the AppID it carries in the appid header', async () => {
      const c = await charged(() => client.chat.completions.create({ model: 'ernie-4.5-turbo-128k', messages: hi }));
      const sent = lastSent();
      expect(sent.path).toBe('/qianfan/v2/chat/completions');
      expect(sent.headers).toMatchObject({ authorization: `Bearer ${QIANFAN_KEY}`, appid: 'app-123' });
      expect(c.spent).toBe(costOf('ernie-4.5-turbo-128k', { prompt: 7, completion: 3 }));
      let s!: Awaited<ReturnType<typeof streamed>>;
      const streamCharge = await charged(async () => {
        s = await streamed({ model: 'ernie-4.5-turbo-128k', messages: hi, stream: true });
      });
      expect(s.text).toBe('Hello from qianfan.');
      expect(streamCharge.spent).toBe(c.spent);
    });
  });

  describe('xAI (48)', () => {
    const xaiTokens = { prompt: 30, completion: 60, cached: 6 };

    it('counts reasoning tokens as completion, in what the client is told and in what it is billed', async () => {
      let answer!: OpenAI.Chat.ChatCompletion;
      const c = await charged(async () => {
        answer = await client.chat.completions.create({ model: 'grok-3-mini', messages: hi });
      });
      expect(lastSent().path).toBe('/xai/v1/chat/completions');
      expect(answer.usage).toMatchObject({ prompt_tokens: 30, completion_tokens: 60, total_tokens: 90, completion_tokens_details: { reasoning_tokens: 50 } });
      expect((answer.choices[0].message as unknown as { reasoning_content: string }).reasoning_content).toBe('Grok thinks.');
      expect(c.spent).toBe(costOf('grok-3-mini', xaiTokens));
      expect(c.log).toMatchObject({ prompt_tokens: 30, completion_tokens: 60 });
    });

    it('spells grok-3-mini-high as the model and its reasoning effort, and its cap as max_completion_tokens', async () => {
      const c = await charged(() => client.chat.completions.create({ model: 'grok-3-mini-high', messages: hi, max_tokens: 300 }));
      expect(lastSent().json).toMatchObject({ model: 'grok-3-mini', reasoning_effort: 'high', max_completion_tokens: 300 });
      expect(lastSent().json).not.toHaveProperty('max_tokens');
      expect(c.log.model_name).toBe('grok-3-mini-high');
      expect(c.spent).toBe(costOf('grok-3-mini-high', xaiTokens));
    });

    it('tells a Claude client the same output tokens', async () => {
      let answer!: Awaited<ReturnType<typeof claude>>;
      const c = await charged(async () => {
        answer = await claude('grok-3-mini');
      });
      expect('usage' in answer && answer.usage).toMatchObject({ input_tokens: 24, cache_read_input_tokens: 6, output_tokens: 60 });
      expect(c.spent).toBe(costOf('grok-3-mini', xaiTokens));
    });

    it('does the same for a stream', async () => {
      let s!: Awaited<ReturnType<typeof streamed>>;
      const c = await charged(async () => {
        s = await streamed({ model: 'grok-3-mini', messages: hi, stream: true, stream_options: { include_usage: true } });
      });
      expect(s.text).toBe('Hello from xai.');
      expect(s.usage).toMatchObject({ prompt_tokens: 30, completion_tokens: 60, total_tokens: 90 });
      expect(c.spent).toBe(costOf('grok-3-mini', xaiTokens));
      const quiet = await charged(() => streamed({ model: 'grok-3-mini', messages: hi, stream: true }));
      expect(quiet.spent).toBe(c.spent);
    });
  });

  describe('OpenRouter (20)', () => {
    it("sends the attribution headers from the system's address and name, and passes reasoning through", async () => {
      let answer!: OpenAI.Chat.ChatCompletion;
      const c = await charged(async () => {
        answer = await client.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: hi });
      });
      const sent = lastSent();
      expect(sent.path).toBe('/openrouter/v1/chat/completions');
      expect(sent.headers).toMatchObject({ 'http-referer': 'https://gateway.example.com', 'x-title': 'Switchyard Test', authorization: `Bearer ${COMPAT_KEY}` });
      expect((answer.choices[0].message as unknown as { reasoning: string }).reasoning).toBe('Routed thought.');
      expect(c.spent).toBe(costOf('openai/gpt-4o-mini', { prompt: 14, completion: 6 }));
      let s!: Awaited<ReturnType<typeof streamed>>;
      await charged(async () => {
        s = await streamed({ model: 'openai/gpt-4o-mini', messages: hi, stream: true });
      });
      expect(lastSent().headers['x-title']).toBe('Switchyard Test');
      expect(s.chunks.some((ch) => (ch.choices[0]?.delta as { reasoning?: string } | undefined)?.reasoning === 'Routed thought.')).toBe(true);
    });

    it("sends the channel's own attribution, refuses one that cannot be a header, and never lets a system name fail calls", async () => {
      const setSetting = (setting: Record<string, unknown>) =>
        f.t.call(f.root, { method: 'PUT', url: '/api/channel/', payload: { id: openRouterId, setting: JSON.stringify(setting) } });
      const call = async () => {
        await client.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: hi });
        return lastSent().headers;
      };
      try {
        expect((await setSetting({ http_referer: 'https://chat.example.org/app', x_title: 'Night Owl Chat' })).json().success).toBe(true);
        expect(await call()).toMatchObject({ 'http-referer': 'https://chat.example.org/app', 'x-title': 'Night Owl Chat' });
        // One of the two set: the other is the system's.
        await setSetting({ x_title: 'Night Owl Chat' });
        expect(await call()).toMatchObject({ 'http-referer': 'https://gateway.example.com', 'x-title': 'Night Owl Chat' });

        const refused = async (setting: Record<string, unknown>, message: RegExp) => {
          const res = (await setSetting(setting)).json() as { success: boolean; message: string };
          expect(res, JSON.stringify(setting)).toMatchObject({ success: false, message: expect.stringMatching(message) });
        };
        await refused({ x_title: '夜猫子' }, /^应用名称只能包含/);
        await refused({ x_title: 'a\r\nx-injected: 1' }, /^应用名称只能包含/);
        await refused({ x_title: 7 }, /^应用名称只能包含/);
        await refused({ http_referer: 'ftp://chat.example.org' }, /^应用地址无效/);
        await refused({ http_referer: 'chat.example.org' }, /^应用地址无效/);
        await refused({ http_referer: 'https://例子.example/' }, /^应用地址无效/);

        // A system name that cannot be a header value (Chinese) is left out; the call goes through.
        await setSetting({});
        await f.setOption('SystemName', '夜猫子网关');
        const headers = await call();
        expect(headers['http-referer']).toBe('https://gateway.example.com');
        expect(headers['x-title']).toBeUndefined();
      } finally {
        await f.setOption('SystemName', 'Switchyard Test');
        await setSetting({});
      }
    });

    it("gives a Claude client OpenRouter's reasoning as thinking, whole and streamed", async () => {
      const whole = await claude('openai/gpt-4o-mini');
      expect('content' in whole && whole.content[0]).toMatchObject({ type: 'thinking', thinking: 'Routed thought.' });
      const streamedAnswer = await claude('openai/gpt-4o-mini', true);
      expect('events' in streamedAnswer && streamedAnswer.events).toContain('"thinking":"Routed thought."');
    });
  });

  describe('Perplexity (27)', () => {
    it('calls {base}/chat/completions and passes the citations through, whole and streamed', async () => {
      let answer!: OpenAI.Chat.ChatCompletion & { citations?: string[] };
      const c = await charged(async () => {
        answer = await client.chat.completions.create({ model: 'sonar', messages: hi });
      });
      expect(lastSent().path).toBe('/perplexity/chat/completions');
      expect(answer.citations).toEqual(CITATIONS);
      expect(c.spent).toBe(costOf('sonar', { prompt: 9, completion: 11 }));
      let s!: Awaited<ReturnType<typeof streamed>>;
      const sc = await charged(async () => {
        s = await streamed({ model: 'sonar', messages: hi, stream: true });
      });
      expect((s.chunks[0] as unknown as { citations: string[] }).citations).toEqual(CITATIONS);
      expect(lastSent().json).not.toHaveProperty('stream_options');
      expect(sc.spent).toBe(c.spent);
    });

    it('refuses tools with a 400 and charges nothing', async () => {
      const sentBefore = mock.requests.length;
      let err: unknown;
      await free(async () => {
        err = await client.chat.completions
          .create({ model: 'sonar', messages: hi, tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }] })
          .catch((e: unknown) => e);
      });
      expect(err).toBeInstanceOf(OpenAI.BadRequestError);
      expect((err as InstanceType<typeof OpenAI.BadRequestError>).message).toContain('Perplexity 渠道不支持参数 tools');
      expect(mock.requests.length).toBe(sentBefore);
    });
  });
});
