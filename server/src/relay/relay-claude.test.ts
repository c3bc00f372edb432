import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTextTokens } from './tokenizer.js';
import { testDatabases } from '../test/databases.js';
import { quiesce } from '../test/ledger.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';
import { billing, CACHE_CREATION_RATIO, costOf as costAt, setPrices, type Price, type Tokens } from '../test/billing.js';
import { listenLocal } from '../test/mocks/local-server.js';
import { CLAUDE_MOCK_KEY, startClaudeMock, type ClaudeMock } from '../test/mocks/claude.js';
import { DEFAULT_CHUNKS, MOCK_USAGE, startMockOpenAI, type MockOpenAI } from '../test/mock-openai.js';
import { startCloudflareMock, type CloudflareMock } from '../test/mocks/cloudflare.js';
import { startCohereMock, type CohereMock } from '../test/mocks/cohere.js';
import { GEMINI_MOCK_KEY, startGeminiMock, type GeminiMock } from '../test/mocks/gemini.js';
import { startVertexMock, testServiceAccount, type VertexMock } from '../test/mocks/vertex.js';
import { startBedrockMock, type BedrockMock } from '../test/mocks/bedrock.js';

/*
 * The official @anthropic-ai/sdk against Switchyard's /v1/messages, relaying to every kind of channel: a Claude
 * upstream (passthrough, byte for byte) and upstreams of other formats (converted through the canonical shape).
 * Each call's bill is checked against the upstream's reported usage.
 */

/** Ratios set through the options (ModelRatio / CompletionRatio / CacheRatio). */
const PRICES: Record<string, Price> = {
  'claude-haiku-4-5': { ratio: 1.5, completion: 5 },
  'claude-alias': { ratio: 1.5, completion: 5 },
  'claude-mock-tool-use': { ratio: 1.5, completion: 5 },
  'claude-mock-thinking-signature': { ratio: 1.5, completion: 5 },
  'claude-mock-cache-usage': { ratio: 1.5, completion: 5, cache: 0.2 },
  'claude-mock-no-usage': { ratio: 1.5, completion: 5 },
  'claude-mock-cut': { ratio: 1.5, completion: 5 },
  'claude-mock-stream-error': { ratio: 1.5, completion: 5 },
  'claude-mock-rate-limit': { ratio: 1.5, completion: 5 },
  'claude-mock-bad-request': { ratio: 1.5, completion: 5 },
  'claude-mock-overloaded': { ratio: 1.5, completion: 5 },
  'gpt-4o': { ratio: 1.25, completion: 4 },
  'gpt-4.1': { ratio: 1, completion: 4, cache: 0.25 },
  'gemini-2.0-flash': { ratio: 0.05, completion: 4 },
  'gemini-mock-function-call': { ratio: 0.05, completion: 4 },
  'claude-sonnet-4-20250514': { ratio: 1.5, completion: 5 },
  'claude-vertex-mock-cut': { ratio: 1.5, completion: 5 },
  'gemini-2.5-flash': { ratio: 0.15, completion: 8 },
  'command-r-plus': { ratio: 1.25, completion: 4 },
  '@cf/meta/llama-3.1-8b-instruct': { ratio: 0.1, completion: 2 },
  'claude-3-5-haiku-20241022': { ratio: 0.4, completion: 5 },
  'bedrock-mock-tool-use': { ratio: 1.5, completion: 5 },
};

const AWS = { accessKeyId: 'AKIAMOCKSWITCHYARD01', secretAccessKey: 'mock/Secret+Key/For/Switchyard/Tests00', region: 'us-east-1' };

const costOf = (model: string, t: Tokens): number => costAt(model, t, PRICES[model]);

const CLAUDE_MODELS = Object.keys(PRICES).filter((m) => m.startsWith('claude-mock-') || m === 'claude-haiku-4-5');

/** One scripted OpenAI answer: what the assistant says and why it stopped. */
interface Script {
  content?: string;
  toolCall?: { id: string; name: string; arguments: string };
  finish: 'stop' | 'length' | 'tool_calls';
  usage: Record<string, unknown>;
}

interface ScriptedOpenAI {
  url: string;
  key: string;
  requests: Array<Record<string, unknown>>;
  /** Answers for the coming calls, in order. */
  next: Script[];
  close(): Promise<void>;
}

/**
 * An OpenAI chat upstream that answers what a test scripts: tool calls and finish reasons mock-openai.ts cannot
 * produce. Streams split the text and the tool arguments in two, as OpenAI does, and end with the usage chunk.
 */
