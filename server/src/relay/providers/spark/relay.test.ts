import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type OpenAI from 'openai';
import { GoogleGenAI } from '@google/genai';
import { CHANNEL_STATUS, defaultModels } from '@switchyard/shared';
import { testDatabases } from '../../../test/databases.js';
import { startRelay, type RelayFixture } from '../../../test/relay-fixture.js';
import { billing, costOf as costAt, setPrices, type Price, type Tokens } from '../../../test/billing.js';
import { startSparkStandIn, type SparkStandIn } from '../../../test/spark-stand-in.js';
import { countTextTokens } from '../../tokenizer.js';

/*
 * The OpenAI SDK, a Claude Messages client, the Gemini SDK and a Responses client through an iFlytek Spark channel (type 18), against the Spark stand-in,
 * which checks every signed handshake: answers whole and streamed, a function call, no usage, a socket cut mid-way,
 * error frames before and after the first words, refused handshakes — each call billed exactly, refusals not at all.
 * The case is named in the last user message ("mock-<case>").
 */

const MAX = 'SparkDesk-v3.5';
const LITE = 'SparkDesk-v1.1';
const PLAIN = 'spark-by-channel';
const PRICE: Price = { ratio: 1, completion: 3 };
const MODELS = [MAX, LITE, PLAIN, 'spark-bad-secret', 'spark-bad-app', 'spark-console-only'];
const PRICES: Record<string, Price> = Object.fromEntries(MODELS.map((m) => [m, PRICE]));
const GOOD: Tokens = { prompt: 5, completion: 7 };
const costOf = (model: string, t: Tokens) => costAt(model, t, PRICE);

/** Waits until the stand-in has seen every socket close (the gateway closes first; the other end learns it soon). */
async function allClosed(mock: SparkStandIn): Promise<number> {
  const deadline = Date.now() + 10_000;
  while (mock.live() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return mock.live();
}

const ask = (text: string): OpenAI.Chat.ChatCompletionMessageParam[] => [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: text },
];

