import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoutedChannel } from '../../../cache/routing.js';
import { DEFAULT_OPTIONS } from '../../../options/index.js';
import { type BedrockMock, startBedrockMock } from '../../../test/mocks/bedrock.js';
import type { ChatChunk } from '../../formats/openai/chat.js';
import type { ClientCall, UpstreamCall } from '../../types.js';
import { ClaudeSseSplitter, ClaudeStreamToChat } from '../claude/stream.js';
import { awsProvider } from './index.js';
import { bedrockBody, bedrockUrl } from './request.js';

const creds = { accessKeyId: 'AKIAMOCKBEDROCK00002', secretAccessKey: 'mock/secret+key/1111111111111111111111', region: 'us-east-1' };
const KEY = `${creds.accessKeyId}|${creds.secretAccessKey}|${creds.region}`;

function channel(baseUrl: string): RoutedChannel {
  return {
    id: 33, type: 33, name: 'bedrock', key: KEY, baseUrl, other: '', organization: '', testModel: '', models: [], groups: ['default'],
    modelMapping: {}, statusCodeMapping: {}, priority: 0, weight: 0, autoBan: true, status: 1, setting: {}, paramOverride: {},
  };
}

function claudeCall(model: string, stream: boolean, extra: Partial<ClientCall> = {}): ClientCall {
  const json = { model, max_tokens: 256, stream, messages: [{ role: 'user', content: 'Hello' }] };
  return { format: 'claude', mode: 'chat', model, stream, json, raw: Buffer.from(JSON.stringify(json)), clientWantsStreamUsage: false, maxTokens: 256, ...extra };
}

describe('Bedrock request body and URL', () => {
  it('drops model and stream, sets the Bedrock version and moves anthropic-beta into the body', () => {
    const body = bedrockBody({ model: 'm', stream: true, max_tokens: 5, messages: [], anthropic_version: '2023-06-01' }, 'interleaved-thinking-2025-05-14, computer-use-2025-01-24,');
    expect(body).toEqual({
      max_tokens: 5,
      messages: [],
      anthropic_version: 'bedrock-2023-05-31',
      anthropic_beta: ['interleaved-thinking-2025-05-14', 'computer-use-2025-01-24'],
    });
  });

  it('keeps betas already in the body, once each, and sends none when there are none', () => {
    const [a, b] = ['effort-2025-11-24', 'context-management-2025-06-27'];
    expect(bedrockBody({ anthropic_beta: [a], max_tokens: 1 }, `${a},${b}`).anthropic_beta).toEqual([a, b]);
    expect('anthropic_beta' in bedrockBody({ anthropic_beta: [], max_tokens: 1 }, undefined)).toBe(false);
  });

  it('leaves out and names the flags Bedrock refuses (Claude Code’s own), unless the operator set them for the model', () => {
    const dropped: string[] = [];
    const header = 'claude-code-20250219,interleaved-thinking-2025-05-14,advanced-tool-use-2025-11-20,prompt-caching-scope-2026-01-05';
    const body = bedrockBody({ max_tokens: 1, messages: [] }, header, { dropped, configured: new Set(['prompt-caching-scope-2026-01-05']) });
    expect(body.anthropic_beta).toEqual(['interleaved-thinking-2025-05-14', 'prompt-caching-scope-2026-01-05']);
    expect(dropped).toEqual(['anthropic-beta=claude-code-20250219', 'anthropic-beta=advanced-tool-use-2025-11-20']);
    expect('anthropic_beta' in bedrockBody({ max_tokens: 1, messages: [] }, 'claude-code-20250219')).toBe(false);
  });

  it('addresses the Region endpoint with the model id percent-encoded', () => {
    expect(bedrockUrl('', 'eu-west-1', 'eu.anthropic.claude-3-7-sonnet-20250219-v1:0', false)).toBe(
      'https://bedrock-runtime.eu-west-1.amazonaws.com/model/eu.anthropic.claude-3-7-sonnet-20250219-v1%3A0/invoke',
    );
    expect(bedrockUrl('http://127.0.0.1:9/', 'us-east-1', 'm', true)).toBe('http://127.0.0.1:9/model/m/invoke-with-response-stream');
  });

  it('refuses a malformed channel key before signing', async () => {
    const up: UpstreamCall = { call: claudeCall('claude-3-haiku-20240307', false), channel: channel(''), upstreamModel: 'claude-3-haiku-20240307', key: 'sk-not-aws', options: DEFAULT_OPTIONS, wire: 'claude', converted: null };
    await expect(awsProvider.build(up)).rejects.toMatchObject({ code: 'invalid_channel_key', message: 'AWS 渠道密钥格式应为 AK|SK|Region' });
  });

  it('speaks Claude for chat only', () => {
    expect(awsProvider.types).toEqual([33]);
    expect(awsProvider.supports('chat', channel(''))).toBe(true);
    expect(awsProvider.supports('embeddings', channel(''))).toBe(false);
    const up = { call: claudeCall('m', false, { format: 'openai' }), channel: channel(''), upstreamModel: 'm', key: KEY, options: DEFAULT_OPTIONS };
    expect(awsProvider.wire(up)).toBe('claude');
  });
});

