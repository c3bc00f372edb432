import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoutedChannel } from '../../../cache/routing.js';
import { startVertexMock, testServiceAccount, type VertexMock } from '../../../test/mocks/vertex.js';
import type { ClaudeResponse } from '../../formats/claude/types.js';
import type { GeminiResponse } from '../../formats/gemini/types.js';
import type { ChatChunk } from '../../formats/openai/chat.js';
import { DEFAULT_OPTIONS } from '../../../options/index.js';
import type { ClientCall, UpstreamCall, UpstreamRequest } from '../../types.js';
import { claudeToChatCompletion, ClaudeSseSplitter, ClaudeStreamToChat } from '../claude/index.js';
import { geminiToChatCompletion, GeminiStreamToChat, parseGeminiEvent, SseSplitter } from '../gemini/index.js';
import { parseVertexError } from './errors.js';
import { createVertexProvider } from './index.js';
import { AccessTokenCache, fetchAccessToken } from './token.js';

/** Vertex reads no settings. */
const NO_OPTIONS = DEFAULT_OPTIONS;

/* The provider's requests sent with undici to the local Vertex, and the answers read with the Claude and Gemini codecs. */

const account = testServiceAccount('relay-project');
let mock: VertexMock;
const provider = createVertexProvider(new AccessTokenCache());

beforeAll(async () => {
  mock = await startVertexMock({
    keyPair: { publicKey: account.publicKeyPem },
    clientEmail: account.clientEmail,
    projectId: account.projectId,
    privateKeyId: account.privateKeyId,
    locations: ['global', 'us-east5', 'europe-west1'],
  });
});
afterAll(() => mock.close());

function channel(over: Partial<RoutedChannel> = {}): RoutedChannel {
  return {
    id: 7, type: 41, name: 'vertex', key: account.key(`${mock.url}/token`), baseUrl: mock.url, other: 'us-east5', organization: '', testModel: '',
    models: [], groups: [], modelMapping: {}, statusCodeMapping: {}, priority: 0, weight: 0, autoBan: true, status: 1, setting: {}, paramOverride: {},
    ...over,
  };
}

const CLAUDE_BODY = { model: 'x', max_tokens: 256, messages: [{ role: 'user', content: 'Hello' }] };
const GEMINI_BODY = { contents: [{ role: 'user', parts: [{ text: 'Hello' }] }] };

function upstream(model: string, stream: boolean, over: Partial<RoutedChannel> = {}, p = provider): UpstreamCall {
  const claude = model.startsWith('claude');
  const json = claude ? { ...CLAUDE_BODY, model, ...(stream ? { stream: true } : {}) } : GEMINI_BODY;
  const call: ClientCall = {
    format: claude ? 'claude' : 'gemini', mode: 'chat', model, stream, json, raw: Buffer.from(JSON.stringify(json)),
    clientWantsStreamUsage: true, maxTokens: 0,
  };
  const ch = channel(over);
  const attempt = { call, channel: ch, upstreamModel: model, key: ch.key, options: NO_OPTIONS };
  return { ...attempt, wire: p.wire(attempt), converted: null };
}

interface Answer {
  status: number;
  body: Buffer;
  /** The body ended early (the connection was dropped). */
  cut: boolean;
}

async function send(req: UpstreamRequest): Promise<Answer> {
  const res = await request(req.url, { method: req.method, headers: req.headers, body: req.body as string | Buffer });
  const chunks: Buffer[] = [];
  let cut = false;
  try {
    for await (const c of res.body) chunks.push(c as Buffer);
  } catch {
    cut = true;
  }
  return { status: res.statusCode, body: Buffer.concat(chunks), cut };
}

async function call(model: string, stream = false, over: Partial<RoutedChannel> = {}): Promise<Answer> {
  return send(await provider.build(upstream(model, stream, over)));
}