describe.each(testDatabases(['sqlite']))('iFlytek Spark channels through the relay on $name', (database) => {
  let f: RelayFixture;
  let mock: SparkStandIn;
  let key: string;
  let client: OpenAI;
  let channelId: number;
  const { charged, free, expectCharge } = billing(() => f);
  const lastCall = () => mock.calls.at(-1)!;

  beforeAll(async () => {
    mock = await startSparkStandIn();
    // A silence of a second between two frames ends a stream (the stall case).
    f = await startRelay(database, { STREAMING_TIMEOUT: '1' });
    await setPrices(f, PRICES);
    channelId = await f.channel({ type: 18, base_url: mock.url, key: mock.key, models: [MAX, LITE].join(','), auto_ban: 0 });
    await f.channel({ type: 18, base_url: mock.url, key: mock.key, models: PLAIN, other: 'v3.1', auto_ban: 0 });
    key = (await f.token()).key;
    client = f.client(key);
  });

  afterAll(async () => {
    await f.close();
    await mock.close();
  });

  it('opens a signed socket at the model’s version, sends one request frame and bills the last frame’s usage', async () => {
    const signed = mock.verified.length;
    let answer!: OpenAI.Chat.ChatCompletion;
    const c = await charged(async () => {
      answer = await client.chat.completions.create({ model: MAX, messages: ask('hi'), temperature: 0.5, max_tokens: 64, user: 'user-42' });
    });
    expect(answer.choices[0]).toMatchObject({ message: { role: 'assistant', content: 'Hello from the Spark mock.' }, finish_reason: 'stop' });
    expect(answer.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 7 });
    expect(mock.verified.length).toBe(signed + 1);
    expect(lastCall().handshake.path).toBe('/v3.5/chat');
    expect(lastCall().frame).toEqual({
      header: { app_id: mock.appId, uid: 'user-42' },
      parameter: { chat: { domain: 'generalv3.5', temperature: 0.5, max_tokens: 64 } },
      payload: { message: { text: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }] } },
    });
    expect(c.spent).toBe(costOf(MAX, GOOD));
    expect(c.log).toMatchObject({ model_name: MAX, prompt_tokens: 5, completion_tokens: 7, is_stream: 0 });
  });

  it('streams the frames as OpenAI chunks and bills the final usage once', async () => {
    let text = '';
    let pieces = 0;
    let usage: OpenAI.CompletionUsage | undefined;
    const c = await charged(async () => {
      for await (const chunk of await client.chat.completions.create({ model: MAX, messages: ask('hi'), stream: true, stream_options: { include_usage: true } })) {
        const piece = chunk.choices[0]?.delta?.content;
        if (piece) pieces++;
        text += piece ?? '';
        usage = chunk.usage ?? usage;
      }
    });
    expect(text).toBe('Hello from the Spark mock.');
    expect(pieces).toBe(3);
    expect(usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 7 });
    expect(c.spent).toBe(costOf(MAX, GOOD));
    expect(c.log.is_stream).toBe(1);
  });

  it('takes the version from the channel when the model names none, and from ?api-version= above both', async () => {
    await client.chat.completions.create({ model: PLAIN, messages: ask('hi') });
    expect(lastCall().handshake.path).toBe('/v3.1/chat');
    expect(lastCall().frame).toMatchObject({ parameter: { chat: { domain: 'generalv3' } } });
    await client.chat.completions.create({ model: LITE, messages: ask('hi') });
    expect(lastCall().frame).toMatchObject({ parameter: { chat: { domain: 'lite' } } });
    const res = await fetch(`${f.baseUrl}/v1/chat/completions?api-version=v4.0`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MAX, messages: ask('hi') }),
    });
    expect(res.status).toBe(200);
    expect(lastCall().handshake.path).toBe('/v4.0/chat');
    expect(lastCall().frame).toMatchObject({ parameter: { chat: { domain: '4.0Ultra' } } });
  });

  it('offers tools as functions and reads the function call back, whole and streamed', async () => {
    const tools: OpenAI.Chat.ChatCompletionTool[] = [
      { type: 'function', function: { name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
    ];
    const messages = ask('合肥天气 mock-function-call');
    const tokens = { prompt: 93, completion: 18 };
    let whole!: OpenAI.Chat.ChatCompletion;
    const c = await charged(async () => {
      whole = await client.chat.completions.create({ model: MAX, messages, tools });
    });
    expect(whole.choices[0].finish_reason).toBe('tool_calls');
    expect(whole.choices[0].message.tool_calls).toEqual([{ id: expect.stringMatching(/^call_/), type: 'function', function: { name: 'get_weather', arguments: '{"city":"合肥"}' } }]);
    expect(lastCall().frame).toMatchObject({ payload: { functions: { text: [{ name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } }] } } });
    expect(c.spent).toBe(costOf(MAX, tokens));

    let args = '';
    let finish: string | null = null;
    const s = await charged(async () => {
      for await (const chunk of await client.chat.completions.create({ model: MAX, messages, tools, stream: true })) {
        for (const call of chunk.choices[0]?.delta?.tool_calls ?? []) args += call.function?.arguments ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
    });
    expect(JSON.parse(args)).toEqual({ city: '合肥' });
    expect(finish).toBe('tool_calls');
    expect(s.spent).toBe(costOf(MAX, tokens));
  });

  it('counts an answer without usage, whole and streamed', async () => {
    const completion = countTextTokens('Hello from the Spark mock.', MAX);
    for (const stream of [false, true]) {
      const c = await charged(async () => {
        if (!stream) return client.chat.completions.create({ model: MAX, messages: ask('hi mock-no-usage') });
        for await (const chunk of await client.chat.completions.create({ model: MAX, messages: ask('hi mock-no-usage'), stream: true })) void chunk;
      });
      expect(c.log.completion_tokens).toBe(completion);
      expect(c.log.prompt_tokens).toBeGreaterThan(0);
      expect(c.spent).toBe(costOf(MAX, { prompt: c.log.prompt_tokens, completion }));
    }
  });

  it('charges a stream whose socket was cut mid-way for what was delivered; a cut answer read whole is not charged', async () => {
    let text = '';
    const c = await charged(async () => {
      try {
        for await (const chunk of await client.chat.completions.create({ model: MAX, messages: ask('hi mock-cut'), stream: true })) text += chunk.choices[0]?.delta?.content ?? '';
      } catch {
        // the relay ends the stream with an error event
      }
    });
    expect(text).toBe('Hello from');
    expect(c.log.completion_tokens).toBe(countTextTokens('Hello from', MAX));
    expect(c.spent).toBe(costOf(MAX, { prompt: c.log.prompt_tokens, completion: c.log.completion_tokens }));
    expect(c.log.content).toContain('上游中断');
    await free(() => expect(client.chat.completions.create({ model: MAX, messages: ask('hi mock-cut') })).rejects.toMatchObject({ status: 502 }));
  });

  it('ends a stream at an error frame after the first words, billing what was delivered', async () => {
    let text = '';
    let failure: unknown = null;
    const c = await charged(async () => {
      try {
        for await (const chunk of await client.chat.completions.create({ model: MAX, messages: ask('hi mock-output-audit'), stream: true })) text += chunk.choices[0]?.delta?.content ?? '';
      } catch (err) {
        failure = err;
      }
    });
    expect(text).toBe('Hello from');
    expect(String((failure as Error | null)?.message)).toContain('10014');
    expect(c.log.completion_tokens).toBe(countTextTokens('Hello from', MAX));
  });

  it('ends a stream that goes silent after STREAMING_TIMEOUT, billing what was delivered', async () => {
    let text = '';
    const c = await charged(async () => {
      try {
        for await (const chunk of await client.chat.completions.create({ model: MAX, messages: ask('hi mock-stall'), stream: true })) text += chunk.choices[0]?.delta?.content ?? '';
      } catch {
        // the relay ends the stream with an error event
      }
    });
    expect(text).toBe('Hello');
    expect(c.log.completion_tokens).toBe(countTextTokens('Hello', MAX));
    expect(await allClosed(mock)).toBe(0);
  });

  it('answers an error frame that comes first as the refusal it is, whole and streamed, and charges nothing', async () => {
    await free(async () => {
      for (const stream of [false, true]) {
        await expect(client.chat.completions.create({ model: MAX, messages: ask('hi mock-input-audit'), stream })).rejects.toMatchObject({ status: 400, error: { code: '10013' } });
        await expect(client.chat.completions.create({ model: MAX, messages: ask('hi mock-rate-limited'), stream })).rejects.toMatchObject({ status: 429 });
      }
    });
  });

  it('refuses what Spark cannot honour before opening any socket', async () => {
    const before = mock.handshakes.length;
    await free(async () => {
      await expect(client.chat.completions.create({ model: MAX, messages: ask('hi'), stop: ['x'] })).rejects.toMatchObject({ status: 400 });
      await expect(client.chat.completions.create({ model: MAX, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x/y.png' } }] }] })).rejects.toMatchObject({ status: 400 });
    });
    expect(mock.handshakes.length).toBe(before);
  });

  it('closes the socket when the client goes away mid-stream', async () => {
    mock.frameDelayMs = 300;
    try {
      const controller = new AbortController();
      const stream = await client.chat.completions.create({ model: MAX, messages: ask('hi'), stream: true }, { signal: controller.signal });
      try {
        for await (const chunk of stream) {
          if (chunk.choices[0]?.delta?.content) controller.abort();
        }
      } catch {
        // aborted
      }
      expect(await allClosed(mock)).toBe(0);
      // Closed before the stand-in could send its last frame.
      expect(lastCall().sent).toBeLessThan(3);
      await new Promise((r) => setTimeout(r, 700));
      expect(lastCall().sent).toBeLessThan(3);
    } finally {
      mock.frameDelayMs = 1;
    }
  });

  it('serves a Claude Messages client through the canonical shape, whole and streamed, billed exactly', async () => {
    const post = (stream: boolean) =>
      fetch(`${f.baseUrl}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({ model: MAX, max_tokens: 100, system: 'Be brief.', messages: [{ role: 'user', content: 'hi' }], stream }),
      });
    const whole = await expectCharge(MAX, GOOD, costOf(MAX, GOOD), async () => (await (await post(false)).json()) as { content?: Array<{ text?: string }>; usage?: unknown; stop_reason?: string });
    expect(whole.result).toMatchObject({ content: [{ type: 'text', text: 'Hello from the Spark mock.' }], usage: { input_tokens: 5, output_tokens: 7 }, stop_reason: 'end_turn' });
    expect(lastCall().frame).toMatchObject({ parameter: { chat: { max_tokens: 100 } }, payload: { message: { text: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }] } } });

    const streamed = await expectCharge(MAX, GOOD, costOf(MAX, GOOD), async () => (await post(true)).text());
    expect(streamed.result).toContain('event: message_stop');
    expect(streamed.result).toContain('"text":" Spark mock."');
    expect(streamed.result).toContain('"output_tokens":7');
  });

  it('serves a Gemini client streamed and a Responses client whole, billed exactly', async () => {
    const ai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: f.baseUrl } });
    const gemini = await expectCharge(MAX, GOOD, costOf(MAX, GOOD), async () => {
      let out = '';
      for await (const chunk of await ai.models.generateContentStream({ model: MAX, contents: 'hi', config: { systemInstruction: 'Be brief.' } })) out += chunk.text ?? '';
      return out;
    });
    expect(gemini.result).toBe('Hello from the Spark mock.');
    expect(lastCall().frame).toMatchObject({ payload: { message: { text: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }] } } });

    const responses = await expectCharge(MAX, GOOD, costOf(MAX, GOOD), async () => (await client.responses.create({ model: MAX, input: 'hi', store: false })).output_text);
    expect(responses.result).toBe('Hello from the Spark mock.');
  });

  describe('the console and refused keys', () => {
    const get = async <T>(url: string): Promise<T> => (await f.t.call(f.root, { method: 'GET', url })).json();

    it('tests a type-18 channel over the socket and reports a refused key in Spark’s words; lists the default models', async () => {
      expect(await get(`/api/channel/test/${channelId}?model=${MAX}`)).toMatchObject({ success: true, message: '' });
      const bad = await f.channel({ type: 18, base_url: mock.url, key: `${mock.appId}|wrong-secret|${mock.apiKey}`, models: 'spark-console-only', auto_ban: 0 });
      expect(await get(`/api/channel/test/${bad}?model=${MAX}`)).toMatchObject({ success: false, message: 'HMAC signature does not match' });
      const otherApp = await f.channel({ type: 18, base_url: mock.url, key: `other-app|${mock.apiSecret}|${mock.apiKey}`, models: 'spark-console-only', auto_ban: 0 });
      expect(await get(`/api/channel/test/${otherApp}?model=${MAX}`)).toMatchObject({ success: false, message: expect.stringContaining('app_id') });
      const malformed = await f.channel({ type: 18, base_url: mock.url, key: 'only-one-part', models: 'spark-console-only', auto_ban: 0 });
      expect(await get(`/api/channel/test/${malformed}?model=${MAX}`)).toMatchObject({ success: false, message: expect.stringContaining('APPID|APISecret|APIKey') });
      expect(await get(`/api/channel/fetch_models/${channelId}`)).toMatchObject({ success: true, data: [...defaultModels(18)] });
    });

    it('disables a channel whose signature or app Spark refuses, and charges nothing', async () => {
      await f.setOption('AutomaticDisableChannelEnabled', 'true');
      const status = async (id: number) => (await f.t.app.ctx.db.kysely.selectFrom('channels').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
      try {
        const badSecret = await f.channel({ type: 18, base_url: mock.url, key: `${mock.appId}|wrong-secret|${mock.apiKey}`, models: 'spark-bad-secret', auto_ban: 1 });
        const badApp = await f.channel({ type: 18, base_url: mock.url, key: `other-app|${mock.apiSecret}|${mock.apiKey}`, models: 'spark-bad-app', auto_ban: 1 });
        await free(async () => {
          await expect(client.chat.completions.create({ model: 'spark-bad-secret', messages: ask('hi') })).rejects.toMatchObject({ status: 502 });
          await expect(client.chat.completions.create({ model: 'spark-bad-app', messages: ask('hi'), stream: true })).rejects.toMatchObject({ status: 502 });
        });
        // The channels are disabled beside the answers: waited for, not slept on.
        await expect.poll(() => status(badSecret)).toBe(CHANNEL_STATUS.AUTO_DISABLED);
        await expect.poll(() => status(badApp)).toBe(CHANNEL_STATUS.AUTO_DISABLED);
        expect(await status(channelId)).toBe(CHANNEL_STATUS.ENABLED);
      } finally {
        await f.setOption('AutomaticDisableChannelEnabled', 'false');
      }
    });
  });
});