describe('AWS provider against the Bedrock mock', () => {
  let mock: BedrockMock;
  beforeAll(async () => {
    mock = await startBedrockMock(creds);
  });
  afterAll(() => mock.close());

  function upstreamCall(upstreamModel: string, stream: boolean, extra: Partial<UpstreamCall> = {}): UpstreamCall {
    return { call: claudeCall(upstreamModel, stream), channel: channel(mock.url), upstreamModel, key: KEY, options: DEFAULT_OPTIONS, wire: 'claude', converted: null, ...extra };
  }

  async function send(up: UpstreamCall) {
    const req = await awsProvider.build(up);
    const res = await request(req.url, { method: req.method, headers: req.headers, body: req.body as string });
    return { req, res };
  }

  async function invoke(up: UpstreamCall) {
    const { res } = await send(up);
    return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
  }

  /** The streamed answer as the pipeline reads it: stream adapter -> Claude SSE splitter -> Claude-to-chat. */
  async function stream(up: UpstreamCall) {
    const { res } = await send(up);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.amazon.eventstream');
    const adapt = awsProvider.streamAdapter!(up);
    const splitter = new ClaudeSseSplitter();
    const conv = new ClaudeStreamToChat(1_700_000_000);
    const chunks: ChatChunk[] = [];
    const sse: string[] = [];
    try {
      for await (const piece of res.body) {
        const bytes = adapt(piece as Buffer);
        sse.push(bytes.toString('utf8'));
        for (const e of splitter.push(bytes)) chunks.push(...conv.push(e.event, e.data));
      }
    } catch {
      // a cut stream ends with a socket error; what arrived before it counts
    }
    for (const e of splitter.finish()) chunks.push(...conv.push(e.event, e.data));
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    const finish = chunks.map((c) => c.choices[0]?.finish_reason).filter(Boolean);
    return { chunks, conv, text, finish, sse: sse.join('') };
  }

  it('sends a signed InvokeModel call the mock accepts, with the Bedrock body', async () => {
    const up = upstreamCall('claude-3-haiku-20240307', false);
    up.call.passHeaders = { 'anthropic-beta': 'token-efficient-tools-2025-02-19' };
    const r = await invoke(up);
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toMatchObject({ type: 'message', model: 'claude-3-haiku-20240307', content: [{ type: 'text', text: 'Hello from Claude on Bedrock.' }] });
    const seen = mock.requests.at(-1)!;
    expect(seen.path).toBe('/model/anthropic.claude-3-haiku-20240307-v1%3A0/invoke');
    expect(seen.json).toEqual({
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Hello' }],
      anthropic_version: 'bedrock-2023-05-31',
      anthropic_beta: ['token-efficient-tools-2025-02-19'],
    });
    expect(seen.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAMOCKBEDROCK00002\/\d{8}\/us-east-1\/bedrock\/aws4_request, SignedHeaders=accept;content-type;host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/);
  });

  it('applies the channel parameter overrides and the per-model beta settings to the client body', async () => {
    const up = upstreamCall('claude-3-haiku-20240307', false);
    up.channel = { ...up.channel, paramOverride: { temperature: 0.3 } };
    up.call.passHeaders = { 'anthropic-beta': 'effort-2025-11-24' };
    const settings = { 'claude-3-haiku-20240307': { 'anthropic-beta': ['context-1m-2025-08-07', 'effort-2025-11-24'] } };
    up.options = { get: ((k: string) => (k === 'claude.model_headers_settings' ? settings : DEFAULT_OPTIONS.get(k as never))) as typeof DEFAULT_OPTIONS.get };
    const r = await invoke(up);
    expect(r.status).toBe(200);
    expect(mock.requests.at(-1)!.json).toMatchObject({ temperature: 0.3, anthropic_beta: ['effort-2025-11-24', 'context-1m-2025-08-07'] });
  });

  it('sends a converted body to the inference profile of a profile-only model', async () => {
    const converted = { model: 'claude-sonnet-4-20250514', max_tokens: 100, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], stream: false };
    const up = upstreamCall('claude-sonnet-4-20250514-thinking', false, { converted });
    const r = await invoke(up);
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text).model).toBe('claude-sonnet-4-20250514');
    expect(mock.requests.at(-1)!.path).toBe('/model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/invoke');
    expect(mock.requests.at(-1)!.json).toEqual({ max_tokens: 100, messages: converted.messages, anthropic_version: 'bedrock-2023-05-31' });
  });

  it('streams text and usage', async () => {
    const s = await stream(upstreamCall('claude-3-5-sonnet-20241022', true));
    expect(mock.requests.at(-1)!.path).toBe('/model/anthropic.claude-3-5-sonnet-20241022-v2%3A0/invoke-with-response-stream');
    expect(s.text).toBe('Hello from Claude on Bedrock.');
    expect(s.finish).toEqual(['stop']);
    expect(s.conv.complete).toBe(true);
    expect(s.chunks[0].model).toBe('claude-3-5-sonnet-20241022');
    expect(s.conv.usage()).toEqual({ prompt_tokens: 14, completion_tokens: 9, total_tokens: 23, prompt_tokens_details: { cached_tokens: 0 }, cache_creation_input_tokens: 0 });
    expect(s.sse).toContain('"amazon-bedrock-invocationMetrics":{"inputTokenCount":14,"outputTokenCount":9');
  });

  it('streams tool calls', async () => {
    const s = await stream(upstreamCall('mock-tool-use', true));
    const calls = s.chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(calls[0]).toMatchObject({ index: 0, id: 'toolu_bdrk_01MockWeather000000000', type: 'function', function: { name: 'get_weather' } });
    expect(calls.map((c) => c.function?.arguments ?? '').join('')).toBe('{"city": "Paris", "unit": "celsius"}');
    expect(s.text).toBe("I'll look up the weather in Paris.");
    expect(s.finish).toEqual(['tool_calls']);
    expect(s.conv.usage()).toMatchObject({ prompt_tokens: 380, completion_tokens: 58 });
  });

  it('carries cache reads and writes in the streamed usage', async () => {
    const s = await stream(upstreamCall('mock-cache-usage', true));
    expect(s.conv.usage()).toEqual({
      prompt_tokens: 8 + 1200 + 3400,
      completion_tokens: 12,
      total_tokens: 8 + 1200 + 3400 + 12,
      prompt_tokens_details: { cached_tokens: 3400 },
      cache_creation_input_tokens: 1200,
    });
    expect(s.sse).toContain('"cacheReadInputTokenCount":3400,"cacheWriteInputTokenCount":1200');
  });

  it('reports no usage when the stream has none', async () => {
    const s = await stream(upstreamCall('mock-no-usage', true));
    expect(s.text).toBe('An answer that reports no usage.');
    expect(s.conv.complete).toBe(true);
    expect(s.conv.usage()).toBeNull();
  });

  it('keeps what arrived before a stream is cut', async () => {
    const s = await stream(upstreamCall('mock-cut', true));
    expect(s.text).toBe('This answer is cut before');
    expect(s.conv.complete).toBe(false);
    expect(s.finish).toEqual([]);
    expect(s.conv.usage()).toMatchObject({ prompt_tokens: 21, completion_tokens: 1 });
  });

  it('turns an exception frame mid-stream into a Claude error', async () => {
    const s = await stream(upstreamCall('mock-stream-exception', true));
    expect(s.text).toBe('Partial answer');
    expect(s.conv.complete).toBe(false);
    expect(s.conv.error).toEqual({ type: 'api_error', message: 'Model stream error: the model stopped responding mid-stream.' });
  });

  it.each([
    ['mock-validation', 400, 'ValidationException'],
    ['mock-throttling', 429, 'ThrottlingException'],
    ['mock-invalid-signature', 403, 'InvalidSignatureException'],
    ['mock-stream-exception', 424, 'ModelErrorException'],
  ])('reads the %s error answer', async (model, status, type) => {
    const r = await invoke(upstreamCall(model, false));
    expect(r.status).toBe(status);
    const parsed = awsProvider.parseError!(r.status, r.text, r.headers);
    expect(parsed).toMatchObject({ type, code: type });
    expect(parsed.message.length).toBeGreaterThan(10);
  });

  it('signs with the session token of temporary credentials', async () => {
    const sts = await startBedrockMock({ ...creds, sessionToken: 'FwoGZXIvYXdzEMOCKTOKEN//+=' });
    try {
      const up = { ...upstreamCall('claude-3-haiku-20240307', false), channel: channel(sts.url), key: `${KEY}|FwoGZXIvYXdzEMOCKTOKEN//+=` };
      const { req, res } = await send(up);
      expect(res.statusCode).toBe(200);
      await res.body.dump();
      expect(req.headers['x-amz-security-token']).toBe('FwoGZXIvYXdzEMOCKTOKEN//+=');
      expect(req.headers.authorization).toContain('x-amz-security-token');
      const without = await send({ ...up, key: KEY });
      expect(without.res.statusCode).toBe(403);
      await without.res.body.dump();
    } finally {
      await sts.close();
    }
  });
});
