import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type OpenAI from 'openai';
import { GoogleGenAI } from '@google/genai';
import { CHANNEL_STATUS, defaultModels } from '@switchyard/shared';
import { testDatabases } from '../../../test/databases.js';
import { startRelay, type RelayFixture } from '../../../test/relay-fixture.js';
import { billing, costOf as costAt, setPrices, type Price, type Tokens } from '../../../test/billing.js';
import { startHunyuanMock, type HunyuanMock } from '../../../test/mocks/hunyuan.js';
import { countTextTokens } from '../../tokenizer.js';

/*
 * The OpenAI SDK, the Gemini SDK and a Claude Messages client through a Tencent Hunyuan channel (type 23), against
 * the Hunyuan stand-in, which recomputes every TC3 signature: plain, streamed, tool call, no usage, cut, errors
 * answered with HTTP 200 — each call billed exactly, refusals not at all.
 */

const HY = 'hunyuan-turbo';
const HY_TOOLS = 'hunyuan-turbo-mock-tool-call';
const HY_NO_USAGE = 'hunyuan-turbo-mock-no-usage';
const HY_CUT = 'hunyuan-turbo-mock-cut';
const HY_STREAM_ERROR = 'hunyuan-turbo-mock-stream-error';
const HY_429 = 'hunyuan-turbo-mock-429';
const HY_400 = 'hunyuan-turbo-mock-400';

const PRICES: Record<string, Price> = Object.fromEntries(
  [HY, HY_TOOLS, HY_NO_USAGE, HY_CUT, HY_STREAM_ERROR, HY_429, HY_400].map((m) => [m, { ratio: 1, completion: 3 }]),
);

const costOf = (model: string, t: Tokens) => costAt(model, t, PRICES[model]);