/** Claude stream bytes, fed in small pieces, as chunks; and whether message_stop came. */
function readClaudeStream(body: Buffer): { chunks: ChatChunk[]; complete: boolean } {
  const splitter = new ClaudeSseSplitter();
  const conv = new ClaudeStreamToChat(1700000000);
  const chunks: ChatChunk[] = [];
  for (let i = 0; i < body.length; i += 37) for (const e of splitter.push(body.subarray(i, i + 37))) chunks.push(...conv.push(e.event, e.data));
  for (const e of splitter.finish()) chunks.push(...conv.push(e.event, e.data));
  return { chunks, complete: conv.complete };
}

function readGeminiStream(body: Buffer, model: string): ChatChunk[] {
  const splitter = new SseSplitter();
  const conv = new GeminiStreamToChat(model, { id: 'chatcmpl-test', created: 1700000000 });
  const chunks: ChatChunk[] = [];
  const feed = (data: string[]) => {
    for (const d of data) {
      const event = parseGeminiEvent(d);
      if (event) chunks.push(...conv.push(event));
    }
  };
  for (let i = 0; i < body.length; i += 41) feed(splitter.push(body.subarray(i, i + 41)));
  feed(splitter.finish());
  chunks.push(...conv.finish());
  return chunks;
}

const textOf = (chunks: ChatChunk[]) => chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
const finishOf = (chunks: ChatChunk[]) => chunks.map((c) => c.choices[0]?.finish_reason).filter(Boolean);
const usageOf = (chunks: ChatChunk[]) => chunks.filter((c) => c.usage).at(-1)?.usage ?? null;
function toolCallsOf(chunks: ChatChunk[]) {
  const calls: Array<{ id?: string; name?: string; arguments: string }> = [];
  for (const c of chunks) {
    for (const t of c.choices[0]?.delta.tool_calls ?? []) {
      const slot = (calls[t.index] ??= { arguments: '' });
      if (t.id) slot.id = t.id;
      if (t.function?.name) slot.name = t.function.name;
      slot.arguments += t.function?.arguments ?? '';
    }
  }
  return calls;
}

