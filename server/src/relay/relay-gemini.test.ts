import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, GoogleGenAI, type Content, type GenerateContentResponse, type Tool } from '@google/genai';
import { testDatabases } from '../test/databases.js';
import { startRelay, type RelayFixture } from '../test/relay-fixture.js';
import { billing, costOf as costAt, setPrices, type Price, type Tokens } from '../test/billing.js';
import { DEFAULT_CHUNKS, MOCK_USAGE, startMockOpenAI, type MockOpenAI } from '../test/mock-openai.js';
import { startGeminiMock, type GeminiMock } from '../test/mocks/gemini.js';
import { startClaudeMock, type ClaudeMock } from '../test/mocks/claude.js';
import { startVertexMock, testServiceAccount, type VertexMock } from '../test/mocks/vertex.js';
import { startBedrockMock, type BedrockMock } from '../test/mocks/bedrock.js';
import { startCohereMock, type CohereMock } from '../test/mocks/cohere.js';
import { startCloudflareMock, type CloudflareMock } from '../test/mocks/cloudflare.js';
import { countInputTokens } from './tokenizer.js';

/*
 * The official @google/genai SDK against Switchyard's Gemini endpoints, on every kind of channel: passed through
 * byte for byte to a Gemini channel, converted through the canonical chat shape to the others, billed exactly.
 */

const FLASH = 'gemini-2.5-flash';
const FN_CALL = 'gemini-2.5-flash-mock-function-call';
const THOUGHTS = 'gemini-2.5-flash-mock-thoughts';
const CACHED = 'gemini-2.5-flash-mock-cache-usage';
const SAFETY = 'gemini-2.5-flash-mock-safety';
const CUT = 'gemini-2.5-flash-mock-cut';
const NO_USAGE = 'gemini-2.5-flash-mock-no-usage';
const EMBED = 'gemini-embedding-001';
/** A client-facing name the Gemini channel maps to THOUGHTS. */
const ALIAS = 'gemini-alias';
const RATE_LIMITED = 'gemini-2.5-flash-mock-rate-limit';
const BAD_REQUEST = 'gemini-2.5-flash-mock-bad-request';
const DENIED = 'gemini-2.5-flash-mock-permission-denied';
const GPT = 'gpt-4o-mini';
const OPENAI_EMBED = 'text-embedding-3-small';
const CLAUDE = 'claude-haiku-4-5';
const VERTEX_GEMINI = 'gemini-2.5-pro';
const VERTEX_CLAUDE = 'claude-sonnet-4-5';
const BEDROCK = 'claude-bedrock';
const COHERE = 'command-r-plus';
const COHERE_TOOLS = 'mock-tool-call';
const CLOUDFLARE = 'llama-3.1-8b-instruct';

const PRICES: Record<string, Price> = {
  [FLASH]: { ratio: 0.15, completion: 8 },
  [FN_CALL]: { ratio: 0.15, completion: 8 },
  [THOUGHTS]: { ratio: 0.15, completion: 8 },
  [CACHED]: { ratio: 0.15, completion: 8, cache: 0.25 },
  [SAFETY]: { ratio: 0.15, completion: 8 },
  [CUT]: { ratio: 0.15, completion: 8 },
  [NO_USAGE]: { ratio: 0.15, completion: 8 },
  [EMBED]: { ratio: 0.5, completion: 1 },
  [ALIAS]: { ratio: 0.5, completion: 3 },
  [RATE_LIMITED]: { ratio: 0.15, completion: 8 },
  [BAD_REQUEST]: { ratio: 0.15, completion: 8 },
  [DENIED]: { ratio: 0.15, completion: 8 },
  [GPT]: { ratio: 0.075, completion: 4 },
  [OPENAI_EMBED]: { ratio: 0.5, completion: 1 },
  [CLAUDE]: { ratio: 0.5, completion: 5 },
  [VERTEX_GEMINI]: { ratio: 0.625, completion: 8 },
  [VERTEX_CLAUDE]: { ratio: 1.5, completion: 5 },
  [BEDROCK]: { ratio: 1.5, completion: 5 },
  [COHERE]: { ratio: 1.25, completion: 4 },
  [COHERE_TOOLS]: { ratio: 1.25, completion: 4 },
  [CLOUDFLARE]: { ratio: 0.1, completion: 1 },
};

const GROUP_RATIO = 1;

const costOf = (model: string, t: Tokens): number => costAt(model, t, PRICES[model]);

/** What the SDK sent the relay and what it got back, recorded through the SDK's fetch hook. */
interface Exchange {
  url: string;
  headers: Headers;
  body: string;
  /** The answer's bytes (null when the connection broke). */
  answer: Promise<Buffer | null>;
}