describe.each(testDatabases(['sqlite']))('Tencent Hunyuan channels through the relay on $name', (database) => {
  let f: RelayFixture;
  let mock: HunyuanMock;
  let key: string;
  let client: OpenAI;
  let channelId: number;
  const { charged, free } = billing(() => f);

  beforeAll(async () => {
    mock = await startHunyuanMock();
    f = await startRelay(database);
    await setPrices(f, PRICES);
    channelId = await f.channel({ type: 23, base_url: mock.url, key: mock.key, models: Object.keys(PRICES).join(','), auto_ban: 0 });
    key = (await f.token()).key;
    client = f.client(key);
  });

  afterAll(async () => {
    await f.close();
    await mock.close();
  });

  const lastSent = () => mock.requests.at(-1)!;
  const hi: OpenAI.Chat.ChatCompletionMessageParam[] = [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'hi' },
  ];

  it('sends a signed ChatCompletions call and bills the reported usage', async () => {
    let answer!: OpenAI.Chat.ChatCompletion;
    const signed = mock.verified.length;
    const c = await charged(async () => {
      answer = await client.chat.completions.create({ model: HY, messages: hi, temperature: 0.5, top_p: 1, max_tokens: 64 });
    });
    expect(answer.choices[0]).toMatchObject({ message: { role: 'assistant', content: 'Hello from the Hunyuan mock.' }, finish_reason: 'stop' });
    expect(mock.verified.length).toBe(signed + 1);
    const sent = lastSent();
    expect(sent.headers).toMatchObject({ 'x-tc-action': 'ChatCompletions', 'x-tc-version': '2023-09-01', 'x-tc-region': 'ap-guangzhou' });
    expect(sent.json).toEqual({
      Model: HY,
      Messages: [
        { Role: 'system', Content: 'Be brief.' },
        { Role: 'user', Content: 'hi' },
      ],
      Stream: false,
      Temperature: 0.5,
      TopP: 1,
    });
    expect(c.spent).toBe(costOf(HY, { prompt: 4, completion: 8 }));
    expect(c.log).toMatchObject({ model_name: HY, prompt_tokens: 4, completion_tokens: 8, is_stream: 0 });
  });

  it('streams the Delta frames as OpenAI chunks and bills the final usage once', async () => {
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined;
    const c = await charged(async () => {
      for await (const chunk of await client.chat.completions.create({ model: HY, messages: hi, stream: true, stream_options: { include_usage: true } })) {
        text += chunk.choices[0]?.delta?.content ?? '';
        usage = chunk.usage ?? usage;
      }
    });
    expect(text).toBe('Hello from the Hunyuan mock.');
    expect(usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 8 });
    expect(lastSent().json).toMatchObject({ Stream: true });
    expect(c.spent).toBe(costOf(HY, { prompt: 4, completion: 8 }));
    expect(c.log.is_stream).toBe(1);
  });

  it('converts tools and tool calls both ways, whole and streamed', async () => {
    const tools: OpenAI.Chat.ChatCompletionTool[] = [
      { type: 'function', function: { name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
    ];
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: '深圳天气' }];
    let whole!: OpenAI.Chat.ChatCompletion;
    const c = await charged(async () => {
      whole = await client.chat.completions.create({ model: HY_TOOLS, messages, tools, tool_choice: { type: 'function', function: { name: 'get_weather' } } });
    });
    expect(whole.choices[0].finish_reason).toBe('tool_calls');
    expect(whole.choices[0].message.tool_calls).toEqual([{ id: 'call_cq3sa9b2c3m0mdk7nrqg', type: 'function', function: { name: 'get_weather', arguments: '{"city":"深圳"}' } }]);
    const tool = { Type: 'function', Function: { Name: 'get_weather', Description: 'Weather of a city', Parameters: '{"type":"object","properties":{"city":{"type":"string"}}}' } };
    expect(lastSent().json).toMatchObject({ Tools: [tool], ToolChoice: 'custom', CustomTool: tool });
    expect(c.spent).toBe(costOf(HY_TOOLS, { prompt: 128, completion: 19 }));

    let args = '';
    let finish: string | null = null;
    const s = await charged(async () => {
      for await (const chunk of await client.chat.completions.create({ model: HY_TOOLS, messages, tools, stream: true })) {
        for (const call of chunk.choices[0]?.delta?.tool_calls ?? []) args += call.function?.arguments ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
    });
    expect(JSON.parse(args)).toEqual({ city: '深圳' });
    expect(finish).toBe('tool_calls');
    expect(s.spent).toBe(costOf(HY_TOOLS, { prompt: 128, completion: 19 }));

    // The call's result goes back as a tool turn with its id.
    await client.chat.completions.create({
      model: HY,
      messages: [...messages, whole.choices[0].message, { role: 'tool', tool_call_id: 'call_cq3sa9b2c3m0mdk7nrqg', content: '晴，25 度' }],
      tools,
    });
    expect((lastSent().json!.Messages as unknown[]).slice(1)).toEqual([
      { Role: 'assistant', Content: '', ToolCalls: [{ Id: 'call_cq3sa9b2c3m0mdk7nrqg', Type: 'function', Function: { Name: 'get_weather', Arguments: '{"city":"深圳"}' } }] },
      { Role: 'tool', Content: '晴，25 度', ToolCallId: 'call_cq3sa9b2c3m0mdk7nrqg' },
    ]);
  });

  it('counts an answer without usage, whole and streamed', async () => {
    const completion = countTextTokens('Hello from the Hunyuan mock.', HY_NO_USAGE);
    for (const stream of [false, true]) {
      const c = await charged(async () => {
        if (!stream) return client.chat.completions.create({ model: HY_NO_USAGE, messages: hi });
        for await (const chunk of await client.chat.completions.create({ model: HY_NO_USAGE, messages: hi, stream: true })) void chunk;
      });
      expect(c.log.completion_tokens).toBe(completion);
      expect(c.log.prompt_tokens).toBeGreaterThan(0);
      expect(c.spent).toBe(costOf(HY_NO_USAGE, { prompt: c.log.prompt_tokens, completion }));
    }
  });

  it('charges a stream cut mid-way for what was delivered, with the prompt tokens Hunyuan had counted', async () => {
    let text = '';
    const c = await charged(async () => {
      try {
        for await (const chunk of await client.chat.completions.create({ model: HY_CUT, messages: hi, stream: true })) text += chunk.choices[0]?.delta?.content ?? '';
      } catch {
        // the relay ends the stream with an error event
      }
    });
    expect(text).toBe('Hello from');
    expect(c.log).toMatchObject({ prompt_tokens: 4, completion_tokens: countTextTokens('Hello from', HY_CUT) });
    expect(c.spent).toBe(costOf(HY_CUT, { prompt: 4, completion: c.log.completion_tokens }));
    expect(c.log.content).toContain('上游中断');
  });

  it('ends a stream whose generation failed with an error event, billing what was delivered', async () => {
    let text = '';
    let failure: unknown = null;
    const c = await charged(async () => {
      try {
        for await (const chunk of await client.chat.completions.create({ model: HY_STREAM_ERROR, messages: hi, stream: true })) text += chunk.choices[0]?.delta?.content ?? '';
      } catch (err) {
        failure = err;
      }
    });
    expect(text).toBe('Hello from');
    expect(String((failure as Error | null)?.message)).toContain('请求模型超时');
    expect(c.log.completion_tokens).toBe(countTextTokens('Hello from', HY_STREAM_ERROR));
  });

  it('reads errors answered with HTTP 200 as the refusals they are, whole and streamed, and charges nothing', async () => {
    await free(async () => {
      await expect(client.chat.completions.create({ model: HY_429, messages: hi })).rejects.toMatchObject({ status: 429 });
      await expect(client.chat.completions.create({ model: HY_400, messages: hi })).rejects.toMatchObject({ status: 400, error: { code: 'InvalidParameter' } });
      await expect(client.chat.completions.create({ model: HY_400, messages: hi, stream: true })).rejects.toMatchObject({ status: 400, error: { code: 'InvalidParameter' } });
    });
  });

  it('refuses what Hunyuan cannot honour before signing anything', async () => {
    const before = mock.requests.length;
    await free(() => expect(client.chat.completions.create({ model: HY, messages: hi, n: 2 })).rejects.toMatchObject({ status: 400 }));
    expect(mock.requests.length).toBe(before);
  });

  it('serves a Gemini client and a Claude client through the canonical shape, billed exactly', async () => {
    const ai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: f.baseUrl } });
    let out = '';
    const g = await charged(async () => {
      out = (await ai.models.generateContent({ model: HY, contents: 'Say hi', config: { systemInstruction: 'Be brief.' } })).text ?? '';
    });
    expect(out).toBe('Hello from the Hunyuan mock.');
    expect(lastSent().json).toMatchObject({ Messages: [{ Role: 'system', Content: 'Be brief.' }, { Role: 'user', Content: 'Say hi' }] });
    expect(g.spent).toBe(costOf(HY, { prompt: 4, completion: 8 }));

    let streamed = '';
    const gs = await charged(async () => {
      for await (const chunk of await ai.models.generateContentStream({ model: HY, contents: 'Say hi' })) streamed += chunk.text ?? '';
    });
    expect(streamed).toBe('Hello from the Hunyuan mock.');
    expect(gs.spent).toBe(costOf(HY, { prompt: 4, completion: 8 }));

    let claude: { content?: Array<{ text?: string }>; usage?: unknown } = {};
    const cl = await charged(async () => {
      const res = await fetch(`${f.baseUrl}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({ model: HY, max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }),
      });
      claude = (await res.json()) as typeof claude;
    });
    expect(claude.content?.[0]?.text).toBe('Hello from the Hunyuan mock.');
    expect(claude.usage).toMatchObject({ input_tokens: 4, output_tokens: 8 });
    expect(cl.spent).toBe(costOf(HY, { prompt: 4, completion: 8 }));
  });

  it('serves a Responses client, whole and streamed, billed exactly', async () => {
    const post = (body: Record<string, unknown>) =>
      fetch(`${f.baseUrl}/v1/responses`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    let whole: { output?: Array<{ content?: Array<{ text?: string }> }>; usage?: unknown } = {};
    const c = await charged(async () => {
      whole = (await (await post({ model: HY, input: 'hi', instructions: 'Be brief.', store: false })).json()) as typeof whole;
    });
    expect(whole.output?.[0]?.content?.[0]?.text).toBe('Hello from the Hunyuan mock.');
    expect(whole.usage).toMatchObject({ input_tokens: 4, output_tokens: 8 });
    expect(lastSent().json).toMatchObject({ Messages: [{ Role: 'system', Content: 'Be brief.' }, { Role: 'user', Content: 'hi' }] });
    expect(c.spent).toBe(costOf(HY, { prompt: 4, completion: 8 }));

    let events = '';
    const s = await charged(async () => {
      events = await (await post({ model: HY, input: 'hi', stream: true, store: false })).text();
    });
    expect(events).toContain('event: response.completed');
    expect(events).toContain('"delta":" mock."');
    expect(s.spent).toBe(costOf(HY, { prompt: 4, completion: 8 }));
  });

  describe('the console and a refused key', () => {
    const get = async <T>(url: string): Promise<T> => (await f.t.call(f.root, { method: 'GET', url })).json();

    it('tests a channel with a signed call and reports a wrong secret in Tencent’s words; lists the default models', async () => {
      expect(await get(`/api/channel/test/${channelId}?model=${HY}`)).toMatchObject({ success: true, message: '' });
      const bad = await f.channel({ type: 23, base_url: mock.url, key: `${mock.appId}|${mock.secretId}|wrong-secret`, models: 'hunyuan-console-only', auto_ban: 0 });
      expect(await get(`/api/channel/test/${bad}?model=${HY}`)).toMatchObject({ success: false, message: '请求签名验证失败，请检查您的签名计算是否正确' });
      const malformed = await f.channel({ type: 23, base_url: mock.url, key: 'only-one-part', models: 'hunyuan-console-only', auto_ban: 0 });
      expect(await get(`/api/channel/test/${malformed}?model=${HY}`)).toMatchObject({ success: false, message: expect.stringContaining('AppId|SecretId|SecretKey') });
      expect(await get(`/api/channel/fetch_models/${channelId}`)).toMatchObject({ success: true, data: [...defaultModels(23)] });
    });

    it('disables a channel whose SecretId Tencent does not know, and charges nothing', async () => {
      await f.setOption('AutomaticDisableChannelEnabled', 'true');
      try {
        const model = 'hunyuan-bad-key';
        await f.setOption('ModelRatio', JSON.stringify({ ...Object.fromEntries(Object.keys(PRICES).map((m) => [m, 1])), [model]: 1 }));
        const bad = await f.channel({ type: 23, base_url: mock.url, key: `${mock.appId}|AKIDunknown|${mock.secretKey}`, models: model, auto_ban: 1 });
        await free(() => expect(client.chat.completions.create({ model, messages: hi })).rejects.toMatchObject({ status: 502 }));
        const status = async (id: number) => (await f.t.app.ctx.db.kysely.selectFrom('channels').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
        // The channel is disabled beside the answer: waited for, not slept on.
        await expect.poll(() => status(bad)).toBe(CHANNEL_STATUS.AUTO_DISABLED);
        expect(await status(channelId)).toBe(CHANNEL_STATUS.ENABLED);
      } finally {
        await f.setOption('AutomaticDisableChannelEnabled', 'false');
      }
    });
  });
});