async function startScriptedOpenAI(key = 'sk-scripted-upstream'): Promise<ScriptedOpenAI> {
  const mock = { key, requests: [] as ScriptedOpenAI['requests'], next: [] as Script[] };
  const server = await listenLocal((req, body, res) => {
    const json = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    mock.requests.push(json);
    const script = mock.next.shift();
    if (req.headers.authorization !== `Bearer ${key}`) {
      res.writeHead(401, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } }));
    }
    if (!script) {
      res.writeHead(500, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ error: { message: 'no scripted answer left', type: 'server_error', code: null } }));
    }
    const base = { id: 'chatcmpl-scripted', created: 1_700_000_000, model: json.model };
    const call = script.toolCall;
    if (json.stream !== true) {
      const tool_calls = call ? [{ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }] : undefined;
      const message = { role: 'assistant', content: script.content ?? null, tool_calls };
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: script.finish }], usage: script.usage }));
    }
    const chunk = (delta: unknown, finish: string | null = null) =>
      `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const half = (t: string) => [t.slice(0, Math.ceil(t.length / 2)), t.slice(Math.ceil(t.length / 2))];
    let out = chunk({ role: 'assistant', content: '' });
    for (const piece of script.content ? half(script.content) : []) out += chunk({ content: piece });
    if (call) {
      out += chunk({ tool_calls: [{ index: 0, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] });
      for (const piece of half(call.arguments)) out += chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] });
    }
    out += chunk({}, script.finish);
    out += `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [], usage: script.usage })}\n\ndata: [DONE]\n\n`;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(out);
  });
  return Object.assign(mock, server);
}

const weatherTool: Anthropic.Tool = {
  name: 'get_weather',
  description: 'Weather of a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string' } }, required: ['city'] },
};

const hello = { max_tokens: 256, messages: [{ role: 'user' as const, content: 'Hello, Claude' }] };

describe.each(testDatabases(['sqlite']))('Claude Messages clients on $name', (database) => {
  let f: RelayFixture;
  let claude: ClaudeMock;
  let openai: MockOpenAI;
  let scripted: ScriptedOpenAI;
  let gemini: GeminiMock;
  let vertex: VertexMock;
  let cohere: CohereMock;
  let cloudflare: CloudflareMock;
  let bedrock: BedrockMock;
  let key: string;
  /** Bodies the SDK put on the wire, in order, and the headers of the last request. */
  const sent: string[] = [];
  let sentHeaders = new Headers();

  /** The SDK, authenticated as given (by default with the token as apiKey, which it sends as a bearer token). */
  const sdk = (opts: Pick<ConstructorParameters<typeof Anthropic>[0] & object, 'apiKey' | 'authToken' | 'defaultHeaders'> = { apiKey: key }) =>
    new Anthropic({
      ...opts,
      baseURL: f.baseUrl,
      maxRetries: 0,
      timeout: 20_000,
      fetch: (url: string | URL | Request, init?: RequestInit) => {
        if (typeof init?.body === 'string') sent.push(init.body);
        sentHeaders = new Headers(init?.headers);
        return fetch(url, init);
      },
    });

  const { quotaOf, lastLog, expectCharge } = billing(() => f);
  /** Runs a call and checks what it cost: the user's quota drop and its consume log both equal the formula. */
  const expectBill = <T>(model: string, tokens: Tokens, call: () => Promise<T>) => expectCharge(model, tokens, costOf(model, tokens), call);

  /** The last request the Claude mock received, and what it answered byte for byte. */
  const upstream = () => claude.requests.at(-1)!;

  beforeAll(async () => {
    claude = await startClaudeMock();
    openai = await startMockOpenAI();
    scripted = await startScriptedOpenAI();
    gemini = await startGeminiMock();
    const account = testServiceAccount();
    vertex = await startVertexMock({ publicKeyPem: account.publicKeyPem, clientEmail: account.clientEmail, projectId: account.projectId });
    cohere = await startCohereMock();
    cloudflare = await startCloudflareMock();
    bedrock = await startBedrockMock(AWS);
    f = await startRelay(database);
    await setPrices(f, PRICES);
    await f.channel({ type: 14, base_url: claude.url, key: CLAUDE_MOCK_KEY, models: CLAUDE_MODELS.join(',') });
    await f.channel({ type: 14, base_url: claude.url, key: CLAUDE_MOCK_KEY, models: 'claude-alias', model_mapping: '{"claude-alias":"claude-haiku-4-5"}' });
    await f.channel({ type: 1, base_url: openai.url, key: openai.key, models: 'gpt-4o' });
    await f.channel({ type: 1, base_url: scripted.url, key: scripted.key, models: 'gpt-4.1' });
    await f.channel({ type: 24, base_url: gemini.url, key: GEMINI_MOCK_KEY, models: 'gemini-2.0-flash,gemini-mock-function-call' });
    await f.channel({ type: 41, base_url: vertex.url, key: account.key(`${vertex.url}/token`), other: 'us-east5', models: 'claude-sonnet-4-20250514,claude-vertex-mock-cut,gemini-2.5-flash' });
    await f.channel({ type: 34, base_url: cohere.url, key: cohere.key, models: 'command-r-plus' });
    const awsKey = `${AWS.accessKeyId}|${AWS.secretAccessKey}|${AWS.region}`;
    await f.channel({ type: 33, base_url: bedrock.url, key: awsKey, models: 'claude-3-5-haiku-20241022,bedrock-mock-tool-use' });
    await f.channel({ type: 39, base_url: cloudflare.url, key: cloudflare.key, other: cloudflare.accountId, models: '@cf/meta/llama-3.1-8b-instruct' });
    key = (await f.token()).key;
  });
  afterAll(async () => {
    await f.close();
    await claude.close();
    await openai.close();
    await scripted.close();
    await gemini.close();
    await vertex.close();
    await cohere.close();
    await cloudflare.close();
    await bedrock.close();
  });

  describe('Claude channel (passthrough)', () => {
    it('sends the SDK body upstream byte for byte and returns the upstream answer unchanged', async () => {
      const { result } = await expectBill('claude-haiku-4-5', { prompt: 21, completion: 9 }, () =>
        sdk().messages.create({ model: 'claude-haiku-4-5', ...hello }).asResponse(),
      );
      expect(upstream().body.toString('utf8')).toBe(sent.at(-1));
      expect(result.status).toBe(200);
      expect(await result.text()).toBe(upstream().response.body.toString('utf8'));
    });

    it('streams the upstream SSE bytes through unchanged', async () => {
      const { result } = await expectBill('claude-haiku-4-5', { prompt: 21, completion: 9 }, async () => {
        const res = await sdk().messages.create({ model: 'claude-haiku-4-5', ...hello, stream: true }).asResponse();
        return { type: res.headers.get('content-type'), text: await res.text() };
      });
      expect(upstream().body.toString('utf8')).toBe(sent.at(-1));
      expect(result.type).toMatch(/^text\/event-stream/);
      expect(result.text).toBe(upstream().response.body.toString('utf8'));
      expect(await lastLog()).toMatchObject({ is_stream: 1 });
    });

    it('keeps thinking blocks and their signatures exactly as issued, streamed and not', async () => {
      const model = 'claude-mock-thinking-signature';
      const params = { model, ...hello, thinking: { type: 'enabled' as const, budget_tokens: 1024 } };
      const usage = { prompt: 45, completion: 96 };
      const { result: json } = await expectBill(model, usage, async () => (await sdk().messages.create(params).asResponse()).text());
      expect(json).toBe(upstream().response.body.toString('utf8'));
      const { result: sse } = await expectBill(model, usage, async () => (await sdk().messages.create({ ...params, stream: true }).asResponse()).text());
      expect(sse).toBe(upstream().response.body.toString('utf8'));
      expect(sse).toContain('"signature_delta"');

      const answered = (JSON.parse(json) as Anthropic.Message).content;
      expect(answered[0]).toMatchObject({ type: 'thinking', signature: expect.stringMatching(/^EqQB/) });
      expect((await sdk().messages.create(params)).content).toEqual(answered);
      expect((await sdk().messages.stream(params).finalMessage()).content).toEqual(answered);
    });

    it('streams a tool call as input_json_delta pieces and bills its usage', async () => {
      const model = 'claude-mock-tool-use';
      const tools = [weatherTool];
      const { result } = await expectBill(model, { prompt: 380, completion: 58 }, async () => {
        const pieces: string[] = [];
        const stream = sdk().messages.stream({ model, ...hello, tools });
        stream.on('inputJson', (partial) => pieces.push(partial));
        return { pieces, final: await stream.finalMessage() };
      });
      expect(result.pieces.join('')).toBe('{"city": "Paris", "unit": "celsius"}');
      expect(result.final.stop_reason).toBe('tool_use');
      expect(result.final.content[1]).toEqual({ type: 'tool_use', id: 'toolu_01MockWeather00000000000', name: 'get_weather', input: { city: 'Paris', unit: 'celsius' } });
      expect(upstream().json!.tools).toEqual(tools);
    });

    it('bills cache reads at the CacheRatio and cache writes at 1.25x, streamed and not', async () => {
      const model = 'claude-mock-cache-usage';
      const tokens = { prompt: 8 + 3400 + 1200, completion: 7, cached: 3400, created: 1200 };
      const system = [{ type: 'text' as const, text: 'A long shared prompt.', cache_control: { type: 'ephemeral' as const } }];
      const { result, other } = await expectBill(model, tokens, () => sdk().messages.create({ model, ...hello, system }));
      expect(result.usage).toMatchObject({ input_tokens: 8, cache_read_input_tokens: 3400, cache_creation_input_tokens: 1200 });
      expect(other).toMatchObject({ cache_ratio: 0.2, cache_tokens: 3400, cache_creation_tokens: 1200, cache_creation_ratio: CACHE_CREATION_RATIO });
      const { result: final } = await expectBill(model, tokens, () => sdk().messages.stream({ model, ...hello, system }).finalMessage());
      expect(final.usage).toMatchObject({ cache_read_input_tokens: 3400, cache_creation_input_tokens: 1200, output_tokens: 7 });
    });

    it('rewrites only the model when the channel maps it, and bills the model the client asked for', async () => {
      const { other } = await expectBill('claude-alias', { prompt: 21, completion: 9 }, () =>
        sdk().messages.create({ model: 'claude-alias', ...hello, stop_sequences: ['END'], metadata: { user_id: 'u-1' } }),
      );
      const sentJson = JSON.parse(sent.at(-1)!) as Record<string, unknown>;
      expect(upstream().json).toEqual({ ...sentJson, model: 'claude-haiku-4-5' });
      expect(Object.keys(upstream().json!)).toEqual(Object.keys(sentJson));
      expect(other).toMatchObject({ is_model_mapped: true, upstream_model_name: 'claude-haiku-4-5' });
    });

    it('forwards anthropic-version and anthropic-beta, with the channel key instead of the client key', async () => {
      const beta = 'prompt-caching-2024-07-31,output-128k-2025-02-19';
      await sdk().messages.create({ model: 'claude-haiku-4-5', ...hello }, { headers: { 'anthropic-beta': beta } });
      const h = upstream().headers;
      expect(h['anthropic-version']).toBe(sentHeaders.get('anthropic-version'));
      expect(h['anthropic-beta']).toBe(beta);
      expect(h['x-api-key']).toBe(CLAUDE_MOCK_KEY);
      expect(JSON.stringify(h)).not.toContain(key.slice(3));
    });

    it('asks Anthropic’s count_tokens, without charging', async () => {
      await f.flush();
      const [calls, before, logs] = [claude.requests.length, await quotaOf(), (await lastLog()).id];
      const counted = await sdk().messages.countTokens({ model: 'claude-haiku-4-5', messages: [{ role: 'user', content: 'Hello, Claude. How are you today?' }] });
      expect(counted.input_tokens).toBe(21);
      await f.flush();
      expect(claude.requests.length).toBe(calls + 1);
      expect(claude.requests.at(-1)!.path).toBe('/v1/messages/count_tokens');
      expect(await quotaOf()).toBe(before);
      expect((await lastLog()).id).toBe(logs);
    });

    it('passes a stream cut mid-way through as far as it got, then an error event; bills the prompt and the output so far', async () => {
      const model = 'claude-mock-cut';
      const { log } = await expectBill(model, { prompt: 21, completion: countTextTokens('This answer is cut', model) }, async () => {
        const res = await sdk().messages.create({ model, ...hello, stream: true }).asResponse();
        const text = await res.text();
        expect(upstream().response.cut).toBe(true);
        expect(text).toBe(`${upstream().response.body.toString('utf8')}event: error\ndata: {"type":"error","error":{"type":"api_error","message":"上游连接中断"}}\n\n`);
      });
      // The prompt as message_start reported it; the output ("This answer is cut") counted by the relay.
      expect(log.content).toContain('上游中断');
    });

    it('ends a cut stream with an error the SDK raises, after the events that came', async () => {
      const stream = await sdk().messages.create({ model: 'claude-mock-cut', ...hello, stream: true });
      let text = '';
      const err = await (async () => {
        for await (const e of stream) if (e.type === 'content_block_delta' && e.delta.type === 'text_delta') text += e.delta.text;
      })().catch((e: unknown) => e);
      expect(text).toBe('This answer is cut');
      expect(err).toBeInstanceOf(Anthropic.APIError);
      expect((err as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ type: 'error', error: { type: 'api_error' } });
    });

    it('passes an error event inside the stream through to the client', async () => {
      const model = 'claude-mock-stream-error';
      const stream = await sdk().messages.create({ model, ...hello, stream: true });
      const seen: string[] = [];
      const err = await (async () => {
        for await (const event of stream) seen.push(event.type);
      })().catch((e: unknown) => e);
      expect(seen).toContain('content_block_delta');
      expect(err).toBeInstanceOf(Anthropic.APIError);
      expect((err as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
      await f.flush();
      expect(await lastLog()).toMatchObject({ model_name: model, prompt_tokens: 21 });
    });

    it('answers a JSON answer cut half-way with a Claude-shaped server error, without charging', async () => {
      await f.flush();
      const before = await quotaOf();
      const err = (await sdk().messages.create({ model: 'claude-mock-cut', ...hello }).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
      expect(err).toBeInstanceOf(Anthropic.APIError);
      expect(err.status).toBe(502);
      expect(err.error).toMatchObject({ type: 'error', error: { type: 'api_error', message: expect.any(String) } });
      await f.flush();
      expect(await quotaOf()).toBe(before);
    });

    it('counts a whole answer itself, output included, when the upstream reports no usage', async () => {
      const model = 'claude-mock-no-usage';
      const message = await sdk().messages.create({ model, ...hello });
      expect(message.content[0]).toMatchObject({ type: 'text', text: 'Hello without usage.' });
      await f.flush();
      const log = await lastLog();
      expect(log).toMatchObject({ model_name: model, is_stream: 0 });
      // "Hello without usage." is four tokens or more in any tokenizer.
      expect(log.completion_tokens).toBeGreaterThanOrEqual(4);
      expect(log.quota).toBe(costOf(model, { prompt: log.prompt_tokens, completion: log.completion_tokens }));
      expect(log.content).toContain('本地计算');
    });

    it('counts the tokens of a stream itself when the upstream reports no usage, and says so in the log', async () => {
      const model = 'claude-mock-no-usage';
      // The SDK's raw events: its stream helper needs usage in message_delta.
      const stream = await sdk().messages.create({ model, ...hello, stream: true });
      let text = '';
      for await (const e of stream) if (e.type === 'content_block_delta' && e.delta.type === 'text_delta') text += e.delta.text;
      expect(text).toBe('Hello without usage.');
      await quiesce(f.t.app.ctx);
      const log = await lastLog();
      expect(log).toMatchObject({ model_name: model, is_stream: 1 });
      expect(log.prompt_tokens).toBeGreaterThan(3);
      expect(log.completion_tokens).toBeGreaterThan(2);
      expect(log.quota).toBe(costOf(model, { prompt: log.prompt_tokens, completion: log.completion_tokens }));
      expect(log.content).toContain('本地计算');
    });

    it.each([
      ['claude-mock-rate-limit', 429, 'rate_limit_error'],
      ['claude-mock-bad-request', 400, 'invalid_request_error'],
      ['claude-mock-overloaded', 529, 'overloaded_error'],
    ])('answers an upstream failure (%s) in Claude\'s error shape without charging', async (model, status, type) => {
      await f.flush();
      const before = await quotaOf();
      const err = (await sdk().messages.create({ model, ...hello }).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
      expect(err).toBeInstanceOf(Anthropic.APIError);
      expect({ status: err.status, body: err.error }).toMatchObject({ status, body: { type: 'error', error: { type, message: expect.any(String) } } });
      await f.flush();
      expect(await quotaOf()).toBe(before);
    });
  });
  describe('OpenAI channel (converted)', () => {
    const mockText = DEFAULT_CHUNKS.join('');
    const mockUsage = { prompt: MOCK_USAGE.prompt_tokens, completion: MOCK_USAGE.completion_tokens };
    const last = () => openai.requests.at(-1)!.json!;

    it('converts the request, the system prompt and the answer, and bills the upstream usage', async () => {
      const { result } = await expectBill('gpt-4o', mockUsage, () =>
        // temperature is gone from the current SDK's types, not from the API older clients call.
        sdk().messages.create({ model: 'gpt-4o', ...hello, system: 'Be brief.', temperature: 0.2, stop_sequences: ['END'] } as Anthropic.MessageCreateParamsNonStreaming),
      );
      expect(last()).toMatchObject({
        model: 'gpt-4o',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hello, Claude' },
        ],
        temperature: 0.2,
        stop: ['END'],
      });
      expect(last().max_tokens ?? last().max_completion_tokens).toBe(256);
      expect(result).toMatchObject({
        type: 'message',
        role: 'assistant',
        model: 'gpt-4o',
        content: [{ type: 'text', text: mockText }],
        stop_reason: 'end_turn',
        usage: { input_tokens: mockUsage.prompt, output_tokens: mockUsage.completion },
      });
      expect(result.id).toMatch(/^msg_/);
    });

    it('sends a system prompt given as blocks as the system message', async () => {
      await sdk().messages.create({ model: 'gpt-4o', ...hello, system: [{ type: 'text', text: 'Rule one.' }, { type: 'text', text: 'Rule two.' }] });
      const system = (last().messages as Array<{ role: string; content: unknown }>)[0];
      expect(system.role).toBe('system');
      const text = typeof system.content === 'string' ? system.content : (system.content as Array<{ text: string }>).map((p) => p.text).join('\n');
      expect(text).toContain('Rule one.');
      expect(text).toContain('Rule two.');
    });

    it('streams the answer as Claude events, asking the upstream for usage', async () => {
      const { result } = await expectBill('gpt-4o', mockUsage, async () => {
        const events: string[] = [];
        const stream = sdk().messages.stream({ model: 'gpt-4o', ...hello });
        stream.on('streamEvent', (e) => events.push(e.type));
        return { events, final: await stream.finalMessage() };
      });
      expect(last()).toMatchObject({ stream: true, stream_options: { include_usage: true } });
      expect(result.final).toMatchObject({ content: [{ type: 'text', text: mockText }], stop_reason: 'end_turn', usage: { input_tokens: mockUsage.prompt, output_tokens: mockUsage.completion } });
      expect(result.events[0]).toBe('message_start');
      expect(result.events.at(-1)).toBe('message_stop');
      expect(result.events).toContain('content_block_delta');
      expect(result.events).toContain('message_delta');
    });

    it('counts the tokens itself when the upstream reports no usage, streamed and not, and says so in the log', async () => {
      openai.queue.push({ omitUsage: true });
      const message = await sdk().messages.create({ model: 'gpt-4o', ...hello });
      expect(message.content).toEqual([{ type: 'text', text: mockText }]);
      await f.flush();
      const plain = await lastLog();
      expect(plain.prompt_tokens).toBeGreaterThan(3);
      expect(plain.completion_tokens).toBeGreaterThan(3);
      expect(plain.quota).toBe(costOf('gpt-4o', { prompt: plain.prompt_tokens, completion: plain.completion_tokens }));
      expect(plain.content).toContain('本地计算');
      expect(message.usage).toMatchObject({ input_tokens: plain.prompt_tokens, output_tokens: plain.completion_tokens });

      openai.queue.push({ omitUsage: true });
      const stream = await sdk().messages.create({ model: 'gpt-4o', ...hello, stream: true });
      let text = '';
      for await (const e of stream) if (e.type === 'content_block_delta' && e.delta.type === 'text_delta') text += e.delta.text;
      expect(text).toBe(mockText);
      await quiesce(f.t.app.ctx);
      const streamed = await lastLog();
      expect(streamed).toMatchObject({ is_stream: 1, prompt_tokens: plain.prompt_tokens, completion_tokens: plain.completion_tokens });
      expect(streamed.content).toContain('本地计算');
    });

    it('ends a stream the upstream cut with an error event, billing what was generated', async () => {
      openai.queue.push({ cutAfter: 3 });
      const stream = await sdk().messages.create({ model: 'gpt-4o', ...hello, stream: true });
      let text = '';
      const err = await (async () => {
        for await (const e of stream) if (e.type === 'content_block_delta' && e.delta.type === 'text_delta') text += e.delta.text;
      })().catch((e: unknown) => e);
      expect(text).toBe('Hello from the');
      expect(err).toBeInstanceOf(Anthropic.APIError);
      expect((err as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ type: 'error', error: { type: 'api_error' } });
      await quiesce(f.t.app.ctx);
      const log = await lastLog();
      expect(log.completion_tokens).toBe(countTextTokens('Hello from the', 'gpt-4o'));
      expect(log.quota).toBe(costOf('gpt-4o', { prompt: log.prompt_tokens, completion: log.completion_tokens }));
      expect(log.content).toContain('上游中断');
    });

    it('round-trips a tool call: tool_use out, tool_result back in', async () => {
      const call = { id: 'call_weather_1', name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' };
      scripted.next.push({ content: 'Checking.', toolCall: call, finish: 'tool_calls', usage: { prompt_tokens: 80, completion_tokens: 20, total_tokens: 100 } });
      const params = { model: 'gpt-4.1', max_tokens: 256, tools: [weatherTool], messages: [{ role: 'user' as const, content: 'Weather in Paris?' }] };
      const { result: first } = await expectBill('gpt-4.1', { prompt: 80, completion: 20 }, () => sdk().messages.create(params));
      expect(scripted.requests.at(-1)!.tools).toEqual([
        { type: 'function', function: { name: 'get_weather', description: 'Weather of a city', parameters: weatherTool.input_schema } },
      ]);
      expect(first.stop_reason).toBe('tool_use');
      expect(first.content).toEqual([
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: call.id, name: call.name, input: { city: 'Paris', unit: 'celsius' } },
      ]);

      scripted.next.push({ content: 'It is 18°C in Paris.', finish: 'stop', usage: { prompt_tokens: 120, completion_tokens: 9, total_tokens: 129 } });
      const { result: second } = await expectBill('gpt-4.1', { prompt: 120, completion: 9 }, () =>
        sdk().messages.create({
          ...params,
          messages: [
            ...params.messages,
            { role: 'assistant', content: first.content },
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: '18°C, sunny' }] },
          ],
        }),
      );
      expect(second).toMatchObject({ stop_reason: 'end_turn', content: [{ type: 'text', text: 'It is 18°C in Paris.' }] });
      const messages = scripted.requests.at(-1)!.messages as Array<Record<string, unknown>>;
      expect(messages[1]).toMatchObject({
        role: 'assistant',
        tool_calls: [{ id: call.id, type: 'function', function: { name: 'get_weather' } }],
      });
      const sentArgs = (messages[1].tool_calls as Array<{ function: { arguments: string } }>)[0].function.arguments;
      expect(JSON.parse(sentArgs)).toEqual({ city: 'Paris', unit: 'celsius' });
      expect(messages[2]).toMatchObject({ role: 'tool', tool_call_id: call.id });
      expect(JSON.stringify(messages[2].content)).toContain('18°C, sunny');
    });

    it('streams a tool call as input_json_delta pieces with stop_reason tool_use', async () => {
      const call = { id: 'call_weather_2', name: 'get_weather', arguments: '{"city":"Paris"}' };
      scripted.next.push({ toolCall: call, finish: 'tool_calls', usage: { prompt_tokens: 80, completion_tokens: 15, total_tokens: 95 } });
      const { result } = await expectBill('gpt-4.1', { prompt: 80, completion: 15 }, async () => {
        const pieces: string[] = [];
        const stream = sdk().messages.stream({ model: 'gpt-4.1', max_tokens: 256, tools: [weatherTool], messages: [{ role: 'user', content: 'Weather in Paris?' }] });
        stream.on('inputJson', (delta) => pieces.push(delta));
        return { pieces, final: await stream.finalMessage() };
      });
      expect(result.pieces.length).toBeGreaterThan(1);
      expect(result.pieces.join('')).toBe(call.arguments);
      expect(result.final.stop_reason).toBe('tool_use');
      expect(result.final.content).toEqual([{ type: 'tool_use', id: call.id, name: call.name, input: { city: 'Paris' } }]);
    });

    it.each([false, true])('maps finish_reason length to max_tokens (stream: %s)', async (stream) => {
      scripted.next.push({ content: 'Once upon a time', finish: 'length', usage: { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 } });
      const params = { model: 'gpt-4.1', max_tokens: 4, messages: [{ role: 'user' as const, content: 'Tell a story' }] };
      const { result } = await expectBill('gpt-4.1', { prompt: 12, completion: 4 }, async () =>
        stream ? await sdk().messages.stream(params).finalMessage() : await sdk().messages.create(params),
      );
      expect(result).toMatchObject({ stop_reason: 'max_tokens', content: [{ type: 'text', text: 'Once upon a time' }] });
    });

    it.each([false, true])('maps cached prompt tokens to cache_read_input_tokens and bills them at the CacheRatio (stream: %s)', async (stream) => {
      const usage = { prompt_tokens: 1000, completion_tokens: 10, total_tokens: 1010, prompt_tokens_details: { cached_tokens: 800 } };
      scripted.next.push({ content: 'Cached.', finish: 'stop', usage });
      const params = { model: 'gpt-4.1', ...hello };
      const { result, other } = await expectBill('gpt-4.1', { prompt: 1000, completion: 10, cached: 800 }, async () =>
        stream ? await sdk().messages.stream(params).finalMessage() : await sdk().messages.create(params),
      );
      expect(result.usage).toMatchObject({ input_tokens: 200, cache_read_input_tokens: 800, output_tokens: 10 });
      expect(other).toMatchObject({ cache_ratio: 0.25, cache_tokens: 800 });
    });
  });
  describe('other channels (converted)', () => {
    /** The answer's text, streamed (the SDK's stream helper, which needs usage) or not. */
    async function ask(model: string, stream: boolean, extra: Partial<Anthropic.MessageCreateParamsNonStreaming> = {}) {
      const params = { model, ...hello, ...extra };
      return stream ? sdk().messages.stream(params).finalMessage() : sdk().messages.create(params);
    }

    it.each([false, true])('Gemini: text, billed by usageMetadata (stream: %s)', async (stream) => {
      const { result } = await expectBill('gemini-2.0-flash', { prompt: 8, completion: 7 }, () => ask('gemini-2.0-flash', stream, { system: 'Be brief.' }));
      expect(result).toMatchObject({ content: [{ type: 'text', text: 'Hello from the Gemini mock.' }], stop_reason: 'end_turn', usage: { input_tokens: 8, output_tokens: 7 } });
      const sentBody = gemini.requests.at(-1)!;
      expect(sentBody.path).toBe(`/v1beta/models/gemini-2.0-flash:${stream ? 'streamGenerateContent' : 'generateContent'}`);
      expect(sentBody.json).toMatchObject({ contents: [{ role: 'user', parts: [{ text: 'Hello, Claude' }] }], systemInstruction: { parts: [{ text: 'Be brief.' }] } });
    });

    it.each([false, true])('Gemini: a function call becomes tool_use (stream: %s)', async (stream) => {
      const model = 'gemini-mock-function-call';
      const { result } = await expectBill(model, { prompt: 60, completion: 12 }, () => ask(model, stream, { tools: [weatherTool] }));
      expect(result.stop_reason).toBe('tool_use');
      // Gemini's thought signature rides on a thinking block (where it arrives), so the client sends it back.
      expect(result.content).toContainEqual({ type: 'thinking', thinking: '', signature: 'CiQBMockThoughtSignatureForSwitchyard0001' });
      expect(result.content.find((b) => b.type === 'text')).toEqual({ type: 'text', text: 'Let me check the weather.' });
      expect(result.content.find((b) => b.type === 'tool_use')).toMatchObject({ name: 'get_weather', input: { city: 'Paris', unit: 'celsius' }, id: expect.any(String) });
      const declared = (gemini.requests.at(-1)!.json!.tools as Array<{ functionDeclarations: Array<{ name: string }> }>)[0].functionDeclarations;
      expect(declared.map((d) => d.name)).toEqual(['get_weather']);
    });

    it('Gemini: a tool_result goes back as a functionResponse', async () => {
      const first = await ask('gemini-mock-function-call', false, { tools: [weatherTool] });
      const toolUse = first.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;
      await expectBill('gemini-2.0-flash', { prompt: 8, completion: 7 }, () =>
        sdk().messages.create({
          model: 'gemini-2.0-flash',
          max_tokens: 256,
          tools: [weatherTool],
          messages: [
            ...hello.messages,
            { role: 'assistant', content: first.content },
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: '18°C, sunny' }] },
          ],
        }),
      );
      const contents = gemini.requests.at(-1)!.json!.contents as Array<{ role: string; parts: Array<Record<string, unknown>> }>;
      expect(contents.map((c) => c.role)).toEqual(['user', 'model', 'user']);
      // The signature Gemini gave the call goes back on the call, as Gemini requires.
      expect(contents[1].parts).toContainEqual({
        functionCall: { name: 'get_weather', args: { city: 'Paris', unit: 'celsius' } },
        thoughtSignature: 'CiQBMockThoughtSignatureForSwitchyard0001',
      });
      const response = contents[2].parts.find((p) => p.functionResponse)?.functionResponse as { name: string; response: unknown };
      expect(response.name).toBe('get_weather');
      expect(JSON.stringify(response.response)).toContain('18°C, sunny');
    });

    it.each([false, true])('Vertex: a Claude model goes to rawPredict with the Messages body (stream: %s)', async (stream) => {
      const model = 'claude-sonnet-4-20250514';
      const { result } = await expectBill(model, { prompt: 14, completion: 9 }, () => ask(model, stream));
      expect(result).toMatchObject({ content: [{ type: 'text', text: 'Hello from Claude on Vertex.' }], stop_reason: 'end_turn', usage: { input_tokens: 14, output_tokens: 9 } });
      const req = vertex.requests.at(-1)!;
      expect(req.path).toBe(`/v1/projects/mock-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514:${stream ? 'streamRawPredict' : 'rawPredict'}`);
      // The SDK's body minus the model (it is in the URL), plus Vertex's anthropic_version.
      const { model: _model, ...rest } = JSON.parse(sent.at(-1)!) as Record<string, unknown>;
      expect(req.json).toEqual({ anthropic_version: 'vertex-2023-10-16', ...rest });
    });

    it('Vertex: a Claude stream cut inside an event reaches the client as whole events and an error event', async () => {
      const model = 'claude-vertex-mock-cut';
      const { log } = await expectBill(model, { prompt: 14, completion: countTextTokens('Cut off', model) }, async () => {
        const res = await sdk().messages.create({ model, ...hello, stream: true }).asResponse();
        const events = (await res.text()).split('\n\n').filter(Boolean);
        expect(events.map((e) => /^event: (\w+)/.exec(e)?.[1])).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'error']);
        for (const e of events) expect(() => JSON.parse(e.slice(e.indexOf('data: ') + 6))).not.toThrow();
      });
      expect(log.content).toContain('上游中断');
    });

    it.each([false, true])('Vertex: a Gemini model goes to generateContent (stream: %s)', async (stream) => {
      const model = 'gemini-2.5-flash';
      // Thinking tokens are output: candidates 7 + thoughts 20.
      const { result } = await expectBill(model, { prompt: 9, completion: 27 }, () => ask(model, stream));
      expect(result).toMatchObject({ content: [{ type: 'text', text: 'Hello from Gemini on Vertex.' }], stop_reason: 'end_turn' });
      expect(vertex.requests.at(-1)!.path).toMatch(/\/publishers\/google\/models\/gemini-2\.5-flash:(streamGenerateContent\?alt=sse|generateContent)$/);
    });

    it.each([false, true])('AWS: Claude on Bedrock with the Messages body, signed (stream: %s)', async (stream) => {
      const model = 'claude-3-5-haiku-20241022';
      const { result } = await expectBill(model, { prompt: 14, completion: 9 }, () => ask(model, stream));
      expect(result).toMatchObject({ content: [{ type: 'text', text: 'Hello from Claude on Bedrock.' }], stop_reason: 'end_turn', usage: { input_tokens: 14, output_tokens: 9 } });
      const req = bedrock.requests.at(-1)!;
      expect(req.response.status).toBe(200);
      expect(req.path).toBe(`/model/${encodeURIComponent('anthropic.claude-3-5-haiku-20241022-v1:0')}/${stream ? 'invoke-with-response-stream' : 'invoke'}`);
      const { model: _model, stream: _stream, ...rest } = JSON.parse(sent.at(-1)!) as Record<string, unknown>;
      expect(req.json).toEqual({ ...rest, anthropic_version: 'bedrock-2023-05-31' });
    });

    it('AWS: a streamed tool call out of the event stream', async () => {
      const model = 'bedrock-mock-tool-use';
      const { result } = await expectBill(model, { prompt: 380, completion: 58 }, async () => {
        const pieces: string[] = [];
        const stream = sdk().messages.stream({ model, ...hello, tools: [weatherTool] });
        stream.on('inputJson', (delta) => pieces.push(delta));
        return { pieces, final: await stream.finalMessage() };
      });
      expect(result.pieces.join('')).toBe('{"city": "Paris", "unit": "celsius"}');
      expect(result.final.stop_reason).toBe('tool_use');
      expect(result.final.content[1]).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { city: 'Paris', unit: 'celsius' } });
    });

    it.each([false, true])('Cohere: text, billed by billed_units (stream: %s)', async (stream) => {
      const model = 'command-r-plus';
      const { result } = await expectBill(model, { prompt: 5, completion: 6 }, () => ask(model, stream, { system: 'Be brief.' }));
      expect(result).toMatchObject({ content: [{ type: 'text', text: 'Hello from the Cohere mock.' }], stop_reason: 'end_turn' });
      expect(cohere.requests.at(-1)!.json).toMatchObject({ model, messages: [{ role: 'system' }, { role: 'user' }], stream });
    });

    it.each([false, true])('Cloudflare: text through the OpenAI-compatible endpoint (stream: %s)', async (stream) => {
      const model = '@cf/meta/llama-3.1-8b-instruct';
      const { result } = await expectBill(model, { prompt: 18, completion: 8 }, () => ask(model, stream));
      expect(result).toMatchObject({ content: [{ type: 'text', text: 'Hello from the Cloudflare mock.' }], stop_reason: 'end_turn' });
      expect(cloudflare.requests.at(-1)!.path).toBe(`/client/v4/accounts/${cloudflare.accountId}/ai/v1/chat/completions`);
    });
  });
  describe('model list', () => {
    it('answers GET /v1/models in Anthropic’s shape for the Anthropic SDK, in Gemini’s for a Google key, else OpenAI’s', async () => {
      const ids: string[] = [];
      for await (const m of sdk().models.list()) {
        expect(m).toMatchObject({ type: 'model', id: expect.any(String), display_name: expect.any(String), created_at: expect.any(String) });
        ids.push(m.id);
      }
      expect(ids).toEqual(expect.arrayContaining(['claude-haiku-4-5', 'gpt-4o', 'gemini-2.0-flash']));
      const one = await sdk().models.retrieve('gpt-4o');
      expect(one).toMatchObject({ type: 'model', id: 'gpt-4o' });

      const google = (await (await fetch(`${f.baseUrl}/v1/models`, { headers: { 'x-goog-api-key': key } })).json()) as { models: Array<{ name: string }> };
      expect(google.models.map((m) => m.name)).toContain('models/gpt-4o');
      const openai = (await (await fetch(`${f.baseUrl}/v1/models`, { headers: { authorization: `Bearer ${key}` } })).json()) as { object: string; data: Array<{ id: string }> };
      expect(openai.object).toBe('list');
      expect(openai.data.map((m) => m.id)).toContain('gpt-4o');
    });
  });

  describe('auth and request checks', () => {
    it('accepts the key in x-api-key and in Authorization: Bearer', async () => {
      await sdk({ apiKey: null, defaultHeaders: { 'x-api-key': key } }).messages.create({ model: 'claude-haiku-4-5', ...hello });
      expect(sentHeaders.get('x-api-key')).toBe(key);
      expect(sentHeaders.get('authorization')).toBeNull();
      await sdk({ authToken: key }).messages.create({ model: 'claude-haiku-4-5', ...hello });
      expect(sentHeaders.get('authorization')).toBe(`Bearer ${key}`);
      expect(sentHeaders.get('x-api-key')).toBeNull();
    });

    async function failure(call: Promise<unknown>) {
      const err = (await call.catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
      expect(err).toBeInstanceOf(Anthropic.APIError);
      return { status: err.status, body: err.error };
    }

    it('refuses a bad key with a Claude-shaped 401 authentication_error', async () => {
      const calls = claude.requests.length;
      for (const auth of [{ apiKey: 'sk-not-a-real-key' }, { apiKey: null, defaultHeaders: { 'x-api-key': 'sk-not-a-real-key' } }]) {
        const err = await failure(sdk(auth).messages.create({ model: 'claude-haiku-4-5', ...hello }));
        expect(err).toMatchObject({ status: 401, body: { type: 'error', error: { type: 'authentication_error', message: expect.any(String) } } });
      }
      expect(claude.requests.length).toBe(calls);
    });

    it('refuses a request without max_tokens with a 400 invalid_request_error', async () => {
      const params = { model: 'claude-haiku-4-5', messages: hello.messages } as unknown as Anthropic.MessageCreateParamsNonStreaming;
      const err = await failure(sdk().messages.create(params));
      expect(err).toMatchObject({ status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('max_tokens') } } });
    });

    it('answers an unknown model in Claude\'s error shape', async () => {
      const err = await failure(sdk().messages.create({ model: 'claude-no-such-model', ...hello }));
      // No channel serves it: 404, as for any model without a channel.
      expect(err).toMatchObject({ status: 404, body: { type: 'error', error: { type: 'not_found_error', message: expect.stringContaining('claude-no-such-model') } } });
    });
  });
});
