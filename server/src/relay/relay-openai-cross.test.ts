import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';
import { billing, costOf as costAt, setPrices, type Price, type Tokens } from '../test/billing.js';
import { testServiceAccount } from '../test/mocks/vertex.js';
import { startNativeUpstreams, type NativeUpstream, type NativeUpstreams } from '../test/native-upstreams.js';
import { countTextTokens } from './tokenizer.js';

/*
 * The official openai SDK's chat completions against every channel type that does not speak OpenAI's chat body
 * (or speaks it under another path): Claude, Gemini, Bedrock, Vertex (Claude and Gemini models), Cohere,
 * Cloudflare, Zhipu (v4 and v3) and Baidu. Each lane is one channel type against its mock; every call's bill is checked against the formula for
 * the usage the upstream reported.
 */

/** One channel type under test: its models (each naming a mock case) and what the mock answers for them. */
interface Lane {
  name: string;
  /** The mock the lane's channel points at. */
  upstream: NativeUpstream;
  price: Price;
  /** The cache-read ratio the bill must use (the option, or the built-in one of the family). */
  cacheRatio: number;
  plain: { model: string; text: string; tokens: Tokens };
  tools?: { model: string; name: string; args: Record<string, unknown>; tokens: Tokens };
  length?: { model: string; tokens: Tokens };
  cache?: { model: string; tokens: Tokens };
  noUsage: string;
  /** A stream that breaks off; absent where the relay cannot yet report the break (see the Cloudflare lane). */
  cut?: string;
  /** Prompt tokens the cut stream reported before it stopped (Claude's message_start), when it does. */
  cutPrompt?: number;
  errors: Array<[model: string, status: number]>;
  /** Client model -> upstream model, for mocks that pick the case from the whole model name. */
  mapping?: Record<string, string>;
}

const CLAUDE_PRICE = { ratio: 1.5, completion: 5 };
const GEMINI_PRICE = { ratio: 0.15, completion: 8 };

