import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { billing, costOf, setPrices, type Price, type Tokens } from '../test/billing.js';
import { startBaiduMock, type BaiduMock } from '../test/mocks/baidu.js';
import { startZhipuMock, type ZhipuMock } from '../test/mocks/zhipu.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';

/*
 * Upstreams reached with a credential made from the channel key: Zhipu (a JWT signed with the key, v4 and v3) and
 * Baidu ERNIE (an access token exchanged for the key). Claude Messages clients through them, billed by the usage
 * they report; and a key they refuse — at the exchange, in an HTTP status, or in a 200 body — is the channel's
 * credential failure: the caller gets a 502, auto-disable takes the channel out, a retry moves to another channel.
 */

const PRICE: Price = { ratio: 0.6, completion: 2 };
const MODELS = ['ERNIE-3.5-8K', 'ERNIE-tools', 'glm-4-flash', 'chatglm_turbo', 'ernie-bad-key', 'ernie-revoked', 'glm-bad-key', 'chatglm-bad-key', 'ernie-failover', 'ernie-gone'];

describe.each(testDatabases(['sqlite']))('Zhipu and Baidu channels on $name', (database) => {
  let f: RelayFixture;
  let zhipu: ZhipuMock;
  let baidu: BaiduMock;
  let key: string;
  const baiduKey = () => `${Object.keys(baidu.apps)[0]}|${Object.values(baidu.apps)[0]}`;

  const { expectCharge, uncharged } = billing(() => f);
  const expectBill = <T>(model: string, tokens: Tokens, call: () => Promise<T>) => expectCharge(model, tokens, costOf(model, tokens, PRICE), call);
  const sdk = () => new Anthropic({ apiKey: key, baseURL: f.baseUrl, maxRetries: 0, timeout: 20_000 });
  const channelStatus = async (id: number) => (await f.t.app.ctx.db.kysely.selectFrom('channels').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

  /** A Claude Messages call, streamed or not, read whole either way. */
  async function ask(model: string, stream: boolean, extra: Partial<Anthropic.MessageCreateParamsNonStreaming> = {}) {
    const params = { model, max_tokens: 64, messages: [{ role: 'user' as const, content: 'Hello there' }], ...extra };
    if (!stream) return sdk().messages.create(params);
    return sdk().messages.stream(params).finalMessage();
  }

  beforeAll(async () => {
    [zhipu, baidu] = await Promise.all([startZhipuMock(), startBaiduMock()]);
    f = await startRelay(database);
    await setPrices(f, Object.fromEntries(MODELS.map((m) => [m, PRICE])));
    await f.channel({ type: 15, base_url: baidu.url, key: baiduKey(), models: 'ERNIE-3.5-8K,ERNIE-tools', model_mapping: '{"ERNIE-tools":"mock-tool-call"}' });
    await f.channel({ type: 26, base_url: zhipu.url, key: zhipu.keys[0], models: 'glm-4-flash' });
    await f.channel({ type: 16, base_url: zhipu.url, key: zhipu.keys[0], models: 'chatglm_turbo' });
    key = (await f.token()).key;
  });
  afterAll(async () => {
    await f.close();
    await Promise.all([zhipu.close(), baidu.close()]);
  });

  describe('Claude Messages clients', () => {
    it.each([false, true])('Baidu: text with the system prompt apart and max_output_tokens, billed by ERNIE’s usage (stream: %s)', async (stream) => {
      const { result } = await expectBill('ERNIE-3.5-8K', { prompt: 7, completion: 6 }, () => ask('ERNIE-3.5-8K', stream, { system: 'Be brief.' }));
      expect(result).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'Hello from the ERNIE mock.' }], stop_reason: 'end_turn' });
      const sent = baidu.requests.at(-1)!;
      expect(sent.path).toMatch(/\/chat\/completions\?access_token=24\./);
      expect(sent.json).toEqual({ messages: [{ role: 'user', content: 'Hello there' }], system: 'Be brief.', max_output_tokens: 64, ...(stream ? { stream: true } : {}) });
    });

    it('Baidu: a tool_use out, and its tool_result back in as a function turn', async () => {
      const tools = [{ name: 'get_weather', description: 'Weather of a city', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } } }];
      const { result } = await expectBill('ERNIE-tools', { prompt: 118, completion: 31 }, () => ask('ERNIE-tools', false, { tools }));
      expect(result.stop_reason).toBe('tool_use');
      const use = result.content.find((b) => b.type === 'tool_use')!;
      expect(use).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { city: 'Shanghai' } });
      await ask('ERNIE-tools', true, {
        tools,
        messages: [
          { role: 'user', content: 'Weather in Shanghai?' },
          { role: 'assistant', content: result.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: (use as Anthropic.ToolUseBlock).id, content: '21°C' }] },
        ],
      });
      expect((baidu.requests.at(-1)!.json as { messages: unknown[] }).messages).toEqual([
        { role: 'user', content: 'Weather in Shanghai?' },
        { role: 'assistant', content: '', function_call: { name: 'get_weather', arguments: '{"city":"Shanghai"}' } },
        { role: 'function', name: 'get_weather', content: '21°C' },
      ]);
    });

    it.each([false, true])('Zhipu v4 and v3: text billed by the usage Zhipu reports (stream: %s)', async (stream) => {
      const v4 = await expectBill('glm-4-flash', { prompt: 9, completion: 8 }, () => ask('glm-4-flash', stream));
      expect(v4.result.content).toEqual([{ type: 'text', text: 'Hello from the Zhipu GLM mock.' }]);
      const v3 = await expectBill('chatglm_turbo', { prompt: 12, completion: 9 }, () => ask('chatglm_turbo', stream, { system: 'Be brief.' }));
      expect(v3.result.content).toEqual([{ type: 'text', text: 'Hello from the ChatGLM v3 mock.' }]);
      expect(zhipu.requests.at(-1)!.json).toMatchObject({ prompt: [{ role: 'user', content: 'Be brief.\n\nHello there' }] });
    });
  });

  describe('Gemini and Responses clients', () => {
    const gemini = () => new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: f.baseUrl } });

    it.each([false, true])('the Gemini SDK through Baidu, the system instruction as ERNIE’s system (stream: %s)', async (stream) => {
      const params = { model: 'ERNIE-3.5-8K', contents: 'Hello there', config: { systemInstruction: 'Be brief.', maxOutputTokens: 64 } };
      const { result } = await expectBill('ERNIE-3.5-8K', { prompt: 7, completion: 6 }, async () => {
        if (!stream) return (await gemini().models.generateContent(params)).text;
        let text = '';
        for await (const chunk of await gemini().models.generateContentStream(params)) text += chunk.text ?? '';
        return text;
      });
      expect(result).toBe('Hello from the ERNIE mock.');
      expect(baidu.requests.at(-1)!.json).toMatchObject({ system: 'Be brief.', messages: [{ role: 'user', content: 'Hello there' }], max_output_tokens: 64 });
    });

    it.each([false, true])('OpenAI Responses through Zhipu v4 and v3 (stream: %s)', async (stream) => {
      const client = f.client(key);
      for (const [model, text, tokens] of [
        ['glm-4-flash', 'Hello from the Zhipu GLM mock.', { prompt: 9, completion: 8 }],
        ['chatglm_turbo', 'Hello from the ChatGLM v3 mock.', { prompt: 12, completion: 9 }],
      ] as const) {
        const { result } = await expectBill(model, tokens, async () => {
          if (!stream) return (await client.responses.create({ model, input: 'Hello there', instructions: 'Be brief.' })).output_text;
          let out = '';
          for await (const event of await client.responses.create({ model, input: 'Hello there', stream: true })) if (event.type === 'response.output_text.delta') out += event.delta;
          return out;
        });
        expect(result).toBe(text);
      }
    });
  });

  describe('keys the upstream refuses', () => {
    const post = (model: string) =>
      fetch(`${f.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
      });

    it.each([
      ['ernie-bad-key', 15, 'bd-mock-api-key|wrong-secret', 'baidu_token_failed'],
      ['glm-bad-key', 26, 'zp-mock-id.wrong-secret', 'upstream_auth_failed'],
      ['chatglm-bad-key', 16, 'zp-mock-id.wrong-secret', 'upstream_auth_failed'],
    ])('%s: a 502 for the caller, uncharged, and the channel auto-disabled', async (model, type, badKey, code) => {
      await f.setOption('AutomaticDisableChannelEnabled', 'true');
      const id = await f.channel({ type, base_url: type === 15 ? baidu.url : zhipu.url, key: badKey, models: model });
      await uncharged(async () => {
        const res = await post(model);
        expect(res.status).toBe(502);
        const body = (await res.json()) as { error: { code: string; message: string } };
        expect(body.error.code).toBe(code);
        expect(body.error.message).not.toContain('wrong-secret');
      });
      await expect.poll(() => channelStatus(id)).toBe(3);
      await f.setOption('AutomaticDisableChannelEnabled', 'false');
    });

    it('does not disable a Baidu channel whose token was revoked: the next call exchanges the key again', async () => {
      await f.setOption('AutomaticDisableChannelEnabled', 'true');
      const id = await f.channel({ type: 15, base_url: baidu.url, key: baiduKey(), models: 'ernie-revoked', model_mapping: '{"ernie-revoked":"ERNIE-Speed-128K"}' });
      expect((await post('ernie-revoked')).status).toBe(200);
      baidu.revokeAll();
      const exchanges = baidu.exchanges.length;
      expect((await post('ernie-revoked')).status).toBe(503);
      expect((await post('ernie-revoked')).status).toBe(200);
      expect(baidu.exchanges.length).toBe(exchanges + 1);
      expect(await channelStatus(id)).toBe(1);
      await f.setOption('AutomaticDisableChannelEnabled', 'false');
    });

    it('moves on to another channel when the first one’s key is refused at the exchange', async () => {
      await f.channel({ type: 15, base_url: baidu.url, key: 'unknown-app|secret', models: 'ernie-failover', priority: 10, auto_ban: 0 });
      await f.channel({ type: 15, base_url: baidu.url, key: baiduKey(), models: 'ernie-failover', model_mapping: '{"ernie-failover":"ERNIE-3.5-8K"}', priority: 0 });
      await f.setOption('RetryTimes', '1');
      const res = await post('ernie-failover');
      expect(res.status).toBe(200);
      expect(((await res.json()) as { choices: Array<{ message: { content: string } }> }).choices[0].message.content).toBe('Hello from the ERNIE mock.');
      await f.setOption('RetryTimes', '0');
    });

    it('answers a model Qianfan does not serve with a 404 in the caller’s format, uncharged', async () => {
      await f.channel({ type: 15, base_url: baidu.url, key: baiduKey(), models: 'ernie-gone', auto_ban: 0 });
      await uncharged(async () => {
        const res = await post('ernie-gone');
        expect(res.status).toBe(404);
        expect(await res.json()).toMatchObject({ error: { message: 'Unsupported openapi method', code: '3' } });
      });
    });
  });
});
