import { readFileSync } from 'node:fs';
import http from 'node:http';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { DEFAULT_CHUNKS, MOCK_USAGE, startMockOpenAI, type MockOpenAI } from '../test/mock-openai.js';
import { CLAUDE_MOCK_KEY, startClaudeMock, type ClaudeMock } from '../test/mocks/claude.js';
import { GEMINI_MOCK_KEY, startGeminiMock, type GeminiMock } from '../test/mocks/gemini.js';
import { COMPACT_USAGE, startResponsesMock, type ResponsesMock } from '../test/mocks/openai-responses.js';
import { COMPACTION_REQUEST, compactedSummary } from './formats/responses/compaction.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';
import { billing, costOf as costAt, setPrices, type Price, type Tokens } from '../test/billing.js';
import { countTextTokens } from './tokenizer.js';

/*
 * The official openai SDK's Responses API (responses.create and responses.stream) against Switchyard's
 * /v1/responses: passed through byte for byte to an OpenAI channel, which serves the Responses API itself, and
 * converted through the canonical chat shape for a custom OpenAI-compatible channel (chat only) and a Claude channel.
 * Every call's bill is checked against the formula for the usage the upstream reported.
 */

/** Passthrough (type 1, the Responses mock): the case is the model name after "mock-". */
const RESP = 'gpt-4.1-mini';
const RESP_TOOL = 'mock-tool-call';
const RESP_CACHED = 'mock-cached';
const RESP_NO_USAGE = 'mock-no-usage';
const RESP_CUT = 'mock-cut';
const RESP_BAD = 'mock-bad-request';
const RESP_LIMITED = 'mock-rate-limited';
/** Converted, custom OpenAI-compatible channel (type 8, chat only). */
const CHAT = 'gpt-4o-compat';
/** Converted, Claude channel (type 14). */
const CLAUDE = 'claude-haiku-4-5';
const CLAUDE_TOOL = 'claude-mock-tool-use';
const CLAUDE_CACHE = 'claude-mock-cache-usage';
const CLAUDE_THINKING = 'claude-mock-thinking-tool-use';
/** Converted, Gemini channel (type 24): a function call that carries a thought signature. */
const GEMINI_CALL = 'gemini-mock-function-call';

const PRICES: Record<string, Price> = {
  [RESP]: { ratio: 0.2, completion: 4 },
  [RESP_TOOL]: { ratio: 0.2, completion: 4 },
  [RESP_CACHED]: { ratio: 0.2, completion: 4, cache: 0.25 },
  [RESP_NO_USAGE]: { ratio: 0.2, completion: 4 },
  [RESP_CUT]: { ratio: 0.2, completion: 4 },
  [RESP_BAD]: { ratio: 0.2, completion: 4 },
  [RESP_LIMITED]: { ratio: 0.2, completion: 4 },
  [CHAT]: { ratio: 1.25, completion: 4 },
  [CLAUDE]: { ratio: 1.5, completion: 5 },
  [CLAUDE_TOOL]: { ratio: 1.5, completion: 5 },
  [CLAUDE_CACHE]: { ratio: 1.5, completion: 5 },
  [CLAUDE_THINKING]: { ratio: 1.5, completion: 5 },
  [GEMINI_CALL]: { ratio: 0.5, completion: 4 },
};

/** Cache-read ratios the bills must use: the CacheRatio option, else the family's built-in one (Claude: 0.1). */
const cacheRatioOf = (model: string): number => PRICES[model].cache ?? (model.startsWith('claude') ? 0.1 : 1);

const costOf = (model: string, t: Tokens): number => costAt(model, t, PRICES[model], cacheRatioOf(model));

const fixture = (name: string): string => readFileSync(new URL(`../test/fixtures/openai-responses/responses/${name}`, import.meta.url), 'utf8');

const weatherTool: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'get_weather',
  description: 'Weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string' } }, required: ['city'], additionalProperties: false },
  strict: false,
};

