import type { RoutedChannel } from '../../../cache/routing.js';
import { describe, expect, it } from 'vitest';
import { testServiceAccount } from '../../../test/mocks/vertex.js';
import { DEFAULT_OPTIONS } from '../../../options/index.js';
import type { ClientCall, ClientFormat, UpstreamCall } from '../../types.js';
import { createVertexProvider, vertexProvider } from './index.js';
import { parseServiceAccount } from './key.js';
import { AccessTokenCache } from './token.js';

/** Vertex reads no settings. */
const NO_OPTIONS = DEFAULT_OPTIONS;

const account = testServiceAccount('build-project');
const KEY = account.key('https://oauth2.googleapis.com/token');

function channel(over: Partial<RoutedChannel> = {}): RoutedChannel {
  return {
    id: 1, type: 41, name: 'vertex', key: KEY, baseUrl: '', other: '', organization: '', testModel: '', models: [], groups: [],
    modelMapping: {}, statusCodeMapping: {}, priority: 0, weight: 0, autoBan: true, status: 1, setting: {}, paramOverride: {},
    ...over,
  };
}

function upstream(opts: {
  model: string;
  format?: ClientFormat;
  json?: Record<string, unknown>;
  converted?: Record<string, unknown> | null;
  stream?: boolean;
  channel?: Partial<RoutedChannel>;
  passHeaders?: Record<string, string>;
}): UpstreamCall {
  const json = opts.json ?? {};
  const call: ClientCall = {
    format: opts.format ?? 'openai', mode: 'chat', model: opts.model, stream: opts.stream ?? false, json, raw: Buffer.from(JSON.stringify(json)),
    clientWantsStreamUsage: false, maxTokens: 0, passHeaders: opts.passHeaders,
  };
  const ch = channel(opts.channel);
  const attempt = { call, channel: ch, upstreamModel: opts.model, key: ch.key, options: NO_OPTIONS };
  return { ...attempt, wire: vertexProvider.wire(attempt), converted: opts.converted ?? null };
}

/** A provider whose tokens come from a fake endpoint. */
const provider = createVertexProvider(new AccessTokenCache(async () => ({ token: 'ya29.test', expiresIn: 3600 })));

describe('the Vertex channel key', () => {
  it('reads a service-account key file', () => {
    expect(parseServiceAccount(KEY)).toEqual({
      projectId: 'build-project',
      privateKeyId: account.privateKeyId,
      privateKey: account.privateKeyPem,
      clientEmail: account.clientEmail,
      tokenUri: 'https://oauth2.googleapis.com/token',
    });
  });

  it('uses Google’s token endpoint when the file names none', () => {
    const { token_uri: _uri, ...rest } = JSON.parse(KEY) as Record<string, unknown>;
    expect(parseServiceAccount(JSON.stringify(rest)).tokenUri).toBe('https://oauth2.googleapis.com/token');
  });

  it.each([
    ['not JSON', 'sk-abc123'],
    ['a JSON array', '[]'],
    ['another kind of credential', JSON.stringify({ ...JSON.parse(KEY), type: 'authorized_user' })],
    ['no private key', JSON.stringify({ ...JSON.parse(KEY), private_key: undefined })],
    ['no client email', JSON.stringify({ ...JSON.parse(KEY), client_email: '' })],
    ['no project', JSON.stringify({ ...JSON.parse(KEY), project_id: undefined })],
  ])('refuses %s', async (_, key) => {
    const err = await Promise.resolve(provider.build(upstream({ model: 'gemini-2.5-flash', channel: { key } }))).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 500, message: 'Vertex AI 渠道密钥应为服务账号 JSON', code: 'invalid_channel_key', type: undefined, local: false });
  });
});

describe('vertexProvider', () => {
  it('serves channel type 41, chat only', () => {
    expect(vertexProvider.types).toEqual([41]);
    expect(vertexProvider.supports('chat', channel())).toBe(true);
    expect(vertexProvider.supports('embeddings', channel())).toBe(false);
  });

  it('speaks Claude’s format to Claude models and Gemini’s to the rest', () => {
    expect(upstream({ model: 'claude-sonnet-4-20250514' }).wire).toBe('claude');
    expect(upstream({ model: 'claude-3-5-sonnet-v2@20241022' }).wire).toBe('claude');
    expect(upstream({ model: 'gemini-2.5-pro' }).wire).toBe('gemini');
  });
});

