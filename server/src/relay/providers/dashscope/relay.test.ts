import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type OpenAI from 'openai';
import { GoogleGenAI } from '@google/genai';
import { CHANNEL_STATUS, defaultModels } from '@switchyard/shared';
import { testDatabases } from '../../../test/databases.js';
import { startRelay, type RelayFixture } from '../../../test/relay-fixture.js';
import { billing, costOf as costAt, setPrices, type Price, type Tokens } from '../../../test/billing.js';
import { MOCK_IMAGE, startDashScopeMock, type DashScopeMock } from '../../../test/mocks/dashscope.js';
import { countTextTokens } from '../../tokenizer.js';
import { setTaskPolling } from './index.js';

/*
 * The OpenAI SDK and the Gemini SDK through a DashScope channel (type 17), against the DashScope stand-in: chat in the
 * compatible mode (plain, streamed, tool call, no usage, cut), native embeddings, wanx images as async tasks, and
 * DashScope's refusals — each call billed exactly, refusals not at all.
 */

const QWEN = 'qwen-plus';
const QWEN_TOOLS = 'qwen-plus-mock-tool-call';
const QWEN_NO_USAGE = 'qwen-plus-mock-no-usage';
const QWEN_CUT = 'qwen-plus-mock-cut';
const QWEN_429 = 'qwen-plus-mock-429';
const QWEN_400 = 'qwen-plus-mock-400';
const EMBED = 'text-embedding-v3';
const EMBED_NO_USAGE = 'text-embedding-v3-mock-no-usage';
const WANX = 'wanx2.1-t2i-turbo';
const WANX_PARTIAL = 'wanx2.1-t2i-turbo-mock-partial';
const WANX_FAILED = 'wanx2.1-t2i-turbo-mock-failed';
const WANX_CRASHED = 'wanx2.1-t2i-turbo-mock-crashed';
const WANX_SLOW = 'wanx2.1-t2i-turbo-mock-slow';
const WANX_PRICE = 0.02;

const PRICES: Record<string, Price> = {
  [QWEN]: { ratio: 0.4, completion: 3 },
  [QWEN_TOOLS]: { ratio: 0.4, completion: 3 },
  [QWEN_NO_USAGE]: { ratio: 0.4, completion: 3 },
  [QWEN_CUT]: { ratio: 0.4, completion: 3 },
  [QWEN_429]: { ratio: 0.4, completion: 3 },
  [QWEN_400]: { ratio: 0.4, completion: 3 },
  [EMBED]: { ratio: 1, completion: 1 },
  [EMBED_NO_USAGE]: { ratio: 1, completion: 1 },
};
const IMAGE_MODELS = [WANX, WANX_PARTIAL, WANX_FAILED, WANX_CRASHED, WANX_SLOW];

const costOf = (model: string, t: Tokens) => costAt(model, t, PRICES[model]);