const WEATHER_TOOL: Tool = {
  functionDeclarations: [
    {
      name: 'get_weather',
      description: 'Current weather in a city',
      parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string' } }, required: ['city'] },
    },
  ],
};

describe.each(testDatabases(['sqlite']))('@google/genai against the relay on $name', (database) => {
  let f: RelayFixture;
  let gemini: GeminiMock;
  let openai: MockOpenAI;
  let claude: ClaudeMock;
  let vertex: VertexMock;
  let cohere: CohereMock;
  let cloudflare: CloudflareMock;
  let bedrock: BedrockMock;
  let key: string;
  let ai: GoogleGenAI;
  const exchanges: Exchange[] = [];

  /** An SDK client with the token's key (sent as x-goog-api-key) that records its exchanges with the relay. */
  function sdk(apiKey: string): GoogleGenAI {
    const recording: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      exchanges.push({
        url: String(input),
        headers: new Headers(init?.headers),
        body: typeof init?.body === 'string' ? init.body : '',
        answer: res
          .clone()
          .arrayBuffer()
          .then(
            (b) => Buffer.from(b),
            () => null,
          ),
      });
      return res;
    };
    return new GoogleGenAI({ apiKey, httpOptions: { baseUrl: f.baseUrl, fetch: recording } });
  }

  const { charged, free } = billing(() => f);

  function expectBilled(c: Awaited<ReturnType<typeof charged>>, model: string, t: Tokens, stream: boolean) {
    const quota = costOf(model, t);
    expect(c.spent).toBe(quota);
    expect(c.log).toMatchObject({ model_name: model, quota, prompt_tokens: t.prompt, completion_tokens: t.completion, is_stream: stream ? 1 : 0 });
    const other = JSON.parse(c.log.other) as Record<string, unknown>;
    expect(other).toMatchObject({ model_ratio: PRICES[model].ratio, completion_ratio: PRICES[model].completion, group_ratio: GROUP_RATIO });
    if (t.cached) expect(other.cache_tokens).toBe(t.cached);
    return other;
  }

  /** A raw call to the relay's Gemini API. */
  async function raw(path: string, init: { key?: string | null; query?: string; body?: string; method?: string } = {}) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (init.key !== null) headers['x-goog-api-key'] = init.key ?? key;
    const res = await fetch(`${f.baseUrl}${path}${init.query ?? ''}`, { method: init.method ?? 'POST', headers, body: init.body });
    const text = await res.text();
    let json: Record<string, unknown> | null = null;
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      json = null;
    }
    return { status: res.status, text, json, contentType: res.headers.get('content-type') ?? '' };
  }

  async function sdkError(run: () => Promise<unknown>): Promise<{ status: number; body: { error: { code: number; message: string; status: string } } }> {
    try {
      await run();
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      const e = err as ApiError;
      return { status: e.status, body: JSON.parse(e.message) as { error: { code: number; message: string; status: string } } };
    }
    throw new Error('the call did not fail');
  }

  async function readStream(events: AsyncGenerator<GenerateContentResponse>) {
    const chunks: GenerateContentResponse[] = [];
    for await (const event of events) chunks.push(event);
    const text = chunks.map((c) => (c.candidates?.[0]?.content?.parts ?? []).map((p) => (p.text && !p.thought ? p.text : '')).join('')).join('');
    return { chunks, text, last: chunks.at(-1) };
  }

  beforeAll(async () => {
    const account = testServiceAccount('relay-gemini-project');
    const aws = { accessKeyId: 'AKIAMOCKGEMINI000001', secretAccessKey: 'mockSecretKeyForTheGeminiClientTests0000', region: 'us-east-1' };
    bedrock = await startBedrockMock(aws);
    [gemini, openai, claude, cohere, cloudflare, vertex] = await Promise.all([
      startGeminiMock(),
      startMockOpenAI(),
      startClaudeMock(),
      startCohereMock(),
      startCloudflareMock(),
      startVertexMock({ keyPair: { publicKey: account.publicKeyPem }, clientEmail: account.clientEmail, projectId: account.projectId, privateKeyId: account.privateKeyId }),
    ]);
    f = await startRelay(database);
    await setPrices(f, PRICES);
    await f.channel({
      type: 24,
      base_url: gemini.url,
      key: gemini.key,
      models: [FLASH, FN_CALL, THOUGHTS, CACHED, SAFETY, CUT, NO_USAGE, EMBED, ALIAS].join(','),
      model_mapping: JSON.stringify({ [ALIAS]: THOUGHTS }),
    });
    // Upstream refusals must not disable the channel the other tests use.
    await f.channel({ type: 24, base_url: gemini.url, key: gemini.key, models: [RATE_LIMITED, BAD_REQUEST, DENIED].join(','), auto_ban: 0 });
    await f.channel({ type: 1, base_url: openai.url, key: openai.key, models: [GPT, OPENAI_EMBED].join(',') });
    await f.channel({ type: 14, base_url: claude.url, key: claude.key, models: CLAUDE });
    await f.channel({ type: 41, base_url: vertex.url, key: account.key(`${vertex.url}/token`), other: 'us-east5', models: [VERTEX_GEMINI, VERTEX_CLAUDE].join(',') });
    await f.channel({ type: 34, base_url: cohere.url, key: cohere.key, models: [COHERE, COHERE_TOOLS].join(',') });
    await f.channel({ type: 33, base_url: bedrock.url, key: `${aws.accessKeyId}|${aws.secretAccessKey}|${aws.region}`, models: BEDROCK });
    await f.channel({
      type: 39,
      base_url: cloudflare.url,
      key: cloudflare.key,
      other: cloudflare.accountId,
      models: CLOUDFLARE,
      model_mapping: JSON.stringify({ [CLOUDFLARE]: '@cf/meta/llama-3.1-8b-instruct' }),
    });
    key = (await f.token()).key;
    ai = sdk(key);
  });

  afterAll(async () => {
    await f.close();
    await Promise.all([gemini, openai, claude, vertex, cohere, cloudflare, bedrock].map((m) => m.close()));
  });

  describe('on a Gemini channel, passed through', () => {
    it('relays generateContent byte for byte both ways and bills the upstream usage', async () => {
      let resp!: GenerateContentResponse;
      const c = await charged(async () => {
        resp = await ai.models.generateContent({ model: FLASH, contents: 'Say hi', config: { temperature: 0.3, maxOutputTokens: 64 } });
      });
      expect(resp.text).toBe('Hello from the Gemini mock.');
      const sent = exchanges.at(-1)!;
      expect(sent.headers.get('x-goog-api-key')).toBe(key);
      const upstream = gemini.requests.at(-1)!;
      expect(upstream.path).toBe(`/v1beta/models/${FLASH}:generateContent`);
      expect(upstream.headers['x-goog-api-key']).toBe(gemini.key);
      expect(upstream.body.equals(Buffer.from(sent.body))).toBe(true);
      expect((await sent.answer)!.equals(upstream.response.body)).toBe(true);
      expectBilled(c, FLASH, { prompt: 8, completion: 7 }, false);
    });

    it('relays generateContentStream event for event and bills the last usage', async () => {
      let out!: Awaited<ReturnType<typeof readStream>>;
      const c = await charged(async () => {
        out = await readStream(await ai.models.generateContentStream({ model: FLASH, contents: 'Say hi' }));
      });
      expect(out.text).toBe('Hello from the Gemini mock.');
      expect(out.chunks).toHaveLength(3);
      expect(out.last?.candidates?.[0]?.finishReason).toBe('STOP');
      expect(out.last?.usageMetadata?.totalTokenCount).toBe(15);
      const sent = exchanges.at(-1)!;
      const upstream = gemini.requests.at(-1)!;
      expect(upstream.path).toBe(`/v1beta/models/${FLASH}:streamGenerateContent`);
      expect(upstream.query.alt).toBe('sse');
      expect(upstream.body.equals(Buffer.from(sent.body))).toBe(true);
      expect((await sent.answer)!.equals(upstream.response.body)).toBe(true);
      expectBilled(c, FLASH, { prompt: 8, completion: 7 }, true);
    });

    it('hands a function call to the SDK with its thought signature intact', async () => {
      let resp!: GenerateContentResponse;
      const c = await charged(async () => {
        resp = await ai.models.generateContent({ model: FN_CALL, contents: 'Weather in Paris?', config: { tools: [WEATHER_TOOL] } });
      });
      expect(resp.functionCalls).toEqual([{ name: 'get_weather', args: { city: 'Paris', unit: 'celsius' } }]);
      expect(resp.candidates?.[0]?.content?.parts?.[1]?.thoughtSignature).toBe('CiQBMockThoughtSignatureForSwitchyard0001');
      expect(gemini.requests.at(-1)!.body.equals(Buffer.from(exchanges.at(-1)!.body))).toBe(true);
      expectBilled(c, FN_CALL, { prompt: 60, completion: 12 }, false);
    });

    it('streams a function call with its thought signature and sends the signed history back untouched', async () => {
      let out!: Awaited<ReturnType<typeof readStream>>;
      const c = await charged(async () => {
        out = await readStream(await ai.models.generateContentStream({ model: FN_CALL, contents: 'Weather in Paris?', config: { tools: [WEATHER_TOOL] } }));
      });
      const call = out.chunks.flatMap((ch) => ch.candidates?.[0]?.content?.parts ?? []).find((p) => p.functionCall);
      expect((await exchanges.at(-1)!.answer)!.equals(gemini.requests.at(-1)!.response.body)).toBe(true);
      expect(call).toMatchObject({ functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'CiQBMockThoughtSignatureForSwitchyard0001' });
      expectBilled(c, FN_CALL, { prompt: 60, completion: 12 }, true);

      const history: Content[] = [
        { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
        { role: 'model', parts: [call!] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temperature: 21 } } }] },
      ];
      await ai.models.generateContent({ model: FLASH, contents: history, config: { tools: [WEATHER_TOOL] } });
      const upstream = gemini.requests.at(-1)!;
      expect(upstream.body.equals(Buffer.from(exchanges.at(-1)!.body))).toBe(true);
      expect((upstream.json!.contents as Content[])[1].parts![0].thoughtSignature).toBe('CiQBMockThoughtSignatureForSwitchyard0001');
    });

    it('bills thoughtsTokenCount as completion tokens', async () => {
      let resp!: GenerateContentResponse;
      const c = await charged(async () => {
        resp = await ai.models.generateContent({ model: THOUGHTS, contents: '2+2?', config: { thinkingConfig: { includeThoughts: true } } });
      });
      expect(resp.text).toBe('2 + 2 = 4.');
      expect(resp.usageMetadata?.thoughtsTokenCount).toBe(38);
      expectBilled(c, THOUGHTS, { prompt: 10, completion: 8 + 38 }, false);

      const s = await charged(async () => {
        const out = await readStream(await ai.models.generateContentStream({ model: THOUGHTS, contents: '2+2?' }));
        expect(out.text).toBe('2 + 2 = 4.');
      });
      expectBilled(s, THOUGHTS, { prompt: 10, completion: 8 + 38 }, true);
    });

    it('bills cached prompt tokens at the cache ratio', async () => {
      const c = await charged(() => ai.models.generateContent({ model: CACHED, contents: 'About the cached document…' }));
      expectBilled(c, CACHED, { prompt: 2100, completion: 6, cached: 2048 }, false);
      const s = await charged(async () => readStream(await ai.models.generateContentStream({ model: CACHED, contents: 'About the cached document…' })));
      expectBilled(s, CACHED, { prompt: 2100, completion: 6, cached: 2048 }, true);
    });

    it('sends a mapped model upstream in the URL, keeps the body as sent and bills the requested model', async () => {
      let resp!: GenerateContentResponse;
      const c = await charged(async () => {
        resp = await ai.models.generateContent({ model: ALIAS, contents: '2+2?' });
      });
      expect(resp.text).toBe('2 + 2 = 4.');
      const upstream = gemini.requests.at(-1)!;
      expect(upstream.path).toBe(`/v1beta/models/${THOUGHTS}:generateContent`);
      expect(upstream.body.equals(Buffer.from(exchanges.at(-1)!.body))).toBe(true);
      const other = expectBilled(c, ALIAS, { prompt: 10, completion: 46 }, false);
      expect(other).toMatchObject({ is_model_mapped: true, upstream_model_name: THOUGHTS });
    });

    it('asks Gemini’s countTokens, without charging', async () => {
      const calls = gemini.requests.length;
      await free(async () => {
        const res = await ai.models.countTokens({ model: FLASH, contents: 'How many tokens is this sentence?' });
        expect(res.totalTokens).toBe(8);
      });
      expect(gemini.requests.length).toBe(calls + 1);
    });

    it('relays embedContent for one and for several contents as batchEmbedContents, billed by counted input', async () => {
      let one!: Awaited<ReturnType<GoogleGenAI['models']['embedContent']>>;
      const c1 = await charged(async () => {
        one = await ai.models.embedContent({ model: EMBED, contents: 'What is the meaning of life?' });
      });
      expect(one.embeddings).toHaveLength(1);
      expect(one.embeddings![0].values).toHaveLength(8);
      expect(one.embeddings![0].values![0]).toBeCloseTo(-0.054402);
      let upstream = gemini.requests.at(-1)!;
      expect(upstream.path).toBe(`/v1beta/models/${EMBED}:batchEmbedContents`);
      expect(upstream.body.equals(Buffer.from(exchanges.at(-1)!.body))).toBe(true);
      expectBilled(c1, EMBED, { prompt: countInputTokens(['What is the meaning of life?'], EMBED), completion: 0 }, false);

      const texts = ['How do I get a driver license?', 'How long is it valid?', 'What is the fee?'];
      let many!: typeof one;
      const c3 = await charged(async () => {
        many = await ai.models.embedContent({ model: EMBED, contents: texts });
      });
      expect(many.embeddings?.map((e) => e.values?.length)).toEqual([8, 8, 8]);
      upstream = gemini.requests.at(-1)!;
      expect((upstream.json!.requests as unknown[]).length).toBe(3);
      expect(c3.log.prompt_tokens).toBe(countInputTokens(texts, EMBED));
      expectBilled(c3, EMBED, { prompt: c3.log.prompt_tokens, completion: 0 }, false);
    });

    it('relays a single :embedContent as is', async () => {
      const body = JSON.stringify({ content: { parts: [{ text: 'hello world' }] } });
      const res = await raw(`/v1beta/models/${EMBED}:embedContent`, { body });
      expect(res.status).toBe(200);
      expect((res.json!.embedding as { values: number[] }).values).toHaveLength(8);
      const upstream = gemini.requests.at(-1)!;
      expect(upstream.path).toBe(`/v1beta/models/${EMBED}:embedContent`);
      expect(upstream.body.toString()).toBe(body);
      expect(res.text).toBe(upstream.response.body.toString());
    });

    it('lists the token’s models for models.list', async () => {
      const limited = await f.token({ model_limits_enabled: true, model_limits: `${FLASH},${EMBED}` });
      const names: string[] = [];
      for await (const m of await sdk(limited.key).models.list()) names.push(m.name ?? '');
      expect(names).toEqual([`models/${FLASH}`, `models/${EMBED}`]);

      const all: string[] = [];
      for await (const m of await ai.models.list()) all.push(m.name ?? '');
      expect(all).toEqual(expect.arrayContaining([FLASH, ALIAS, GPT, CLAUDE, VERTEX_GEMINI].map((m) => `models/${m}`)));
    });

    it.each([
      [RATE_LIMITED, 429, 'RESOURCE_EXHAUSTED'],
      [BAD_REQUEST, 400, 'INVALID_ARGUMENT'],
      // The upstream refused the channel's key: the gateway's failure, not the caller's.
      [DENIED, 502, 'UNAVAILABLE'],
    ])('answers an upstream refusal of %s in Gemini’s error shape (%i) and charges nothing', async (model, status, name) => {
      let err!: Awaited<ReturnType<typeof sdkError>>;
      await free(async () => {
        err = await sdkError(() => ai.models.generateContent({ model, contents: 'hi' }));
      });
      expect(err.status).toBe(status);
      expect(err.body.error).toMatchObject({ code: status, status: name, message: expect.any(String) });
      expect(err.body.error.message).not.toContain(gemini.url);
      expect(err.body.error.message).not.toContain(gemini.key);

      const res = await raw(`/v1beta/models/${model}:streamGenerateContent`, { query: '?alt=sse', body: JSON.stringify({ contents: [{ parts: [{ text: 'hi' }] }] }) });
      expect(res.status).toBe(status);
      expect(res.contentType).toContain('application/json');
      expect(Object.keys(res.json!)).toEqual(['error']);
      expect(res.json!.error).toMatchObject({ code: status, status: name });
    });

    it('passes a SAFETY block through and bills the prompt only', async () => {
      let resp!: GenerateContentResponse;
      const c = await charged(async () => {
        resp = await ai.models.generateContent({ model: SAFETY, contents: 'something dangerous' });
      });
      expect(resp.candidates?.[0]?.finishReason).toBe('SAFETY');
      expect(resp.text).toBeUndefined();
      expectBilled(c, SAFETY, { prompt: 12, completion: 0 }, false);

      const s = await charged(async () => {
        const out = await readStream(await ai.models.generateContentStream({ model: SAFETY, contents: 'something dangerous' }));
        expect(out.last?.candidates?.[0]?.finishReason).toBe('SAFETY');
      });
      expectBilled(s, SAFETY, { prompt: 12, completion: 0 }, true);
    });

    it('ends a stream cut mid-way with what arrived, then a Gemini error event, and bills the last usage seen', async () => {
      const seen: string[] = [];
      let failure: unknown;
      const c = await charged(async () => {
        try {
          for await (const ch of await ai.models.generateContentStream({ model: CUT, contents: 'Tell me something' })) seen.push(ch.text ?? '');
        } catch (err) {
          failure = err;
        }
      });
      expect(seen.join('')).toBe('This answer is cut');
      expect(failure).toBeInstanceOf(ApiError);
      expect((failure as ApiError).status).toBe(502);
      expect(gemini.requests.at(-1)!.response.cut).toBe(true);
      expectBilled(c, CUT, { prompt: 8, completion: 4 }, true);
    });

    it('counts a passed-through stream itself when the upstream reports no usage', async () => {
      let out!: Awaited<ReturnType<typeof readStream>>;
      const c = await charged(async () => {
        out = await readStream(await ai.models.generateContentStream({ model: NO_USAGE, contents: 'Hello there, how are you?' }));
      });
      expect(out.text).toBe('Hello without usage.');
      expect(c.log.content).toContain('本地计算');
      expect(c.log.prompt_tokens).toBeGreaterThan(3);
      expect(c.log.completion_tokens).toBeGreaterThan(2);
      expectBilled(c, NO_USAGE, { prompt: c.log.prompt_tokens, completion: c.log.completion_tokens }, true);
    });

    it('counts a passed-through answer itself, output included, when the upstream reports no usage', async () => {
      let resp!: GenerateContentResponse;
      const c = await charged(async () => {
        resp = await ai.models.generateContent({ model: NO_USAGE, contents: 'Hello there, how are you?' });
      });
      expect(resp.text).toBe('Hello without usage.');
      expect(c.log.content).toContain('本地计算');
      // "Hello without usage." is four tokens or more in any tokenizer.
      expect(c.log.completion_tokens).toBeGreaterThanOrEqual(4);
      expectBilled(c, NO_USAGE, { prompt: c.log.prompt_tokens, completion: c.log.completion_tokens }, false);
    });

    it('treats an answer cut before its end as a failed attempt: Gemini-shaped 502, nothing charged', async () => {
      await free(async () => {
        const err = await sdkError(() => ai.models.generateContent({ model: CUT, contents: 'Tell me something' }));
        expect(err.status).toBe(502);
        expect(err.body.error.status).toBeTruthy();
      });
    });
  });

  describe('on an OpenAI channel, converted', () => {
    it('converts text and systemInstruction and answers in Gemini’s shape with usage', async () => {
      let resp!: GenerateContentResponse;
      const c = await charged(async () => {
        resp = await ai.models.generateContent({
          model: GPT,
          contents: 'Say hi',
          config: { systemInstruction: 'Be brief.', temperature: 0.2, maxOutputTokens: 100 },
        });
      });
      expect(resp.text).toBe(DEFAULT_CHUNKS.join(''));
      expect(resp.candidates?.[0]?.finishReason).toBe('STOP');
      expect(resp.usageMetadata).toMatchObject({ promptTokenCount: MOCK_USAGE.prompt_tokens, candidatesTokenCount: MOCK_USAGE.completion_tokens });
      const sent = openai.requests.at(-1)!;
      expect(sent.path).toBe('/v1/chat/completions');
      expect(sent.json).toMatchObject({
        model: GPT,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Say hi' },
        ],
        temperature: 0.2,
      });
      expectBilled(c, GPT, { prompt: 11, completion: 7 }, false);
    });

    it('streams, asking the upstream for usage and reporting it in the last event', async () => {
      let out!: Awaited<ReturnType<typeof readStream>>;
      const c = await charged(async () => {
        out = await readStream(await ai.models.generateContentStream({ model: GPT, contents: 'Say hi' }));
      });
      expect(out.text).toBe(DEFAULT_CHUNKS.join(''));
      expect(out.chunks.map((ch) => ch.candidates?.[0]?.finishReason).filter(Boolean)).toEqual(['STOP']);
      expect(out.last?.usageMetadata).toMatchObject({ promptTokenCount: 11, candidatesTokenCount: 7, totalTokenCount: 18 });
      expect(openai.requests.at(-1)!.json).toMatchObject({ stream: true, stream_options: { include_usage: true } });
      expectBilled(c, GPT, { prompt: 11, completion: 7 }, true);
    });

    it('sends tools, the model’s function call and the functionResponse as OpenAI tool messages', async () => {
      const history: Content[] = [
        { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
        { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temperature: 21 } } }] },
      ];
      const c = await charged(() => ai.models.generateContent({ model: GPT, contents: history, config: { tools: [WEATHER_TOOL] } }));
      const sent = openai.requests.at(-1)!.json as { tools: unknown[]; messages: Array<Record<string, unknown>> };
      expect(sent.tools).toEqual([
        { type: 'function', function: expect.objectContaining({ name: 'get_weather', parameters: expect.objectContaining({ type: 'object' }) }) },
      ]);
      const [user, assistant, tool] = sent.messages;
      expect(user).toMatchObject({ role: 'user' });
      expect(assistant).toMatchObject({ role: 'assistant', tool_calls: [{ type: 'function', function: { name: 'get_weather' } }] });
      const toolCall = (assistant.tool_calls as Array<{ id: string; function: { arguments: string } }>)[0];
      expect(JSON.parse(toolCall.function.arguments)).toEqual({ city: 'Paris' });
      expect(tool).toMatchObject({ role: 'tool', tool_call_id: toolCall.id });
      expect(JSON.parse(String(tool.content))).toEqual({ temperature: 21 });
      expectBilled(c, GPT, { prompt: 11, completion: 7 }, false);
    });

    it('converts embeddings both ways for one and several contents', async () => {
      let resp!: Awaited<ReturnType<GoogleGenAI['models']['embedContent']>>;
      const c = await charged(async () => {
        resp = await ai.models.embedContent({ model: OPENAI_EMBED, contents: ['first text', 'second text'] });
      });
      expect(resp.embeddings?.map((e) => e.values)).toEqual([
        [0.1, -0.2, 0.3],
        [0.1, -0.2, 0.3],
      ]);
      const sent = openai.requests.at(-1)!;
      expect(sent.path).toBe('/v1/embeddings');
      expect(sent.json).toMatchObject({ model: OPENAI_EMBED, input: ['first text', 'second text'] });
      expectBilled(c, OPENAI_EMBED, { prompt: MOCK_USAGE.prompt_tokens, completion: 0 }, false);

      const single = await raw(`/v1beta/models/${OPENAI_EMBED}:embedContent`, { body: JSON.stringify({ content: { parts: [{ text: 'only one' }] } }) });
      expect(single.status).toBe(200);
      expect(single.json).toEqual({ embedding: { values: [0.1, -0.2, 0.3] } });
    });

    it('counts tokens itself when the upstream reports no usage, streamed or not', async () => {
      openai.queue.push({ omitUsage: true });
      const c = await charged(() => ai.models.generateContent({ model: GPT, contents: 'Hello there, how are you today?' }));
      expect(c.log.content).toContain('本地计算');
      expect(c.log.prompt_tokens).toBeGreaterThan(3);
      expect(c.log.completion_tokens).toBeGreaterThan(3);
      expectBilled(c, GPT, { prompt: c.log.prompt_tokens, completion: c.log.completion_tokens }, false);

      openai.queue.push({ omitUsage: true });
      let out!: Awaited<ReturnType<typeof readStream>>;
      const s = await charged(async () => {
        out = await readStream(await ai.models.generateContentStream({ model: GPT, contents: 'Hello there, how are you today?' }));
      });
      expect(out.text).toBe(DEFAULT_CHUNKS.join(''));
      expect(out.last?.usageMetadata?.candidatesTokenCount).toBe(s.log.completion_tokens);
      expect(s.log.content).toContain('本地计算');
      expectBilled(s, GPT, { prompt: s.log.prompt_tokens, completion: s.log.completion_tokens }, true);
    });

    it('ends a converted stream cut mid-way with a Gemini error event and bills what was delivered', async () => {
      openai.queue.push({ cutAfter: 2 });
      const seen: string[] = [];
      let failure: unknown;
      const c = await charged(async () => {
        try {
          for await (const ch of await ai.models.generateContentStream({ model: GPT, contents: 'Say hi' })) seen.push(ch.text ?? '');
        } catch (err) {
          failure = err;
        }
      });
      expect(seen.join('')).toBe(DEFAULT_CHUNKS.slice(0, 2).join(''));
      expect(failure).toBeInstanceOf(ApiError);
      expect((failure as ApiError).status).toBe(502);
      expect(c.log.content).toContain('上游中断');
      expect(c.log.completion_tokens).toBeGreaterThan(0);
      expectBilled(c, GPT, { prompt: c.log.prompt_tokens, completion: c.log.completion_tokens }, true);
    });
  });

  describe('on other channel types, converted', () => {
    const cases = [
      { channel: 'Claude (14)', model: CLAUDE, text: 'Hello from the Claude mock.', usage: { prompt: 21, completion: 9 } },
      { channel: 'Vertex (41), a Gemini model passed through', model: VERTEX_GEMINI, text: 'Hello from Gemini on Vertex.', usage: { prompt: 9, completion: 27 } },
      { channel: 'Vertex (41), a Claude model converted', model: VERTEX_CLAUDE, text: 'Hello from Claude on Vertex.', usage: { prompt: 14, completion: 9 } },
      { channel: 'AWS Bedrock (33)', model: BEDROCK, text: 'Hello from Claude on Bedrock.', usage: { prompt: 14, completion: 9 } },
      { channel: 'Cohere (34)', model: COHERE, text: 'Hello from the Cohere mock.', usage: { prompt: 5, completion: 6 } },
      { channel: 'Cloudflare (39)', model: CLOUDFLARE, text: 'Hello from the Cloudflare mock.', usage: { prompt: 18, completion: 8 } },
    ];

    it.each(cases)('answers generateContent on $channel and bills its usage', async ({ model, text, usage }) => {
      let resp!: GenerateContentResponse;
      const c = await charged(async () => {
        resp = await ai.models.generateContent({ model, contents: 'Say hi', config: { systemInstruction: 'Be brief.', maxOutputTokens: 200 } });
      });
      expect(resp.text).toBe(text);
      expect(resp.candidates?.[0]?.finishReason).toBe('STOP');
      expectBilled(c, model, usage, false);
    });

    it.each(cases)('streams generateContentStream on $channel and bills its usage', async ({ model, text, usage }) => {
      let out!: Awaited<ReturnType<typeof readStream>>;
      const c = await charged(async () => {
        out = await readStream(await ai.models.generateContentStream({ model, contents: 'Say hi', config: { maxOutputTokens: 200 } }));
      });
      expect(out.text).toBe(text);
      expect(out.chunks.map((ch) => ch.candidates?.[0]?.finishReason).filter(Boolean)).toEqual(['STOP']);
      expectBilled(c, model, usage, true);
    });

    it('sends Vertex’s Gemini model the client’s bytes and Vertex’s Claude model a Messages body', async () => {
      await ai.models.generateContent({ model: VERTEX_GEMINI, contents: 'Say hi' });
      const g = vertex.requests.at(-1)!;
      expect(g.path).toContain(`/publishers/google/models/${VERTEX_GEMINI}:generateContent`);
      expect(g.body.equals(Buffer.from(exchanges.at(-1)!.body))).toBe(true);

      await ai.models.generateContent({ model: VERTEX_CLAUDE, contents: 'Say hi', config: { systemInstruction: 'Be brief.' } });
      const c = vertex.requests.at(-1)!;
      expect(c.path).toContain('/publishers/anthropic/models/');
      expect(c.json).toMatchObject({ anthropic_version: 'vertex-2023-10-16', system: expect.anything(), messages: [{ role: 'user' }] });
    });

    it('hands a Cohere tool call to the SDK as a function call', async () => {
      let resp!: GenerateContentResponse;
      const c = await charged(async () => {
        resp = await ai.models.generateContent({ model: COHERE_TOOLS, contents: 'Weather in Toronto?', config: { tools: [WEATHER_TOOL] } });
      });
      expect(resp.functionCalls).toEqual([{ name: 'get_weather', args: { location: 'Toronto' } }]);
      expect(cohere.requests.at(-1)!.json).toMatchObject({ tools: [{ type: 'function', function: { name: 'get_weather' } }] });
      expectBilled(c, COHERE_TOOLS, { prompt: 37, completion: 28 }, false);
    });
  });

  describe('authentication and malformed calls', () => {
    const body = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });

    it('takes the key from x-goog-api-key and from ?key=', async () => {
      const byHeader = await raw(`/v1beta/models/${FLASH}:generateContent`, { body });
      expect(byHeader.status).toBe(200);
      const byQuery = await raw(`/v1beta/models/${FLASH}:generateContent`, { key: null, query: `?key=${key}`, body });
      expect(byQuery.status).toBe(200);
      expect(byQuery.json).toMatchObject({ candidates: [{ content: { parts: [{ text: 'Hello from the Gemini mock.' }] } }] });
      const listed = await raw('/v1beta/models', { key: null, query: `?key=${key}`, method: 'GET' });
      expect(listed.status).toBe(200);
      expect((listed.json!.models as unknown[]).length).toBeGreaterThan(0);
    });

    it('refuses a bad or missing key in Gemini’s error shape', async () => {
      const err = await sdkError(() => sdk('sk-not-a-real-key').models.generateContent({ model: FLASH, contents: 'hi' }));
      expect(err).toEqual({ status: 401, body: { error: { code: 401, message: expect.any(String), status: 'UNAUTHENTICATED' } } });

      const missing = await raw(`/v1beta/models/${FLASH}:generateContent`, { key: null, body });
      expect(missing.status).toBe(401);
      expect(missing.json).toEqual({ error: { code: 401, message: expect.any(String), status: 'UNAUTHENTICATED' } });
    });

    it('refuses an unknown model in Gemini’s error shape', async () => {
      const err = await sdkError(() => ai.models.generateContent({ model: 'gemini-no-such-model', contents: 'hi' }));
      // As for every format: no channel serves the model in the caller's group, so it is not found.
      expect(err).toEqual({ status: 404, body: { error: { code: 404, message: expect.stringContaining('gemini-no-such-model'), status: 'NOT_FOUND' } } });
    });

    it('refuses malformed JSON and a body without contents with 400 in Gemini’s error shape', async () => {
      for (const bad of ['{"contents": [', JSON.stringify({ generationConfig: {} })]) {
        const res = await raw(`/v1beta/models/${FLASH}:generateContent`, { body: bad });
        expect(res.status).toBe(400);
        expect(res.json).toEqual({ error: { code: 400, message: expect.any(String), status: 'INVALID_ARGUMENT' } });
      }
    });
  });
});