describe('Claude requests', () => {
  const claudeBody = { model: 'claude-sonnet-4-20250514', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] };

  it('go to rawPredict with the Vertex model id, a bearer token and the body without model', async () => {
    const req = await provider.build(upstream({ model: 'claude-sonnet-4-20250514', format: 'claude', json: claudeBody, channel: { other: 'us-east5' } }));
    expect(req.method).toBe('POST');
    expect(req.url).toBe(
      'https://us-east5-aiplatform.googleapis.com/v1/projects/build-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514:rawPredict',
    );
    expect(req.headers).toEqual({ authorization: 'Bearer ya29.test', 'content-type': 'application/json' });
    expect(JSON.parse(req.body as string)).toEqual({
      anthropic_version: 'vertex-2023-10-16',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
    });
  });

  it('stream through streamRawPredict, keeping stream and the client’s beta header', async () => {
    const req = await provider.build(
      upstream({
        model: 'claude-3-5-sonnet-20241022',
        format: 'claude',
        stream: true,
        json: { ...claudeBody, stream: true, anthropic_version: '2023-06-01' },
        passHeaders: { 'anthropic-version': '2023-06-01', 'anthropic-beta': 'token-efficient-tools-2025-02-19' },
      }),
    );
    expect(req.url).toBe(
      'https://aiplatform.googleapis.com/v1/projects/build-project/locations/global/publishers/anthropic/models/claude-3-5-sonnet-v2@20241022:streamRawPredict',
    );
    expect(req.headers['anthropic-beta']).toBe('token-efficient-tools-2025-02-19');
    expect(req.headers['anthropic-version']).toBeUndefined();
    expect(req.headers.accept).toBe('text/event-stream');
    const body = JSON.parse(req.body as string) as Record<string, unknown>;
    expect(body.stream).toBe(true);
    expect(body.anthropic_version).toBe('vertex-2023-10-16');
  });

  it('send the converted body, under the model the codec settled on', async () => {
    const converted = { model: 'claude-opus-4-1-20250805', max_tokens: 8192, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] };
    const req = await provider.build(upstream({ model: 'claude-opus-4-1-20250805-thinking', json: { model: 'x', messages: [] }, converted }));
    expect(req.url).toMatch(/\/publishers\/anthropic\/models\/claude-opus-4-1@20250805:rawPredict$/);
    expect(JSON.parse(req.body as string)).toEqual({ anthropic_version: 'vertex-2023-10-16', max_tokens: 8192, messages: converted.messages });
  });
});

describe('Gemini requests', () => {
  const geminiBody = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };

  it('go to generateContent with the body as it is', async () => {
    const req = await provider.build(upstream({ model: 'gemini-2.5-pro', format: 'openai', json: { model: 'gemini-2.5-pro', messages: [] }, converted: geminiBody, channel: { other: 'europe-west1' } }));
    expect(req.url).toBe(
      'https://europe-west1-aiplatform.googleapis.com/v1/projects/build-project/locations/europe-west1/publishers/google/models/gemini-2.5-pro:generateContent',
    );
    expect(req.headers).toEqual({ authorization: 'Bearer ya29.test', 'content-type': 'application/json' });
    expect(JSON.parse(req.body as string)).toEqual(geminiBody);
  });

  it('stream as SSE and pass a Gemini client’s bytes untouched', async () => {
    const up = upstream({ model: 'gemini-2.5-flash', format: 'gemini', stream: true, json: geminiBody });
    const raw = Buffer.from('{"contents":[{"role":"user","parts":[{"text":"hi","thoughtSignature":"c2ln"}]}]}');
    up.call.raw = raw;
    const req = await provider.build(up);
    expect(req.url).toBe('https://aiplatform.googleapis.com/v1/projects/build-project/locations/global/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(req.body).toBe(raw);
  });

  it('take the region from a per-model map and the origin from the channel’s base URL', async () => {
    const other = JSON.stringify({ default: 'us-east5', 'gemini-2.5-pro': 'europe-west4' });
    const pro = await provider.build(upstream({ model: 'gemini-2.5-pro', converted: geminiBody, channel: { other, baseUrl: 'http://127.0.0.1:9999' } }));
    expect(pro.url).toBe('http://127.0.0.1:9999/v1/projects/build-project/locations/europe-west4/publishers/google/models/gemini-2.5-pro:generateContent');
    const flash = await provider.build(upstream({ model: 'gemini-2.5-flash', converted: geminiBody, channel: { other } }));
    expect(flash.url).toMatch(/^https:\/\/us-east5-aiplatform\.googleapis\.com\/v1\/projects\/build-project\/locations\/us-east5\//);
  });
});