describe.each(testDatabases(['sqlite']))('DashScope channels through the relay on $name', (database) => {
  let f: RelayFixture;
  let mock: DashScopeMock;
  let key: string;
  let client: OpenAI;
  let channelId: number;
  const { charged, free, lastLog } = billing(() => f);

  beforeAll(async () => {
    setTaskPolling({ firstMs: 5, intervalMs: 5, timeoutMs: 400 });
    mock = await startDashScopeMock();
    f = await startRelay(database);
    await setPrices(f, PRICES);
    await f.setOption('ModelPrice', JSON.stringify(Object.fromEntries(IMAGE_MODELS.map((m) => [m, WANX_PRICE]))));
    channelId = await f.channel({
      type: 17,
      base_url: mock.url,
      key: mock.key,
      other: 'assistant',
      models: [...Object.keys(PRICES), ...IMAGE_MODELS].join(','),
      auto_ban: 0,
    });
    key = (await f.token()).key;
    client = f.client(key);
  });

  afterAll(async () => {
    setTaskPolling();
    await f.close();
    await mock.close();
  });

  const lastSent = () => mock.requests.at(-1)!;

  describe('chat in the compatible mode', () => {
    it('relays a chat call with the key, the plugin header and top_p moved inside (0, 1), billed by the reported usage', async () => {
      let answer!: OpenAI.Chat.ChatCompletion;
      const c = await charged(async () => {
        answer = await client.chat.completions.create({ model: QWEN, messages: [{ role: 'user', content: 'hi' }], top_p: 1 });
      });
      expect(answer.choices[0].message.content).toBe('Hello from the DashScope mock.');
      const sent = lastSent();
      expect(sent.path).toBe('/compatible-mode/v1/chat/completions');
      expect(sent.headers.authorization).toBe(`Bearer ${mock.key}`);
      expect(sent.headers['x-dashscope-plugin']).toBe('assistant');
      expect(sent.headers['x-dashscope-sse']).toBeUndefined();
      expect(sent.json).toMatchObject({ model: QWEN, top_p: 0.999 });
      expect(c.spent).toBe(costOf(QWEN, { prompt: 12, completion: 7 }));
      expect(c.log).toMatchObject({ model_name: QWEN, prompt_tokens: 12, completion_tokens: 7, quota: c.spent, is_stream: 0 });
    });

    it('passes a body that needs no change through byte for byte', async () => {
      const body = JSON.stringify({ model: QWEN, messages: [{ role: 'user', content: 'hi' }], top_p: 0.8 });
      const res = await fetch(`${f.baseUrl}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
      expect(res.status).toBe(200);
      expect(lastSent().body.toString()).toBe(body);
    });

    it('streams with X-DashScope-SSE, asks for usage and bills it, and hides the usage chunk from a client that did not ask', async () => {
      let text = '';
      let usageChunks = 0;
      const c = await charged(async () => {
        const stream = await client.chat.completions.create({ model: QWEN, messages: [{ role: 'user', content: 'hi' }], stream: true, top_p: 0 });
        for await (const chunk of stream) {
          text += chunk.choices[0]?.delta?.content ?? '';
          if (chunk.usage) usageChunks++;
        }
      });
      expect(text).toBe('Hello from the DashScope mock.');
      expect(usageChunks).toBe(0);
      const sent = lastSent();
      expect(sent.headers['x-dashscope-sse']).toBe('enable');
      expect(sent.json).toMatchObject({ stream: true, stream_options: { include_usage: true }, top_p: 0.001 });
      expect(c.spent).toBe(costOf(QWEN, { prompt: 12, completion: 7 }));
      expect(c.log).toMatchObject({ prompt_tokens: 12, completion_tokens: 7, is_stream: 1 });
    });

    it('relays a tool call, whole and streamed, billed by the reported usage', async () => {
      const tools: OpenAI.Chat.ChatCompletionTool[] = [
        { type: 'function', function: { name: 'get_current_weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } } },
      ];
      const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: '杭州天气怎么样' }];
      let whole!: OpenAI.Chat.ChatCompletion;
      const c1 = await charged(async () => {
        whole = await client.chat.completions.create({ model: QWEN_TOOLS, messages, tools });
      });
      expect(whole.choices[0].finish_reason).toBe('tool_calls');
      expect(whole.choices[0].message.tool_calls?.[0]).toMatchObject({ id: 'call_8f08d2b0fc0c4d8fab7123', function: { name: 'get_current_weather', arguments: '{"location": "杭州市"}' } });
      expect(c1.spent).toBe(costOf(QWEN_TOOLS, { prompt: 236, completion: 21 }));

      let args = '';
      let finish: string | null = null;
      const c2 = await charged(async () => {
        const stream = await client.chat.completions.create({ model: QWEN_TOOLS, messages, tools, stream: true, stream_options: { include_usage: true } });
        for await (const chunk of stream) {
          for (const call of chunk.choices[0]?.delta?.tool_calls ?? []) args += call.function?.arguments ?? '';
          finish = chunk.choices[0]?.finish_reason ?? finish;
        }
      });
      expect(JSON.parse(args)).toEqual({ location: '杭州市' });
      expect(finish).toBe('tool_calls');
      expect(c2.spent).toBe(costOf(QWEN_TOOLS, { prompt: 236, completion: 21 }));
    });

    it('counts an answer that came without usage, whole and streamed', async () => {
      const completion = countTextTokens('Hello from the DashScope mock.', QWEN_NO_USAGE);
      for (const stream of [false, true]) {
        const c = await charged(async () => {
          if (!stream) return client.chat.completions.create({ model: QWEN_NO_USAGE, messages: [{ role: 'user', content: 'hi' }] });
          for await (const chunk of await client.chat.completions.create({ model: QWEN_NO_USAGE, messages: [{ role: 'user', content: 'hi' }], stream: true })) void chunk;
        });
        expect(c.log.completion_tokens).toBe(completion);
        expect(c.log.prompt_tokens).toBeGreaterThan(0);
        expect(c.spent).toBe(costOf(QWEN_NO_USAGE, { prompt: c.log.prompt_tokens, completion }));
        expect(c.log.content).toContain('上游未返回用量');
      }
    });

    it('charges a stream cut mid-way for what was delivered, once', async () => {
      let text = '';
      const c = await charged(async () => {
        try {
          for await (const chunk of await client.chat.completions.create({ model: QWEN_CUT, messages: [{ role: 'user', content: 'hi' }], stream: true })) {
            text += chunk.choices[0]?.delta?.content ?? '';
          }
        } catch {
          // the relay ends the stream with an error event
        }
      });
      expect(text).toBe('Hello from');
      expect(c.log.completion_tokens).toBe(countTextTokens('Hello from', QWEN_CUT));
      expect(c.spent).toBe(costOf(QWEN_CUT, { prompt: c.log.prompt_tokens, completion: c.log.completion_tokens }));
      expect(c.log.content).toContain('上游中断');
    });

    it('answers DashScope’s refusals in OpenAI’s shape and charges nothing', async () => {
      await free(async () => {
        await expect(client.chat.completions.create({ model: QWEN_429, messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 429 });
        await expect(client.chat.completions.create({ model: QWEN_400, messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({
          status: 400,
          error: { message: expect.stringContaining('role of user'), code: 'invalid_parameter_error' },
        });
      });
    });
  });

  describe('embeddings through the native API', () => {
    it('converts the OpenAI request and answer (base64 as the SDK asks by default), billed by total_tokens', async () => {
      let res!: OpenAI.CreateEmbeddingResponse;
      const c = await charged(async () => {
        res = await client.embeddings.create({ model: EMBED, input: ['风急天高猿啸哀', '渚清沙白鸟飞回'], dimensions: 4 });
      });
      const sent = lastSent();
      expect(sent.path).toBe('/api/v1/services/embeddings/text-embedding/text-embedding');
      expect(sent.json).toEqual({ model: EMBED, input: { texts: ['风急天高猿啸哀', '渚清沙白鸟飞回'] }, parameters: { dimension: 4 } });
      expect(res.data.map((d) => d.index)).toEqual([0, 1]);
      expect(res.data[1].embedding[0]).toBeCloseTo(-0.012294006, 6);
      expect(res.usage).toEqual({ prompt_tokens: 9, total_tokens: 9 });
      expect(c.spent).toBe(costOf(EMBED, { prompt: 9, completion: 0 }));

      const floats = await client.embeddings.create({ model: EMBED, input: 'hello', encoding_format: 'float' });
      expect(floats.data[0].embedding).toEqual([0.0023064255, -0.009327292, 0.015797347, -0.0077780345]);
    });

    it('sends more than ten texts in batches of ten and joins the answers, usage summed', async () => {
      const input = Array.from({ length: 23 }, (_, i) => `text ${i}`);
      const before = mock.requests.length;
      let res!: OpenAI.CreateEmbeddingResponse;
      const c = await charged(async () => {
        res = await client.embeddings.create({ model: EMBED, input, encoding_format: 'float' });
      });
      const sent = mock.requests.slice(before).map((r) => (r.json?.input as { texts: string[] }).texts);
      expect(sent).toEqual([input.slice(0, 10), input.slice(10, 20), input.slice(20)]);
      expect(res.data.map((d) => d.index)).toEqual(input.map((_, i) => i));
      // The stand-in answers the i-th text of each batch with the fixture's (i mod 3)-th vector.
      expect(res.data[12].embedding).toEqual([0.5, -0.25, 0.125, -0.0625]);
      expect(res.usage).toEqual({ prompt_tokens: 27, total_tokens: 27 });
      expect(c.spent).toBe(costOf(EMBED, { prompt: 27, completion: 0 }));
    });

    it('counts the input when DashScope reports no usage', async () => {
      const c = await charged(() => client.embeddings.create({ model: EMBED_NO_USAGE, input: 'hello world' }));
      expect(c.log.prompt_tokens).toBe(countTextTokens('hello world', EMBED_NO_USAGE));
      expect(c.spent).toBe(costOf(EMBED_NO_USAGE, { prompt: c.log.prompt_tokens, completion: 0 }));
    });

    it('refuses token arrays, which DashScope cannot embed, before sending anything', async () => {
      const before = mock.requests.length;
      await free(() => expect(client.embeddings.create({ model: EMBED, input: [[1, 2, 3]] })).rejects.toMatchObject({ status: 400, error: { param: 'input' } }));
      expect(mock.requests.length).toBe(before);
    });
  });

  describe('wanx images as async tasks', () => {
    it('submits with X-DashScope-Async, polls the task until it succeeds and answers the URLs, billed per image', async () => {
      let res!: OpenAI.ImagesResponse;
      const c = await charged(async () => {
        res = await client.images.generate({ model: WANX, prompt: 'a flower shop', n: 2, size: '1024x1024' });
      });
      expect(res.data).toHaveLength(2);
      expect(res.data![0].url).toMatch(/\/images\/.+-0\.png\?Expires=/);
      expect(res.data![0].revised_prompt).toBe('a flower shop, detailed');
      const submit = mock.requests.find((r) => r.path.endsWith('/image-synthesis') && (r.json?.input as { prompt?: string })?.prompt === 'a flower shop')!;
      expect(submit.headers['x-dashscope-async']).toBe('enable');
      expect(submit.json).toEqual({ model: WANX, input: { prompt: 'a flower shop' }, parameters: { n: 2, size: '1024*1024' } });
      const task = [...mock.tasks.values()].at(-1)!;
      expect(task.polls).toBe(mock.pollsBeforeDone + 1);
      expect(c.spent).toBe(Math.round(2 * WANX_PRICE * 500_000));
    });

    it('downloads the images for b64_json', async () => {
      const res = await client.images.generate({ model: WANX, prompt: 'a cat', response_format: 'b64_json' });
      expect(res.data).toHaveLength(1);
      expect(Buffer.from(res.data![0].b64_json!, 'base64').equals(MOCK_IMAGE)).toBe(true);
      expect(res.data![0].url).toBeUndefined();
    });

    it('answers the images a partly failed task made, and charges for those only', async () => {
      let res!: OpenAI.ImagesResponse;
      const c = await charged(async () => {
        res = await client.images.generate({ model: WANX_PARTIAL, prompt: 'a dog', n: 3 });
      });
      expect(res.data).toHaveLength(2);
      expect(c.spent).toBe(Math.round(2 * WANX_PRICE * 500_000));
      expect(c.log.quota).toBe(c.spent);
    });

    it('answers a task refused for its content as the client’s error, one that crashed as the upstream’s, and one that never ends as a timeout, none charged', async () => {
      await free(async () => {
        await expect(client.images.generate({ model: WANX_FAILED, prompt: 'x' })).rejects.toMatchObject({
          status: 400,
          error: { code: 'DataInspectionFailed', message: 'Input data may contain inappropriate content.' },
        });
        await expect(client.images.generate({ model: WANX_CRASHED, prompt: 'x' })).rejects.toMatchObject({ status: 500, error: { code: 'InternalError' } });
        await expect(client.images.generate({ model: WANX_SLOW, prompt: 'x' })).rejects.toMatchObject({ status: 504, error: { code: 'TaskTimeout' } });
      });
    });

    it('refuses what wanx cannot do (OpenAI styles, more than four images) before submitting', async () => {
      const before = mock.requests.length;
      await free(async () => {
        await expect(client.images.generate({ model: WANX, prompt: 'x', style: 'vivid' })).rejects.toMatchObject({ status: 400, error: { param: 'style' } });
        await expect(client.images.generate({ model: WANX, prompt: 'x', n: 5 })).rejects.toMatchObject({ status: 400, error: { param: 'n' } });
      });
      expect(mock.requests.length).toBe(before);
    });
  });

  describe('a Gemini client', () => {
    it('reaches DashScope chat and embeddings through the canonical shape, billed exactly', async () => {
      const ai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: f.baseUrl } });
      let textOut = '';
      const c = await charged(async () => {
        textOut = (await ai.models.generateContent({ model: QWEN, contents: 'Say hi', config: { topP: 1 } })).text ?? '';
      });
      expect(textOut).toBe('Hello from the DashScope mock.');
      expect(lastSent().json).toMatchObject({ model: QWEN, messages: [{ role: 'user', content: 'Say hi' }], top_p: 0.999 });
      expect(c.spent).toBe(costOf(QWEN, { prompt: 12, completion: 7 }));

      let streamed = '';
      const s = await charged(async () => {
        for await (const chunk of await ai.models.generateContentStream({ model: QWEN, contents: 'Say hi' })) streamed += chunk.text ?? '';
      });
      expect(streamed).toBe('Hello from the DashScope mock.');
      expect(lastSent().headers['x-dashscope-sse']).toBe('enable');
      expect(s.spent).toBe(costOf(QWEN, { prompt: 12, completion: 7 }));

      const e = await charged(async () => {
        const res = await ai.models.embedContent({ model: EMBED, contents: ['one', 'two'] });
        expect(res.embeddings?.map((x) => x.values?.length)).toEqual([4, 4]);
      });
      expect(lastSent().json).toEqual({ model: EMBED, input: { texts: ['one', 'two'] } });
      expect(e.spent).toBe(costOf(EMBED, { prompt: 9, completion: 0 }));
    });
  });

  describe('Claude and Responses clients', () => {
    it('reach DashScope chat through the canonical shape, billed exactly', async () => {
      let claude: { content?: Array<{ text?: string }>; usage?: unknown } = {};
      const c = await charged(async () => {
        const res = await fetch(`${f.baseUrl}/v1/messages`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
          body: JSON.stringify({ model: QWEN, max_tokens: 100, top_p: 1, messages: [{ role: 'user', content: 'hi' }] }),
        });
        claude = (await res.json()) as typeof claude;
      });
      expect(claude.content?.[0]?.text).toBe('Hello from the DashScope mock.');
      expect(claude.usage).toMatchObject({ input_tokens: 12, output_tokens: 7 });
      expect(lastSent().json).toMatchObject({ model: QWEN, top_p: 0.999, max_tokens: 100 });
      expect(c.spent).toBe(costOf(QWEN, { prompt: 12, completion: 7 }));

      let events = '';
      const r = await charged(async () => {
        const res = await fetch(`${f.baseUrl}/v1/responses`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: QWEN, input: 'hi', stream: true, store: false }),
        });
        events = await res.text();
      });
      expect(events).toContain('event: response.completed');
      expect(lastSent().headers['x-dashscope-sse']).toBe('enable');
      expect(r.spent).toBe(costOf(QWEN, { prompt: 12, completion: 7 }));
    });
  });

  describe('a refused key', () => {
    it('counts as a credential failure: the call fails uncharged and the channel is disabled', async () => {
      await f.setOption('AutomaticDisableChannelEnabled', 'true');
      try {
        const model = 'qwen-bad-key';
        await f.setOption('ModelRatio', JSON.stringify({ ...Object.fromEntries(Object.entries(PRICES).map(([m, p]) => [m, p.ratio])), [model]: 1 }));
        const bad = await f.channel({ type: 17, base_url: mock.url, key: 'sk-wrong', models: model, auto_ban: 1 });
        await free(() => expect(client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 502 }));
        // The channel is disabled beside the answer: waited for, not slept on.
        await expect
          .poll(async () => (await f.t.app.ctx.db.kysely.selectFrom('channels').select('status').where('id', '=', bad).executeTakeFirstOrThrow()).status)
          .toBe(CHANNEL_STATUS.AUTO_DISABLED);
        const other = await f.t.app.ctx.db.kysely.selectFrom('channels').select('status').where('id', '=', channelId).executeTakeFirstOrThrow();
        expect(other.status).toBe(CHANNEL_STATUS.ENABLED);
      } finally {
        await f.setOption('AutomaticDisableChannelEnabled', 'false');
      }
    });
  });

  describe('the console', () => {
    const get = async <T>(url: string): Promise<T> => (await f.t.call(f.root, { method: 'GET', url })).json();

    it('tests a channel with a real chat call or embedding, and reports a refused key with DashScope’s words', async () => {
      expect(await get(`/api/channel/test/${channelId}?model=${QWEN}`)).toMatchObject({ success: true, message: '' });
      expect(lastSent().path).toBe('/compatible-mode/v1/chat/completions');
      expect(await get(`/api/channel/test/${channelId}?model=${EMBED}`)).toMatchObject({ success: true, message: '' });
      expect(lastSent().path).toBe('/api/v1/services/embeddings/text-embedding/text-embedding');
      const bad = await f.channel({ type: 17, base_url: mock.url, key: 'sk-wrong', models: 'qwen-console-only', auto_ban: 0 });
      expect(await get(`/api/channel/test/${bad}?model=${QWEN}`)).toMatchObject({ success: false, message: 'Incorrect API key provided. ' });
    });

    it('lists the type’s default models as the channel’s fetched models', async () => {
      expect(await get(`/api/channel/fetch_models/${channelId}`)).toMatchObject({ success: true, data: [...defaultModels(17)] });
    });
  });

  it('logs the last call with its channel', async () => {
    await client.chat.completions.create({ model: QWEN, messages: [{ role: 'user', content: 'hi' }] });
    await f.flush();
    expect(JSON.parse((await lastLog()).other)).toMatchObject({ admin_info: { use_channel: [channelId] } });
  });
});