describe.each(testDatabases(['sqlite']))('the Responses API on $name', (database) => {
  let f: RelayFixture;
  let responses: ResponsesMock;
  let chat: MockOpenAI;
  let claude: ClaudeMock;
  let gemini: GeminiMock;
  let client: OpenAI;
  /** Bodies the SDK put on the wire, in order. */
  const sent: string[] = [];

  const { quotaOf, lastLog, settled, expectCharge, uncharged } = billing(() => f);
  /** Runs a call and checks what it cost: the user's quota drop and its consume log both equal the formula. */
  const expectBill = <T>(model: string, tokens: Tokens, call: () => Promise<T>) => expectCharge(model, tokens, costOf(model, tokens), call);

  /** An API error the call failed with, and proof that nothing was charged. */
  async function expectRefusal(call: () => Promise<unknown>) {
    const err = (await uncharged(call)) as InstanceType<typeof OpenAI.APIError>;
    expect(err).toBeInstanceOf(OpenAI.APIError);
    return err;
  }

  beforeAll(async () => {
    [responses, chat, claude, gemini] = await Promise.all([startResponsesMock(), startMockOpenAI(), startClaudeMock(), startGeminiMock()]);
    f = await startRelay(database);
    await setPrices(f, PRICES);
    const passthrough = [RESP, RESP_TOOL, RESP_CACHED, RESP_NO_USAGE, RESP_CUT, RESP_BAD, RESP_LIMITED];
    await f.channel({ type: 1, base_url: responses.url, key: responses.key, models: passthrough.join(','), auto_ban: 0 });
    await f.channel({ type: 8, base_url: chat.url, key: chat.key, models: CHAT, auto_ban: 0 });
    await f.channel({ type: 14, base_url: claude.url, key: CLAUDE_MOCK_KEY, models: [CLAUDE, CLAUDE_TOOL, CLAUDE_CACHE, CLAUDE_THINKING].join(','), auto_ban: 0 });
    await f.channel({ type: 24, base_url: gemini.url, key: GEMINI_MOCK_KEY, models: GEMINI_CALL, auto_ban: 0 });
    const { key } = await f.token();
    client = new OpenAI({
      apiKey: key,
      baseURL: `${f.baseUrl}/v1`,
      maxRetries: 0,
      timeout: 20_000,
      fetch: (url: string | URL | Request, init?: RequestInit) => {
        if (typeof init?.body === 'string') sent.push(init.body);
        return fetch(url, init);
      },
    });
  });

  afterAll(async () => {
    await f.close();
    await Promise.all([responses, chat, claude, gemini].map((m) => m.close()));
  });

  describe('OpenAI channel (passthrough)', () => {
    const upstream = () => responses.requests.at(-1)!;

    it('sends the SDK body upstream byte for byte, returns the answer unchanged and bills its usage', async () => {
      const { result } = await expectBill(RESP, { prompt: 37, completion: 11 }, async () => {
        const res = await client.responses.create({ model: RESP, input: 'Say hello', instructions: 'Be brief.' }).asResponse();
        return { status: res.status, text: await res.text() };
      });
      expect(upstream().path).toBe('/v1/responses');
      expect(upstream().headers.authorization).toBe(`Bearer ${responses.key}`);
      expect(upstream().body.toString('utf8')).toBe(sent.at(-1));
      expect(result.status).toBe(200);
      expect(result.text).toBe(fixture('good.json'));
    });

    it('compacts on the channel\'s own compact endpoint with the request as sent, answer unchanged, usage billed', async () => {
      const input = [
        { role: 'user' as const, content: 'Fix the failing test.' },
        { role: 'assistant' as const, content: 'Done: the date was off by one.' },
        { role: 'user' as const, content: 'Now the docs.' },
      ];
      const { result } = await expectBill(RESP, { prompt: COMPACT_USAGE.input_tokens, completion: COMPACT_USAGE.output_tokens }, () =>
        client.responses.compact({ model: RESP, input, instructions: 'You are a coding agent.' }),
      );
      expect(upstream().path).toBe('/v1/responses/compact');
      expect(upstream().json).toEqual(JSON.parse(sent.at(-1)!));
      expect(result).toMatchObject({ object: 'response.compaction', usage: COMPACT_USAGE });
      expect(result.output.map((item) => item.type)).toEqual(['message', 'message', 'compaction']);
      expect(result.output.at(-1)).toMatchObject({ encrypted_content: 'gAAAAB-openai-sealed-summary' });
    });

    it('streams the upstream events through unchanged and bills the usage of response.completed', async () => {
      const { result } = await expectBill(RESP, { prompt: 37, completion: 11 }, async () => {
        const res = await client.responses.create({ model: RESP, input: 'Say hello', stream: true }).asResponse();
        return { type: res.headers.get('content-type'), text: await res.text() };
      });
      expect(upstream().body.toString('utf8')).toBe(sent.at(-1));
      expect(result.type).toMatch(/^text\/event-stream/);
      expect(result.text).toBe(fixture('good.sse'));
      expect(await lastLog()).toMatchObject({ is_stream: 1 });

      const { result: final } = await expectBill(RESP, { prompt: 37, completion: 11 }, () => client.responses.stream({ model: RESP, input: 'Say hello' }).finalResponse());
      expect(final.output_text).toBe('Hello from the mock Responses upstream.');
    });

    it('passes a function call through, streamed and not', async () => {
      const params = { model: RESP_TOOL, input: 'Weather in Paris?', tools: [weatherTool] };
      const { result } = await expectBill(RESP_TOOL, { prompt: 64, completion: 18 }, () => client.responses.create(params));
      expect(result.output[0]).toMatchObject({ type: 'function_call', call_id: 'call_Qx7f2Lm9', name: 'get_weather', arguments: '{"city":"Paris"}' });
      const { result: final } = await expectBill(RESP_TOOL, { prompt: 64, completion: 18 }, () => client.responses.stream(params).finalResponse());
      expect(final.output[0]).toMatchObject({ type: 'function_call', call_id: 'call_Qx7f2Lm9', arguments: '{"city":"Paris"}' });
    });

    it('bills cached input tokens at the CacheRatio', async () => {
      const { result, other } = await expectBill(RESP_CACHED, { prompt: 2048, completion: 120, cached: 1920 }, () => client.responses.create({ model: RESP_CACHED, input: 'hi' }));
      expect(result.usage?.input_tokens_details.cached_tokens).toBe(1920);
      expect(other).toMatchObject({ cache_ratio: 0.25, cache_tokens: 1920 });
    });

    it('counts the tokens of a stream itself when the upstream reports no usage', async () => {
      await f.flush();
      const before = await quotaOf();
      const text = (await client.responses.stream({ model: RESP_NO_USAGE, input: 'Say hello' }).finalResponse()).output_text;
      expect(text).toBe('Hello from the mock Responses upstream.');
      await settled();
      const log = await lastLog();
      expect(log).toMatchObject({ model_name: RESP_NO_USAGE, is_stream: 1, completion_tokens: countTextTokens(text, RESP_NO_USAGE) });
      expect(log.prompt_tokens).toBeGreaterThan(0);
      expect(log.quota).toBe(costOf(RESP_NO_USAGE, { prompt: log.prompt_tokens, completion: log.completion_tokens }));
      expect(before - (await quotaOf())).toBe(log.quota);
      expect(log.content).toContain('上游未返回用量，本地计算');
    });

    it('passes a cut stream through as far as its whole events go, ends it with an error event and bills the output delivered', async () => {
      await f.flush();
      const before = await quotaOf();
      const res = await client.responses.create({ model: RESP_CUT, input: 'Say hello', stream: true }).asResponse();
      const text = await res.text();
      const errorAt = text.lastIndexOf('event: error\n');
      expect(errorAt).toBeGreaterThan(0);
      expect(fixture('cut.sse').startsWith(text.slice(0, errorAt))).toBe(true);
      expect(text.slice(errorAt)).toMatch(/^event: error\ndata: \{"type":"error","code":"server_error","message":"上游连接中断"/);
      expect(text).not.toContain('response.completed');
      await settled();
      const log = await lastLog();
      expect(log).toMatchObject({ model_name: RESP_CUT, is_stream: 1, completion_tokens: countTextTokens('Hello from the', RESP_CUT) });
      expect(log.content).toContain('上游中断');
      expect(log.quota).toBe(costOf(RESP_CUT, { prompt: log.prompt_tokens, completion: log.completion_tokens }));
      expect(before - (await quotaOf())).toBe(log.quota);

      await expect(client.responses.stream({ model: RESP_CUT, input: 'Say hello' }).finalResponse()).rejects.toThrow('上游连接中断');
    });

    it('counts a whole answer itself, output included, when the upstream reports no usage', async () => {
      await f.flush();
      const before = await quotaOf();
      const text = (await client.responses.create({ model: RESP_NO_USAGE, input: 'Say hello' })).output_text;
      expect(text.length).toBeGreaterThan(0);
      await settled();
      const log = await lastLog();
      expect(log).toMatchObject({ model_name: RESP_NO_USAGE, is_stream: 0, completion_tokens: countTextTokens(text, RESP_NO_USAGE) });
      expect(log.content).toContain('上游未返回用量，本地计算');
      expect(before - (await quotaOf())).toBe(log.quota);
    });

    it('passes hosted tools through to a channel that serves the Responses API itself', async () => {
      const result = await client.responses.create({ model: RESP, input: 'Search the news', tools: [{ type: 'web_search' }] } as never);
      expect((result as { output_text: string }).output_text).toBe('Hello from the mock Responses upstream.');
      expect(JSON.parse(upstream().body.toString('utf8')).tools).toEqual([{ type: 'web_search' }]);
    });

    it.each([
      [RESP_BAD, 400, 'invalid_value'],
      [RESP_LIMITED, 429, 'rate_limit_exceeded'],
    ])('answers an upstream failure (%s) in OpenAI’s error shape with status %i', async (model, status, code) => {
      const err = await expectRefusal(() => client.responses.create({ model, input: 'hi' }));
      expect(err.status).toBe(status);
      expect(err.error).toMatchObject({ message: expect.any(String), code });
    });

  });

  describe('custom OpenAI-compatible channel (converted to chat)', () => {
    const upstream = () => chat.requests.at(-1)!;
    const mockText = DEFAULT_CHUNKS.join('');
    const usage = { prompt: MOCK_USAGE.prompt_tokens, completion: MOCK_USAGE.completion_tokens };

    it('sends instructions and input as chat messages and answers a Response with the usage billed', async () => {
      const { result } = await expectBill(CHAT, usage, () =>
        client.responses.create({ model: CHAT, input: 'Say hello', instructions: 'Be brief.', max_output_tokens: 64, temperature: 0.3 }),
      );
      expect(upstream().path).toBe('/v1/chat/completions');
      expect(upstream().json).toMatchObject({
        model: CHAT,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Say hello' },
        ],
        max_tokens: 64,
        temperature: 0.3,
      });
      expect(result).toMatchObject({ object: 'response', status: 'completed', model: CHAT, instructions: 'Be brief.', temperature: 0.3 });
      expect(result.id).toMatch(/^resp_/);
      expect(result.output_text).toBe(mockText);
      expect(result.usage).toMatchObject({ input_tokens: usage.prompt, output_tokens: usage.completion, total_tokens: usage.prompt + usage.completion });
    });

    it('streams the Responses events, asking the upstream for usage, and bills it', async () => {
      const { result } = await expectBill(CHAT, usage, async () => {
        const types: string[] = [];
        const stream = client.responses.stream({ model: CHAT, input: 'Say hello', instructions: 'Be brief.' });
        stream.on('event', (e) => types.push(e.type));
        return { types, final: await stream.finalResponse() };
      });
      expect(upstream().json).toMatchObject({ stream: true, stream_options: { include_usage: true } });
      expect(result.final.output_text).toBe(mockText);
      expect(result.final.usage).toMatchObject({ input_tokens: usage.prompt, output_tokens: usage.completion });
      expect(result.types.slice(0, 2)).toEqual(['response.created', 'response.in_progress']);
      expect(result.types).toContain('response.output_text.delta');
      expect(result.types.at(-1)).toBe('response.completed');
    });

    it('sends a function_call and its function_call_output back as an assistant tool call and a tool message', async () => {
      const response = await client.responses.create({
        model: CHAT,
        tools: [weatherTool],
        input: [
          { role: 'user', content: 'Weather in Paris?' },
          { type: 'function_call', call_id: 'call_weather_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { type: 'function_call_output', call_id: 'call_weather_1', output: '18°C, sunny' },
        ],
      });
      expect(response.output_text).toBe(mockText);
      const sentJson = upstream().json!;
      expect(sentJson.tools).toEqual([{ type: 'function', function: { name: 'get_weather', description: 'Weather of a city', parameters: weatherTool.parameters, strict: false } }]);
      expect(sentJson.messages).toEqual([
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_weather_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'call_weather_1', content: '18°C, sunny' },
      ]);
    });

    it('counts the tokens itself when the upstream reports no usage, streamed and not', async () => {
      for (const stream of [false, true]) {
        chat.queue.push({ omitUsage: true });
        const text = stream
          ? (await client.responses.stream({ model: CHAT, input: 'Say hello' }).finalResponse()).output_text
          : (await client.responses.create({ model: CHAT, input: 'Say hello' })).output_text;
        expect(text).toBe(mockText);
        await settled();
        const log = await lastLog();
        expect(log).toMatchObject({ model_name: CHAT, is_stream: stream ? 1 : 0, completion_tokens: countTextTokens(mockText, CHAT) });
        expect(log.prompt_tokens).toBeGreaterThan(0);
        expect(log.quota).toBe(costOf(CHAT, { prompt: log.prompt_tokens, completion: log.completion_tokens }));
        expect(log.content).toContain('上游未返回用量，本地计算');
      }
    });

    it('fails the SDK stream with the error event when the upstream breaks off, billing what was delivered', async () => {
      chat.queue.push({ cutAfter: 3 });
      await f.flush();
      const before = await quotaOf();
      const events: string[] = [];
      const stream = client.responses.stream({ model: CHAT, input: 'Say hello' });
      stream.on('event', (e) => events.push(e.type));
      await expect(stream.finalResponse()).rejects.toThrow('上游连接中断');
      expect(events).toContain('response.output_text.delta');
      await settled();
      const log = await lastLog();
      expect(log).toMatchObject({ model_name: CHAT, is_stream: 1, completion_tokens: countTextTokens(DEFAULT_CHUNKS.slice(0, 3).join(''), CHAT) });
      expect(log.content).toContain('上游中断');
      expect(before - (await quotaOf())).toBe(log.quota);
    });

    it('answers an upstream failure in OpenAI’s error shape without charging', async () => {
      chat.queue.push({ fail: { status: 400, message: 'Invalid value for temperature', code: 'invalid_value' } });
      const err = await expectRefusal(() => client.responses.create({ model: CHAT, input: 'hi' }));
      expect(err.status).toBe(400);
      expect(err.error).toMatchObject({ message: 'Invalid value for temperature', code: 'invalid_value' });
    });

    it.each([
      ['web_search_preview', { type: 'web_search_preview' as const }],
      ['file_search', { type: 'file_search' as const, vector_store_ids: ['vs_1'] }],
    ])('leaves a hosted tool (%s) it cannot run out of the offer, and names it', async (_name, tool) => {
      const { response } = await client.responses.create({ model: CHAT, input: 'hi', tools: [tool] }).withResponse();
      expect(response.headers.get('x-switchyard-dropped')).toBe(`tools[].type=${tool.type}`);
      expect(chat.requests.at(-1)!.json).not.toHaveProperty('tools');
    });

    it('refuses a hosted tool that tool_choice forces with a 400, without calling the upstream', async () => {
      const calls = chat.requests.length;
      const err = await expectRefusal(() => client.responses.create({ model: CHAT, input: 'hi', tools: [{ type: 'web_search_preview' }], tool_choice: { type: 'web_search_preview' } }));
      expect(err.status).toBe(400);
      expect(err.error).toMatchObject({ type: 'invalid_request_error', message: expect.stringContaining('web_search_preview') });
      expect(chat.requests.length).toBe(calls);
    });
  });

  describe('Claude channel (converted to Messages)', () => {
    const upstream = () => claude.requests.at(-1)!;

    it('sends instructions as the system prompt and answers a Response with the usage billed', async () => {
      const { result } = await expectBill(CLAUDE, { prompt: 21, completion: 9 }, () =>
        client.responses.create({ model: CLAUDE, input: 'Say hello', instructions: 'Be brief.', max_output_tokens: 128 }),
      );
      expect(upstream().path).toBe('/v1/messages');
      const body = upstream().json!;
      expect(body).toMatchObject({ model: CLAUDE, max_tokens: 128, messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello' }] }] });
      expect(JSON.stringify(body.system)).toContain('Be brief.');
      expect(result).toMatchObject({ object: 'response', status: 'completed', instructions: 'Be brief.' });
      expect(result.output_text).toBe('Hello from the Claude mock.');
      expect(result.usage).toMatchObject({ input_tokens: 21, output_tokens: 9 });
    });

    it('compacts through the model: a summary asked for without tools, answered as the compact endpoint answers', async () => {
      const input = [
        { role: 'user' as const, content: 'Fix the failing test.' },
        { role: 'assistant' as const, content: 'Done: the date was off by one.' },
        { role: 'user' as const, content: [{ type: 'input_text' as const, text: 'Now the docs.' }] },
      ];
      const { result } = await expectBill(CLAUDE, { prompt: 21, completion: 9 }, () => client.responses.compact({ model: CLAUDE, input }));
      const body = upstream().json!;
      expect(upstream().path).toBe('/v1/messages');
      expect(body.tools).toBeUndefined();
      expect(JSON.stringify((body.messages as unknown[]).at(-1))).toContain(COMPACTION_REQUEST.slice(0, 40));
      expect(result).toMatchObject({ object: 'response.compaction', usage: { input_tokens: 21, output_tokens: 9 } });
      expect(result.output.slice(0, 2)).toEqual([
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Fix the failing test.' }] },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Now the docs.' }] },
      ]);
      const item = result.output[2] as { type: string; encrypted_content: string };
      expect(item.type).toBe('compaction');
      expect(compactedSummary(item)).toBe('Hello from the Claude mock.');
      // The next turn goes on from it: the summary reaches the model as a user message.
      await client.responses.create({ model: CLAUDE, input: [...(result.output as never[]), { role: 'user', content: 'Go on.' }], max_output_tokens: 64 });
      expect(JSON.stringify(upstream().json!.messages)).toContain('Hello from the Claude mock.');
    });

    it('streams the answer as Responses events and bills the usage', async () => {
      const { result } = await expectBill(CLAUDE, { prompt: 21, completion: 9 }, () =>
        client.responses.stream({ model: CLAUDE, input: 'Say hello', max_output_tokens: 128 }).finalResponse(),
      );
      expect(upstream().json).toMatchObject({ stream: true });
      expect(result.output_text).toBe('Hello from the Claude mock.');
      expect(result.usage).toMatchObject({ input_tokens: 21, output_tokens: 9 });
    });

    it('round-trips a function call: tool_use out as function_call, function_call_output back as tool_result', async () => {
      const params = { model: CLAUDE_TOOL, tools: [weatherTool], max_output_tokens: 256 };
      const { result: first } = await expectBill(CLAUDE_TOOL, { prompt: 380, completion: 58 }, () => client.responses.create({ ...params, input: 'Weather in Paris?' }));
      expect(upstream().json!.tools).toEqual([{ name: 'get_weather', description: 'Weather of a city', input_schema: weatherTool.parameters }]);
      const call = first.output.find((o) => o.type === 'function_call');
      expect(call).toMatchObject({ type: 'function_call', call_id: 'toolu_01MockWeather00000000000', name: 'get_weather' });
      expect(JSON.parse(call!.arguments)).toEqual({ city: 'Paris', unit: 'celsius' });
      expect(first.output_text).toBe("I'll look up the weather in Paris.");

      await client.responses.create({
        ...params,
        input: [
          { role: 'user', content: 'Weather in Paris?' },
          ...first.output,
          { type: 'function_call_output', call_id: call!.call_id, output: '18°C, sunny' },
        ] as OpenAI.Responses.ResponseInput,
      });
      const messages = upstream().json!.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
      expect(messages[1].content).toContainEqual({ type: 'tool_use', id: call!.call_id, name: 'get_weather', input: { city: 'Paris', unit: 'celsius' } });
      expect(messages[2].content[0]).toMatchObject({ type: 'tool_result', tool_use_id: call!.call_id });
      expect(JSON.stringify(messages[2].content[0])).toContain('18°C, sunny');
    });

    it('streams a function call with its arguments in pieces', async () => {
      const { result } = await expectBill(CLAUDE_TOOL, { prompt: 380, completion: 58 }, async () => {
        const deltas: string[] = [];
        const stream = client.responses.stream({ model: CLAUDE_TOOL, input: 'Weather in Paris?', tools: [weatherTool] });
        stream.on('response.function_call_arguments.delta', (e) => deltas.push(e.delta));
        return { deltas, final: await stream.finalResponse() };
      });
      expect(result.deltas.length).toBeGreaterThan(1);
      const call = result.final.output.find((o) => o.type === 'function_call');
      expect(call?.arguments).toBe(result.deltas.join(''));
      expect(JSON.parse(call!.arguments)).toEqual({ city: 'Paris', unit: 'celsius' });
    });

    it('keeps a stateless client’s thinking through a tool loop: sealed in encrypted_content, sent back to Claude signed', async () => {
      const signed = JSON.parse(readFileSync(new URL('../test/fixtures/claude/messages/thinking-tool-use.json', import.meta.url), 'utf8')).body.content[0];
      const params = {
        model: CLAUDE_THINKING,
        tools: [weatherTool],
        store: false,
        include: ['reasoning.encrypted_content' as const],
        reasoning: { effort: 'medium' as const },
        max_output_tokens: 8192,
      };
      const ask = { role: 'user' as const, content: 'Weather in Paris?' };
      for (const stream of [false, true]) {
        const { result: first } = await expectBill(CLAUDE_THINKING, { prompt: 380, completion: 92 }, () =>
          stream ? client.responses.stream({ ...params, input: [ask] }).finalResponse() : client.responses.create({ ...params, input: [ask] }),
        );
        expect(upstream().json!.thinking).toMatchObject({ type: 'enabled' });
        const reasoning = first.output.find((o) => o.type === 'reasoning')!;
        expect(reasoning.encrypted_content).toMatch(/^sy1\./);
        expect(JSON.stringify(first)).not.toContain(signed.signature);
        const call = first.output.find((o) => o.type === 'function_call')!;
        const result = { type: 'function_call_output' as const, call_id: call.call_id, output: '18°C, sunny' };

        const { response } = await client.responses.create({ ...params, input: [ask, ...first.output, result] as OpenAI.Responses.ResponseInput }).withResponse();
        expect(response.headers.get('x-switchyard-dropped')).toBe('store');
        const body = upstream().json!;
        expect(body.thinking).toMatchObject({ type: 'enabled' });
        const messages = body.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
        expect(messages[1].content[0]).toEqual(signed);
        expect(messages[1].content[1]).toMatchObject({ type: 'text' });
        expect(messages[1].content[2]).toMatchObject({ type: 'tool_use', id: call.call_id });
      }

      // A blob that does not open is read as its summary: Claude gets no unsigned thinking, and the turn no thinking.
      const first = await client.responses.create({ ...params, input: [ask] });
      const altered = first.output.map((o) => (o.type === 'reasoning' ? { ...o, encrypted_content: o.encrypted_content!.slice(0, -4) + 'AAAA' } : o));
      const call = first.output.find((o) => o.type === 'function_call')!;
      const next = [ask, ...altered, { type: 'function_call_output', call_id: call.call_id, output: '18°C' }] as OpenAI.Responses.ResponseInput;
      const { response } = await client.responses.create({ ...params, input: next }).withResponse();
      expect(response.headers.get('x-switchyard-dropped')).toBe('store,reasoning.effort');
      expect(upstream().json).not.toHaveProperty('thinking');
      expect(((upstream().json!.messages as Array<{ content: Array<{ type: string }> }>)[1].content).map((b) => b.type)).toEqual(['text', 'tool_use']);
    });

    it('bills cache reads at the cache ratio and cache writes at 1.25x', async () => {
      const tokens = { prompt: 8 + 3400 + 1200, completion: 7, cached: 3400, created: 1200 };
      const { result, other } = await expectBill(CLAUDE_CACHE, tokens, () => client.responses.create({ model: CLAUDE_CACHE, input: 'hi' }));
      expect(result.usage).toMatchObject({ input_tokens: tokens.prompt, input_tokens_details: { cached_tokens: 3400 } });
      expect(other).toMatchObject({ cache_ratio: 0.1, cache_tokens: 3400, cache_creation_tokens: 1200 });
    });

    it('leaves a hosted tool out of the offer, and names it', async () => {
      const { response } = await client.responses.create({ model: CLAUDE, input: 'hi', tools: [{ type: 'web_search_preview' }] }).withResponse();
      expect(response.headers.get('x-switchyard-dropped')).toBe('tools[].type=web_search_preview');
      expect(upstream().json).not.toHaveProperty('tools');
    });
  });

  describe('Gemini channel (converted to generateContent)', () => {
    it('gives a stateless client the thought signature sealed and sends it back on the function call', async () => {
      const answer = JSON.parse(readFileSync(new URL('../test/fixtures/gemini/generateContent/function-call.json', import.meta.url), 'utf8'));
      const signature = (answer.body.candidates[0].content.parts as Array<{ thoughtSignature?: string }>).find((p) => p.thoughtSignature)!.thoughtSignature!;
      const params = { model: GEMINI_CALL, tools: [weatherTool], store: false, include: ['reasoning.encrypted_content' as const] };
      const ask = { role: 'user' as const, content: 'Weather in Paris?' };
      for (const stream of [false, true]) {
        const first = stream ? await client.responses.stream({ ...params, input: [ask] }).finalResponse() : await client.responses.create({ ...params, input: [ask] });
        const types = first.output.map((o) => o.type);
        expect(types.indexOf('reasoning')).toBeLessThan(types.indexOf('function_call'));
        expect(JSON.stringify(first)).not.toContain(signature);
        const call = first.output.find((o) => o.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall;
        await client.responses.create({ ...params, input: [ask, ...first.output, { type: 'function_call_output', call_id: call.call_id, output: '18°C' }] as OpenAI.Responses.ResponseInput });
        const contents = gemini.requests.at(-1)!.json!.contents as Array<{ role: string; parts: Array<Record<string, unknown>> }>;
        expect(contents[1].role).toBe('model');
        expect(contents[1].parts.find((p) => p.functionCall)).toMatchObject({ functionCall: { name: 'get_weather' }, thoughtSignature: signature });
      }
    });
  });

  describe('request errors', () => {
    it('answers a request without input with a 400 in OpenAI’s shape', async () => {
      const err = await expectRefusal(() => client.responses.create({ model: RESP } as OpenAI.Responses.ResponseCreateParamsNonStreaming));
      expect(err.status).toBe(400);
      expect(err.error).toEqual({ message: expect.stringContaining('input'), type: 'invalid_request_error', param: null, code: expect.any(String) });
      const raw = await fetch(`${f.baseUrl}/v1/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${client.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: CHAT }),
      });
      expect(raw.status).toBe(400);
      expect(await raw.json()).toMatchObject({ error: { type: 'invalid_request_error', message: expect.any(String) } });
    });
  });

  describe('the WebSocket transport', () => {
    /** A GET of /v1/responses as a WebSocket client opens it (fetch may not send Upgrade). */
    const handshake = (headers: Record<string, string>) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.get(`${f.baseUrl}/v1/responses`, { headers: { 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', ...headers } });
        req.on('response', (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        });
        req.on('upgrade', () => reject(new Error('upgraded')));
        req.on('error', reject);
      });
    const upgrade = { connection: 'Upgrade', upgrade: 'websocket', 'openai-beta': 'responses_websockets=2026-02-06' };

    it('answers an upgrade with 426 in OpenAI’s format, which sends Codex to HTTP at once', async () => {
      const { key } = await f.token();
      const res = await handshake({ ...upgrade, authorization: `Bearer ${key}` });
      expect(res.status).toBe(426);
      expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'websocket_not_supported', type: 'invalid_request_error', message: expect.stringContaining('POST /v1/responses') } });
    });

    it('checks the key first, and answers a GET without an upgrade as any unknown path', async () => {
      expect((await handshake({ ...upgrade, authorization: 'Bearer sk-not-a-key' })).status).toBe(401);
      const { key } = await f.token();
      const plain = await handshake({ authorization: `Bearer ${key}` });
      expect(plain.status).toBe(404);
      expect(JSON.parse(plain.body)).toMatchObject({ error: { code: 'invalid_url' } });
    });
  });
});