describe('Claude on Vertex', () => {
  it('answers a message through rawPredict', async () => {
    const a = await call('claude-sonnet-4-20250514');
    expect(a.status).toBe(200);
    const last = mock.requests.at(-1)!;
    expect(last.path).toBe('/v1/projects/relay-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514:rawPredict');
    expect(last.json).toEqual({ anthropic_version: 'vertex-2023-10-16', max_tokens: 256, messages: [{ role: 'user', content: 'Hello' }] });
    const done = claudeToChatCompletion(JSON.parse(a.body.toString()) as ClaudeResponse, 1700000000);
    expect(done.choices[0].message.content).toBe('Hello from Claude on Vertex.');
    expect(done.choices[0].finish_reason).toBe('stop');
    expect(done.usage).toMatchObject({ prompt_tokens: 14, completion_tokens: 9, total_tokens: 23 });
  });

  it('answers tool use with cache usage carried', async () => {
    const a = await call('claude-mock-tools-20250101');
    expect(mock.requests.at(-1)!.path).toMatch(/\/models\/claude-mock-tools@20250101:rawPredict$/);
    const done = claudeToChatCompletion(JSON.parse(a.body.toString()) as ClaudeResponse, 1700000000);
    expect(done.choices[0].finish_reason).toBe('tool_calls');
    expect(done.choices[0].message.tool_calls).toEqual([
      { id: 'toolu_vrtx_01A', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' } },
    ]);
    expect(done.usage).toEqual({
      prompt_tokens: 180, completion_tokens: 21, total_tokens: 201, prompt_tokens_details: { cached_tokens: 100 }, cache_creation_input_tokens: 50,
    });
  });

  it('streams text and usage through streamRawPredict', async () => {
    const a = await call('claude-sonnet-4-20250514', true);
    expect(mock.requests.at(-1)!.path).toMatch(/:streamRawPredict$/);
    expect(mock.requests.at(-1)!.json?.stream).toBe(true);
    const { chunks, complete } = readClaudeStream(a.body);
    expect(complete).toBe(true);
    expect(textOf(chunks)).toBe('Hello from Claude on Vertex.');
    expect(finishOf(chunks)).toEqual(['stop']);
    expect(usageOf(chunks)).toMatchObject({ prompt_tokens: 14, completion_tokens: 9 });
  });

  it('streams a tool call with its arguments in pieces', async () => {
    const { chunks } = readClaudeStream((await call('claude-mock-tools', true)).body);
    expect(toolCallsOf(chunks)).toEqual([{ id: 'toolu_vrtx_01A', name: 'get_weather', arguments: '{"city": "Paris", "unit": "celsius"}' }]);
    expect(finishOf(chunks)).toEqual(['tool_calls']);
    expect(usageOf(chunks)).toMatchObject({ prompt_tokens: 180, completion_tokens: 21, prompt_tokens_details: { cached_tokens: 100 }, cache_creation_input_tokens: 50 });
  });

  it('streams without usage when Vertex sends none', async () => {
    const { chunks } = readClaudeStream((await call('claude-mock-no-usage', true)).body);
    expect(textOf(chunks)).toBe('An answer without usage.');
    expect(usageOf(chunks)).toBeNull();
  });

  it('keeps what arrived of a stream cut mid-event', async () => {
    const a = await call('claude-mock-cut', true);
    expect(a.cut).toBe(true);
    const { chunks, complete } = readClaudeStream(a.body);
    expect(complete).toBe(false);
    expect(textOf(chunks)).toBe('Cut off');
  });

  it('reports Anthropic’s and Google’s error shapes', async () => {
    const bad = await call('claude-mock-400');
    expect(bad.status).toBe(400);
    expect(parseVertexError(400, bad.body.toString())).toEqual({ message: 'messages: at least one message is required', type: 'invalid_request_error', code: 'invalid_request_error' });
    const limited = await call('claude-mock-429', true);
    expect(limited.status).toBe(429);
    expect(parseVertexError(429, limited.body.toString())).toMatchObject({ type: 'RESOURCE_EXHAUSTED', code: 'RESOURCE_EXHAUSTED' });
  });

  it('is refused by the mock with a model in the body or without Vertex’s anthropic_version', async () => {
    const req = await provider.build(upstream('claude-sonnet-4-20250514', false));
    const withModel = await send({ ...req, body: JSON.stringify({ ...JSON.parse(req.body as string), model: 'claude-sonnet-4-20250514' }) });
    expect(withModel.status).toBe(400);
    expect(parseVertexError(400, withModel.body.toString()).message).toBe('model: Extra inputs are not permitted');
    const { anthropic_version: _v, ...noVersion } = JSON.parse(req.body as string) as Record<string, unknown>;
    const without = await send({ ...req, body: JSON.stringify(noVersion) });
    expect(without.status).toBe(400);
  });
});

describe('Gemini on Vertex', () => {
  it('answers through generateContent', async () => {
    const a = await call('gemini-2.5-flash', false, { other: JSON.stringify({ default: 'us-east5', 'gemini-2.5-flash': 'global' }) });
    expect(a.status).toBe(200);
    expect(mock.requests.at(-1)!.path).toBe('/v1/projects/relay-project/locations/global/publishers/google/models/gemini-2.5-flash:generateContent');
    expect(mock.requests.at(-1)!.body.toString()).toBe(JSON.stringify(GEMINI_BODY));
    const done = geminiToChatCompletion(JSON.parse(a.body.toString()) as GeminiResponse, 'gemini-2.5-flash', { created: 1700000000 });
    expect(done.choices[0].message.content).toBe('Hello from Gemini on Vertex.');
    expect(done.usage).toEqual({ prompt_tokens: 9, completion_tokens: 27, total_tokens: 36, completion_tokens_details: { reasoning_tokens: 20 } });
  });

  it('answers function calls with cached tokens', async () => {
    const done = geminiToChatCompletion(JSON.parse((await call('gemini-mock-tools')).body.toString()) as GeminiResponse, 'gemini-mock-tools');
    expect(done.choices[0].finish_reason).toBe('tool_calls');
    expect(done.choices[0].message.tool_calls?.[0].function).toEqual({ name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' });
    expect(done.usage).toMatchObject({ prompt_tokens: 40, completion_tokens: 32, prompt_tokens_details: { cached_tokens: 32 } });
  });

  it('answers without usage', async () => {
    const done = geminiToChatCompletion(JSON.parse((await call('gemini-mock-no-usage')).body.toString()) as GeminiResponse, 'm');
    expect(done.choices[0].message.content).toBe('An answer without usage.');
    expect(done.usage).toBeUndefined();
  });

  it('streams text and usage as SSE', async () => {
    const a = await call('gemini-2.5-flash', true);
    expect(mock.requests.at(-1)!.path).toBe('/v1/projects/relay-project/locations/us-east5/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    const chunks = readGeminiStream(a.body, 'gemini-2.5-flash');
    expect(textOf(chunks)).toBe('Hello from Gemini on Vertex.');
    expect(finishOf(chunks)).toEqual(['stop']);
    expect(usageOf(chunks)).toEqual({ prompt_tokens: 9, completion_tokens: 27, total_tokens: 36, completion_tokens_details: { reasoning_tokens: 20 } });
  });

  it('streams a function call', async () => {
    const chunks = readGeminiStream((await call('gemini-mock-tools', true)).body, 'm');
    expect(toolCallsOf(chunks)).toEqual([{ id: 'call_0', name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' }]);
    expect(finishOf(chunks)).toEqual(['tool_calls']);
    expect(usageOf(chunks)).toMatchObject({ prompt_tokens: 40, prompt_tokens_details: { cached_tokens: 32 } });
  });

  it('streams without usage', async () => {
    const chunks = readGeminiStream((await call('gemini-mock-no-usage', true)).body, 'm');
    expect(textOf(chunks)).toBe('An answer without usage.');
    expect(usageOf(chunks)).toBeNull();
  });

  it('keeps the text and last usage of a stream cut mid-event', async () => {
    const a = await call('gemini-mock-cut', true);
    expect(a.cut).toBe(true);
    const chunks = readGeminiStream(a.body, 'm');
    expect(textOf(chunks)).toBe('Cut off');
    expect(finishOf(chunks)).toEqual([]);
    expect(usageOf(chunks)).toMatchObject({ prompt_tokens: 9, completion_tokens: 2 });
  });

  it('reports bad requests and exhausted quota in Google’s shape', async () => {
    const bad = await call('gemini-mock-400');
    expect(bad.status).toBe(400);
    expect(parseVertexError(400, bad.body.toString())).toMatchObject({ type: 'INVALID_ARGUMENT', code: 'INVALID_ARGUMENT' });
    const limited = await call('gemini-mock-429', true);
    expect(limited.status).toBe(429);
    expect(parseVertexError(429, limited.body.toString())).toMatchObject({ type: 'RESOURCE_EXHAUSTED' });
  });
});

describe('access tokens against the mock', () => {
  it('one token serves many calls; an expired one is fetched again', async () => {
    const other = testServiceAccount('relay-project', 'second@relay-project.iam.gserviceaccount.com');
    const second = await startVertexMock({ publicKeyPem: other.publicKeyPem, clientEmail: other.clientEmail, projectId: other.projectId });
    try {
      const over = { key: other.key(`${second.url}/token`), baseUrl: second.url };
      // The cache's clock is moved; assertions are still signed at the real time the mock checks against.
      let now = Date.now();
      const clocked = createVertexProvider(new AccessTokenCache((sa) => fetchAccessToken(sa, Date.now()), () => now));
      const build = () => clocked.build(upstream('gemini-2.5-flash', false, over, clocked));
      const builds = await Promise.all(Array.from({ length: 8 }, build));
      expect(second.tokenRequests).toBe(1);
      expect(new Set(builds.map((b) => b.headers.authorization)).size).toBe(1);
      expect((await send(builds[0])).status).toBe(200);
      for (let i = 0; i < 3; i++) expect((await send(await build())).status).toBe(200);
      expect(second.tokenRequests).toBe(1);

      now += 3600_000;
      const renewed = await build();
      expect(second.tokenRequests).toBe(2);
      expect(renewed.headers.authorization).not.toBe(builds[0].headers.authorization);
      expect((await send(renewed)).status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('a failed token fetch is a 502 for this call only; the next call fetches again', async () => {
    const other = testServiceAccount('relay-project', 'third@relay-project.iam.gserviceaccount.com');
    const third = await startVertexMock({ publicKeyPem: other.publicKeyPem, clientEmail: other.clientEmail, projectId: other.projectId });
    try {
      const over = { key: other.key(`${third.url}/token`), baseUrl: third.url };
      third.failNextTokens = 1;
      const err = await Promise.resolve(provider.build(upstream('gemini-2.5-flash', false, over))).catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 502, code: 'vertex_token_failed', local: false });
      expect((err as Error).message).not.toContain('127.0.0.1');
      expect((await call('gemini-2.5-flash', false, over)).status).toBe(200);
      expect(third.tokenRequests).toBe(2);
    } finally {
      await third.close();
    }
  });

  it('the mock refuses an unknown or expired token in Google’s shape', async () => {
    const req = await provider.build(upstream('gemini-2.5-flash', false));
    const forged = await send({ ...req, headers: { ...req.headers, authorization: 'Bearer ya29.forged' } });
    expect(forged.status).toBe(401);
    expect(parseVertexError(401, forged.body.toString())).toMatchObject({ type: 'UNAUTHENTICATED' });
    const token = req.headers.authorization.slice('Bearer '.length);
    mock.tokens.set(token, Date.now() - 1);
    expect((await send(req)).status).toBe(401);
    mock.tokens.set(token, Date.now() + 3600_000);
  });

  it('the mock refuses another project or an unlisted location', async () => {
    const req = await provider.build(upstream('gemini-2.5-flash', false, { other: 'asia-east1' }));
    expect((await send(req)).status).toBe(404);
    const elsewhere = await send({ ...req, url: req.url.replace('/projects/relay-project/', '/projects/someone-else/').replace('asia-east1', 'us-east5') });
    expect(elsewhere.status).toBe(403);
  });
});

describe('the mock with a script', () => {
  const SCRIPTED = 'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"scripted"}]},"finishReason":"STOP"}]}\n\n';
  let scripted: VertexMock;
  const seen: string[] = [];

  beforeAll(async () => {
    scripted = await startVertexMock({
      publicKeyPem: account.publicKeyPem,
      clientEmail: account.clientEmail,
      projectId: account.projectId,
      script: (req) => {
        seen.push(req.path);
        return SCRIPTED;
      },
    });
  });
  afterAll(() => scripted.close());

  const over = () => ({ key: account.key(`${scripted.url}/token`), baseUrl: scripted.url });

  it('answers a stream call with the SSE text of its script, after the token checks', async () => {
    const req = await provider.build(upstream('gemini-2.5-flash', true, over()));
    const answer = await send(req);
    expect(answer.status).toBe(200);
    expect(answer.body.toString('utf8')).toBe(SCRIPTED);
    expect(seen).toEqual(['/v1/projects/relay-project/locations/us-east5/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse']);
    const forged = await send({ ...req, headers: { ...req.headers, authorization: 'Bearer ya29.forged' } });
    expect(forged.status).toBe(401);
    expect(seen).toHaveLength(1);
  });

  it('answers a call not streamed from its fixtures', async () => {
    const answer = await send(await provider.build(upstream('gemini-2.5-flash', false, over())));
    expect(answer.status).toBe(200);
    const done = geminiToChatCompletion(JSON.parse(answer.body.toString('utf8')) as GeminiResponse, 'gemini-2.5-flash');
    expect(done.choices[0].message.content).toBe('Hello from Gemini on Vertex.');
    expect(seen).toHaveLength(1);
  });
});