const LANES: Lane[] = [
  {
    name: 'Anthropic Claude (14)',
    upstream: 'claude',
    price: CLAUDE_PRICE,
    cacheRatio: 0.1,
    plain: { model: 'claude-haiku-4-5', text: 'Hello from the Claude mock.', tokens: { prompt: 21, completion: 9 } },
    tools: { model: 'claude-mock-tool-use', name: 'get_weather', args: { city: 'Paris', unit: 'celsius' }, tokens: { prompt: 380, completion: 58 } },
    length: { model: 'claude-mock-max-tokens', tokens: { prompt: 14, completion: 16 } },
    cache: { model: 'claude-mock-cache-usage', tokens: { prompt: 8 + 3400 + 1200, completion: 7, cached: 3400, created: 1200 } },
    noUsage: 'claude-mock-no-usage',
    cut: 'claude-mock-cut',
    cutPrompt: 21,
    errors: [
      ['claude-mock-bad-request', 400],
      ['claude-mock-rate-limit', 429],
      ['claude-mock-overloaded', 529],
    ],
  },
  {
    name: 'Google Gemini (24)',
    upstream: 'gemini',
    price: GEMINI_PRICE,
    cacheRatio: 0.25,
    plain: { model: 'gemini-2.5-flash', text: 'Hello from the Gemini mock.', tokens: { prompt: 8, completion: 7 } },
    tools: { model: 'gemini-2.5-flash-mock-function-call', name: 'get_weather', args: { city: 'Paris', unit: 'celsius' }, tokens: { prompt: 60, completion: 12 } },
    length: { model: 'gemini-2.5-flash-mock-max-tokens', tokens: { prompt: 9, completion: 16 } },
    cache: { model: 'gemini-2.5-flash-mock-cache-usage', tokens: { prompt: 2100, completion: 6, cached: 2048 } },
    noUsage: 'gemini-2.5-flash-mock-no-usage',
    cut: 'gemini-2.5-flash-mock-cut',
    errors: [
      ['gemini-2.5-flash-mock-bad-request', 400],
      // The upstream refused the channel's key: the gateway's failure, not the caller's (502).
      ['gemini-2.5-flash-mock-permission-denied', 502],
      ['gemini-2.5-flash-mock-rate-limit', 429],
      ['gemini-2.5-flash-mock-unavailable', 503],
    ],
  },
  {
    name: 'AWS Bedrock Claude (33)',
    upstream: 'bedrock',
    price: { ...CLAUDE_PRICE, cache: 0.3 },
    cacheRatio: 0.3,
    plain: { model: 'claude-bedrock', text: 'Hello from Claude on Bedrock.', tokens: { prompt: 14, completion: 9 } },
    tools: { model: 'claude-bedrock-mock-tool-use', name: 'get_weather', args: { city: 'Paris', unit: 'celsius' }, tokens: { prompt: 380, completion: 58 } },
    length: { model: 'claude-bedrock-mock-max-tokens', tokens: { prompt: 14, completion: 16 } },
    cache: { model: 'claude-bedrock-mock-cache-usage', tokens: { prompt: 8 + 3400 + 1200, completion: 12, cached: 3400, created: 1200 } },
    noUsage: 'claude-bedrock-mock-no-usage',
    cut: 'claude-bedrock-mock-cut',
    cutPrompt: 21,
    errors: [
      ['claude-bedrock-mock-validation', 400],
      ['claude-bedrock-mock-throttling', 429],
    ],
  },
  {
    name: 'Vertex AI, a Claude model (41)',
    upstream: 'vertex',
    price: CLAUDE_PRICE,
    cacheRatio: 0.1,
    plain: { model: 'claude-vertex', text: 'Hello from Claude on Vertex.', tokens: { prompt: 14, completion: 9 } },
    tools: { model: 'claude-vertex-mock-tools', name: 'get_weather', args: { city: 'Paris', unit: 'celsius' }, tokens: { prompt: 30 + 100 + 50, completion: 21, cached: 100, created: 50 } },
    length: { model: 'claude-vertex-mock-max-tokens', tokens: { prompt: 14, completion: 16 } },
    noUsage: 'claude-vertex-mock-no-usage',
    cut: 'claude-vertex-mock-cut',
    cutPrompt: 14,
    errors: [
      ['claude-vertex-mock-400', 400],
      ['claude-vertex-mock-429', 429],
    ],
  },
  {
    name: 'Vertex AI, a Gemini model (41)',
    upstream: 'vertex',
    price: GEMINI_PRICE,
    cacheRatio: 0.25,
    // Gemini counts thoughts apart from the answer; both are output.
    plain: { model: 'gemini-2.5-flash-vertex', text: 'Hello from Gemini on Vertex.', tokens: { prompt: 9, completion: 7 + 20 } },
    tools: { model: 'gemini-2.5-flash-vertex-mock-tools', name: 'get_weather', args: { city: 'Paris', unit: 'celsius' }, tokens: { prompt: 40, completion: 12 + 20, cached: 32 } },
    length: { model: 'gemini-2.5-flash-vertex-mock-max-tokens', tokens: { prompt: 9, completion: 16 } },
    noUsage: 'gemini-2.5-flash-vertex-mock-no-usage',
    cut: 'gemini-2.5-flash-vertex-mock-cut',
    errors: [
      ['gemini-2.5-flash-vertex-mock-400', 400],
      ['gemini-2.5-flash-vertex-mock-429', 429],
    ],
  },
  {
    name: 'Cohere (34)',
    upstream: 'cohere',
    price: { ratio: 0.25, completion: 3 },
    cacheRatio: 1,
    // Billed by Cohere's billed_units (what Cohere charges for), not its raw token counts.
    plain: { model: 'command-r', text: 'Hello from the Cohere mock.', tokens: { prompt: 5, completion: 6 } },
    tools: { model: 'command-r-tool-call', name: 'get_weather', args: { location: 'Toronto' }, tokens: { prompt: 37, completion: 28 } },
    length: { model: 'command-r-max-tokens', tokens: { prompt: 12, completion: 16 } },
    noUsage: 'command-r-no-usage',
    cut: 'command-r-cut',
    errors: [
      ['command-r-400', 400],
      ['command-r-429', 429],
    ],
    mapping: {
      'command-r-tool-call': 'mock-tool-call',
      'command-r-max-tokens': 'mock-max-tokens',
      'command-r-no-usage': 'mock-no-usage',
      'command-r-cut': 'mock-cut',
      'command-r-400': 'mock-400',
      'command-r-429': 'mock-429',
    },
  },
  {
    name: 'Cloudflare Workers AI (39)',
    upstream: 'cloudflare',
    price: { ratio: 0.1, completion: 2 },
    cacheRatio: 1,
    plain: { model: '@cf/meta/llama-3.1-8b-instruct', text: 'Hello from the Cloudflare mock.', tokens: { prompt: 18, completion: 8 } },
    tools: { model: '@cf/meta/llama-3.1-8b-instruct-tools', name: 'get_weather', args: { city: 'Paris' }, tokens: { prompt: 240, completion: 22 } },
    length: { model: '@cf/meta/llama-3.1-8b-instruct-length', tokens: { prompt: 18, completion: 16 } },
    noUsage: '@cf/meta/llama-3.1-8b-instruct-no-usage',
    cut: '@cf/meta/llama-3.1-8b-instruct-cut',
    errors: [
      ['@cf/meta/llama-3.1-8b-instruct-400', 400],
      ['@cf/meta/llama-3.1-8b-instruct-429', 429],
    ],
    mapping: {
      '@cf/meta/llama-3.1-8b-instruct-tools': 'mock-tool-call',
      '@cf/meta/llama-3.1-8b-instruct-length': 'mock-max-tokens',
      '@cf/meta/llama-3.1-8b-instruct-no-usage': 'mock-no-usage',
      '@cf/meta/llama-3.1-8b-instruct-cut': 'mock-cut',
      '@cf/meta/llama-3.1-8b-instruct-400': 'mock-400',
      '@cf/meta/llama-3.1-8b-instruct-429': 'mock-429',
    },
  },
  {
    name: 'Zhipu GLM v4 (26)',
    upstream: 'zhipu',
    price: { ratio: 0.05, completion: 1 },
    cacheRatio: 1,
    plain: { model: 'glm-4-flash', text: 'Hello from the Zhipu GLM mock.', tokens: { prompt: 9, completion: 8 } },
    tools: { model: 'glm-4-flash-tools', name: 'get_weather', args: { city: 'Beijing' }, tokens: { prompt: 152, completion: 12 } },
    length: { model: 'glm-4-flash-length', tokens: { prompt: 9, completion: 16 } },
    noUsage: 'glm-4-flash-no-usage',
    cut: 'glm-4-flash-cut',
    errors: [
      ['glm-4-flash-400', 400],
      ['glm-4-flash-429', 429],
    ],
    mapping: {
      'glm-4-flash-tools': 'mock-tool-call',
      'glm-4-flash-length': 'mock-max-tokens',
      'glm-4-flash-no-usage': 'mock-no-usage',
      'glm-4-flash-cut': 'mock-cut',
      'glm-4-flash-400': 'mock-400',
      'glm-4-flash-429': 'mock-429',
    },
  },
  {
    name: 'Zhipu ChatGLM v3 (16)',
    upstream: 'zhipuV3',
    price: { ratio: 0.3, completion: 1 },
    cacheRatio: 1,
    plain: { model: 'chatglm_turbo', text: 'Hello from the ChatGLM v3 mock.', tokens: { prompt: 12, completion: 9 } },
    noUsage: 'chatglm_turbo-no-usage',
    cut: 'chatglm_turbo-cut',
    // Zhipu v3 reports these in a 200 body: the status each code stands for.
    errors: [
      ['chatglm_turbo-prompt-too-long', 400],
      ['chatglm_turbo-concurrency', 429],
    ],
    mapping: {
      'chatglm_turbo-no-usage': 'mock-no-usage',
      'chatglm_turbo-cut': 'mock-cut',
      'chatglm_turbo-prompt-too-long': 'mock-prompt-too-long',
      'chatglm_turbo-concurrency': 'mock-concurrency',
    },
  },
  {
    name: 'Baidu ERNIE (15)',
    upstream: 'baidu',
    price: { ratio: 0.6, completion: 2 },
    cacheRatio: 1,
    plain: { model: 'ERNIE-3.5-8K', text: 'Hello from the ERNIE mock.', tokens: { prompt: 7, completion: 6 } },
    tools: { model: 'ERNIE-3.5-8K-tools', name: 'get_weather', args: { city: 'Shanghai' }, tokens: { prompt: 118, completion: 31 } },
    length: { model: 'ERNIE-3.5-8K-length', tokens: { prompt: 7, completion: 16 } },
    noUsage: 'ERNIE-3.5-8K-no-usage',
    cut: 'ERNIE-3.5-8K-cut',
    // Every ERNIE event carries the usage so far: the prompt of a cut stream is the upstream's.
    cutPrompt: 7,
    // Qianfan reports these in a 200 body: the status each code stands for.
    errors: [
      ['ERNIE-3.5-8K-invalid-param', 400],
      ['ERNIE-3.5-8K-rate-limit', 429],
    ],
    mapping: {
      'ERNIE-3.5-8K-tools': 'mock-tool-call',
      'ERNIE-3.5-8K-length': 'mock-max-tokens',
      'ERNIE-3.5-8K-no-usage': 'mock-no-usage',
      'ERNIE-3.5-8K-cut': 'mock-cut',
      'ERNIE-3.5-8K-invalid-param': 'mock-invalid-param',
      'ERNIE-3.5-8K-rate-limit': 'mock-rate-limit',
    },
  },
];

const modelsOf = (lane: Lane): string[] =>
  [lane.plain.model, lane.tools?.model, lane.length?.model, lane.cache?.model, lane.noUsage, lane.cut, ...lane.errors.map(([m]) => m)].filter(
    (m): m is string => typeof m === 'string',
  );

const costOf = (lane: Lane, model: string, t: Tokens): number => costAt(model, t, lane.price, lane.cacheRatio);

const hello: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Hello there' }];

const weatherTool: OpenAI.Chat.ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather of a city',
    parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string' } }, required: ['city'] },
  },
};

type Chunk = OpenAI.Chat.ChatCompletionChunk;

/** Reads a stream the way a client does: text, tool calls put together by index, the last finish_reason, usage chunks. */
async function readStream(stream: AsyncIterable<Chunk>) {
  const chunks: Chunk[] = [];
  let text = '';
  let finish: string | null = null;
  const calls = new Map<number, { id: string; name: string; args: string }>();
  for await (const chunk of stream) {
    chunks.push(chunk);
    for (const choice of chunk.choices) {
      text += choice.delta?.content ?? '';
      if (choice.finish_reason) finish = choice.finish_reason;
      for (const tc of choice.delta?.tool_calls ?? []) {
        const call = calls.get(tc.index) ?? { id: '', name: '', args: '' };
        if (tc.id) call.id = tc.id;
        if (tc.function?.name) call.name += tc.function.name;
        if (tc.function?.arguments) call.args += tc.function.arguments;
        calls.set(tc.index, call);
      }
    }
  }
  return { chunks, text, finish, calls: [...calls.values()], usage: chunks.filter((c) => c.usage).map((c) => c.usage!) };
}

describe.each(testDatabases(['sqlite']))('the openai SDK on non-OpenAI channels on $name', (database) => {
  let f: RelayFixture;
  let upstreams: NativeUpstreams;
  let client: OpenAI;

  const { quotaOf, lastLog, settled, expectCharge, uncharged } = billing(() => f);
  /** Runs a call and checks what it cost: the user's quota drop and its consume log both equal the formula. */
  const expectBill = <T>(lane: Lane, model: string, tokens: Tokens, call: () => Promise<T>) =>
    expectCharge(model, tokens, costOf(lane, model, tokens), call);

  beforeAll(async () => {
    const account = testServiceAccount('relay-openai-cross');
    const aws = { accessKeyId: 'AKIAMOCKCROSS0000001', secretAccessKey: 'mockSecretKeyForTheCrossFormatTests00000', region: 'us-east-1' };
    upstreams = await startNativeUpstreams({ account, aws });
    f = await startRelay(database);
    await setPrices(f, Object.fromEntries(LANES.flatMap((lane) => modelsOf(lane).map((m) => [m, lane.price]))));

    for (const lane of LANES) {
      // Upstream refusals (rate limits, bad keys) must not disable the channels the other tests use.
      await f.channel({ ...upstreams.channels[lane.upstream], models: modelsOf(lane).join(','), model_mapping: JSON.stringify(lane.mapping ?? {}), auto_ban: 0 });
    }
    client = f.client((await f.token()).key);
  });

  afterAll(async () => {
    await f.close();
    await upstreams.close();
  });

  describe.each(LANES)('$name', (lane) => {
    const { plain } = lane;

    it('answers a chat completion in OpenAI’s shape and bills the upstream usage', async () => {
      const { result } = await expectBill(lane, plain.model, plain.tokens, () => client.chat.completions.create({ model: plain.model, messages: hello, max_tokens: 64 }));
      expect(result).toMatchObject({
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: plain.text }, finish_reason: 'stop' }],
        usage: { prompt_tokens: plain.tokens.prompt, completion_tokens: plain.tokens.completion, total_tokens: plain.tokens.prompt + plain.tokens.completion },
      });
    });

    it('streams the answer without a usage chunk when the client did not ask for one', async () => {
      const { result } = await expectBill(lane, plain.model, plain.tokens, async () =>
        readStream(await client.chat.completions.create({ model: plain.model, messages: hello, max_tokens: 64, stream: true })),
      );
      expect(result.text).toBe(plain.text);
      expect(result.finish).toBe('stop');
      expect(result.usage).toEqual([]);
      expect((await lastLog()).is_stream).toBe(1);
    });

    it('streams the usage chunk last when the client asked for it (stream_options.include_usage)', async () => {
      const { result } = await expectBill(lane, plain.model, plain.tokens, async () =>
        readStream(
          await client.chat.completions.create({ model: plain.model, messages: hello, max_tokens: 64, stream: true, stream_options: { include_usage: true } }),
        ),
      );
      expect(result.text).toBe(plain.text);
      expect(result.usage).toHaveLength(1);
      expect(result.usage[0]).toMatchObject({ prompt_tokens: plain.tokens.prompt, completion_tokens: plain.tokens.completion });
      expect(result.chunks.at(-1)!.usage).toBeTruthy();
      expect(result.chunks.at(-1)!.choices).toEqual([]);
    });

    if (lane.tools) it('returns a tool call with finish_reason tool_calls, streamed and not', async () => {
      const tools = lane.tools!;
      const params = { model: tools.model, messages: [{ role: 'user' as const, content: 'Weather in Paris?' }], tools: [weatherTool], max_tokens: 256 };
      const { result } = await expectBill(lane, tools.model, tools.tokens, () => client.chat.completions.create(params));
      const choice = result.choices[0];
      expect(choice.finish_reason).toBe('tool_calls');
      expect(choice.message.tool_calls).toHaveLength(1);
      const call = choice.message.tool_calls![0] as OpenAI.Chat.ChatCompletionMessageFunctionToolCall;
      expect(call).toMatchObject({ type: 'function', id: expect.any(String), function: { name: tools.name } });
      expect(JSON.parse(call.function.arguments)).toEqual(tools.args);

      const { result: streamed } = await expectBill(lane, tools.model, tools.tokens, async () =>
        readStream(await client.chat.completions.create({ ...params, stream: true })),
      );
      expect(streamed.finish).toBe('tool_calls');
      expect(streamed.calls).toHaveLength(1);
      expect(streamed.calls[0]).toMatchObject({ id: expect.stringMatching(/.+/), name: tools.name });
      expect(JSON.parse(streamed.calls[0].args)).toEqual(tools.args);
    });

    if (lane.length) it('reports a cut-off answer as finish_reason length, streamed and not', async () => {
      const { model, tokens } = lane.length!;
      const params = { model, messages: hello, max_tokens: 16 };
      const { result } = await expectBill(lane, model, tokens, () => client.chat.completions.create(params));
      expect(result.choices[0].finish_reason).toBe('length');
      const { result: streamed } = await expectBill(lane, model, tokens, async () => readStream(await client.chat.completions.create({ ...params, stream: true })));
      expect(streamed.finish).toBe('length');
      expect(streamed.text).toBe(result.choices[0].message.content);
    });

    if (lane.cache) it('bills cached prompt tokens at the cache ratio, streamed and not', async () => {
      const { model, tokens } = lane.cache!;
      const { result, other } = await expectBill(lane, model, tokens, () => client.chat.completions.create({ model, messages: hello, max_tokens: 64 }));
      expect(result.usage).toMatchObject({ prompt_tokens: tokens.prompt, prompt_tokens_details: { cached_tokens: tokens.cached } });
      expect(other).toMatchObject({ cache_ratio: lane.cacheRatio, cache_tokens: tokens.cached });
      if (tokens.created) expect(other).toMatchObject({ cache_creation_tokens: tokens.created });
      await expectBill(lane, model, tokens, async () =>
        readStream(await client.chat.completions.create({ model, messages: hello, max_tokens: 64, stream: true, stream_options: { include_usage: true } })),
      );
    });

    it('counts the tokens itself when the upstream reports no usage, and says so in the log', async () => {
      const model = lane.noUsage;
      for (const stream of [false, true]) {
        await f.flush();
        const before = await quotaOf();
        const text = stream
          ? (await readStream(await client.chat.completions.create({ model, messages: hello, max_tokens: 64, stream: true }))).text
          : (await client.chat.completions.create({ model, messages: hello, max_tokens: 64 })).choices[0].message.content;
        expect(text).toBeTruthy();
        await settled();
        const log = await lastLog();
        expect(log).toMatchObject({ model_name: model, is_stream: stream ? 1 : 0 });
        expect(log.prompt_tokens).toBeGreaterThan(3);
        expect(log.completion_tokens).toBeGreaterThan(2);
        expect(log.quota).toBe(costOf(lane, model, { prompt: log.prompt_tokens, completion: log.completion_tokens }));
        expect(before - (await quotaOf())).toBe(log.quota);
        expect(log.content).toContain('上游未返回用量，本地计算');
      }
    });

    if (lane.cut) it('ends a stream cut mid-way with an error event and bills what was delivered', async () => {
      const model = lane.cut!;
      await f.flush();
      const before = await quotaOf();
      const stream = await client.chat.completions.create({ model, messages: hello, max_tokens: 64, stream: true });
      let text = '';
      const err = await (async () => {
        for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
      })().then(
        () => null,
        (e: unknown) => e,
      );
      expect(text.length).toBeGreaterThan(0);
      expect(err).toBeInstanceOf(OpenAI.APIError);
      expect((err as Error).message).toContain('上游连接中断');
      await settled();
      const log = await lastLog();
      expect(log).toMatchObject({ model_name: model, is_stream: 1 });
      // The prompt as the upstream reported it before the cut (Claude's message_start) or else counted here; the
      // output counted from the text the client got.
      if (lane.cutPrompt !== undefined) expect(log.prompt_tokens).toBe(lane.cutPrompt);
      expect(log.completion_tokens).toBe(countTextTokens(text, model));
      expect(log.content).toContain('上游中断');
      expect(log.quota).toBe(costOf(lane, model, { prompt: log.prompt_tokens, completion: log.completion_tokens }));
      expect(before - (await quotaOf())).toBe(log.quota);
    });

    it.each(lane.errors)('answers an upstream failure of %s in OpenAI’s error shape (%i) without charging', async (model, status) => {
      const err = (await uncharged(() => client.chat.completions.create({ model, messages: hello, max_tokens: 64 }))) as InstanceType<typeof OpenAI.APIError>;
      expect(err).toBeInstanceOf(OpenAI.APIError);
      expect(err.status).toBe(status);
      expect(err.error).toMatchObject({ message: expect.any(String), type: expect.any(String) });
      expect((err.error as { message: string }).message).not.toBe('');
    });
  });
});
