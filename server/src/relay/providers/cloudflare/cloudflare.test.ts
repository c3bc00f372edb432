import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoutedChannel } from '../../../cache/routing.js';
import { startCloudflareMock, type CloudflareMock } from '../../../test/mocks/cloudflare.js';
import { RelayError } from '../../errors.js';
import type { Attempt, ClientCall, UpstreamCall } from '../../types.js';
import { SseSplitter } from '../gemini/sse.js';
import { cloudflareProvider, cloudflareUrl, parseCloudflareError } from './index.js';

const KEY = 'cf-test-token';
const ACCOUNT = '023e105f4ecef8ad9ca31a8372d0c353';

function channel(fields: Partial<RoutedChannel> = {}): RoutedChannel {
  return {
    id: 9, type: 39, name: 'cf', key: KEY, baseUrl: '', other: ACCOUNT, organization: '', testModel: '', models: [], groups: ['default'],
    modelMapping: {}, statusCodeMapping: {}, priority: 0, weight: 0, autoBan: true, status: 1, setting: {}, paramOverride: {},
    ...fields,
  };
}

function clientCall(mode: ClientCall['mode'], json: Record<string, unknown>, clientWantsStreamUsage = false): ClientCall {
  return {
    format: 'openai', mode, model: String(json.model), stream: json.stream === true, json, raw: Buffer.from(JSON.stringify(json)),
    clientWantsStreamUsage, maxTokens: 0,
  };
}

/** An OpenAI-format client on an OpenAI-wire channel: the body passes through (converted stays null). */
function upstream(call: ClientCall, ch: RoutedChannel, upstreamModel = call.model, key = KEY): UpstreamCall {
  const attempt: Attempt = { call, channel: ch, upstreamModel, key, options: {} as Attempt['options'] };
  return { ...attempt, wire: cloudflareProvider.wire(attempt), converted: null };
}

async function send(up: UpstreamCall) {
  const req = await cloudflareProvider.build(up);
  return request(req.url, { method: req.method, headers: req.headers, body: req.body as string | Buffer });
}

const chat = (model: string, extra: Record<string, unknown> = {}) => clientCall('chat', { model, messages: [{ role: 'user', content: 'Hello' }], ...extra });

describe('Cloudflare Workers AI endpoints', () => {
  it('puts the OpenAI-compatible paths under the account', () => {
    expect(cloudflareUrl('https://api.cloudflare.com', ACCOUNT, 'chat')).toBe(`https://api.cloudflare.com/client/v4/accounts/${ACCOUNT}/ai/v1/chat/completions`);
    expect(cloudflareUrl('https://api.cloudflare.com/', ACCOUNT, 'embeddings')).toBe(`https://api.cloudflare.com/client/v4/accounts/${ACCOUNT}/ai/v1/embeddings`);
  });

  it('uses the type default base URL, the account from "other" and a bearer key', async () => {
    const req = await cloudflareProvider.build(upstream(chat('@cf/meta/llama-3.1-8b-instruct'), channel({ other: ` ${ACCOUNT}\n` })));
    expect(req.url).toBe(`https://api.cloudflare.com/client/v4/accounts/${ACCOUNT}/ai/v1/chat/completions`);
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.headers['content-type']).toBe('application/json');
  });

  it('refuses a channel without an account ID as the channel’s fault, not the caller’s', () => {
    let err: unknown;
    try {
      void cloudflareProvider.build(upstream(chat('m'), channel({ other: '  ' })));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(RelayError);
    expect(err).toMatchObject({ status: 500, local: false, message: 'Cloudflare 渠道需要在"其他参数"中填写 Account ID' });
  });

  it('serves chat and embeddings', () => {
    const ch = channel();
    expect(['chat', 'embeddings', 'completions', 'images'].map((m) => cloudflareProvider.supports(m as ClientCall['mode'], ch))).toEqual([true, true, false, false]);
    expect(cloudflareProvider.wire(upstream(chat('m'), ch))).toBe('openai');
  });

  it('reads the v4 error envelope and falls back to OpenAI error bodies', () => {
    expect(parseCloudflareError(401, '{"success":false,"errors":[{"code":10000,"message":"Authentication error"}],"messages":[],"result":null}')).toEqual({
      message: 'Authentication error',
      type: 'authentication_error',
      code: '10000',
    });
    expect(parseCloudflareError(400, '{"error":{"message":"bad model","type":"invalid_request_error","code":"model_not_found"}}')).toEqual({
      message: 'bad model',
      type: 'invalid_request_error',
      code: 'model_not_found',
    });
    expect(parseCloudflareError(502, '<html>bad gateway</html>').message).toBe('bad response status code 502');
  });
});

describe('Cloudflare Workers AI against the mock upstream', () => {
  let mock: CloudflareMock;
  let ch: RoutedChannel;
  beforeAll(async () => {
    mock = await startCloudflareMock({ key: KEY, accountId: ACCOUNT });
    ch = channel({ baseUrl: mock.url });
  });
  afterAll(() => mock.close());

  it('answers a chat call with the mapped model', async () => {
    const res = await send(upstream(chat('llama'), ch, '@cf/meta/llama-3.1-8b-instruct'));
    expect(res.statusCode).toBe(200);
    const answer = (await res.body.json()) as { choices: Array<{ message: { content: string } }>; usage: unknown };
    expect(answer.choices[0].message.content).toBe('Hello from the Cloudflare mock.');
    expect(answer.usage).toEqual({ prompt_tokens: 18, completion_tokens: 8, total_tokens: 26 });
    expect(mock.requests.at(-1)?.json?.model).toBe('@cf/meta/llama-3.1-8b-instruct');
  });

  it('streams chat, asking for usage the client did not ask for', async () => {
    const res = await send(upstream(chat('@cf/meta/llama-3.1-8b-instruct', { stream: true }), ch));
    expect(res.statusCode).toBe(200);
    expect(mock.requests.at(-1)?.json?.stream_options).toEqual({ include_usage: true });
    const splitter = new SseSplitter();
    const events: string[] = [];
    for await (const piece of res.body) events.push(...splitter.push(piece as Buffer));
    events.push(...splitter.finish());
    expect(events.at(-1)).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e) as { choices: Array<{ delta: { content?: string } }>; usage?: unknown });
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('Hello from the Cloudflare mock.');
    expect(chunks.at(-1)?.usage).toEqual({ prompt_tokens: 18, completion_tokens: 8, total_tokens: 26 });
  });

  it('drops the connection of a cut stream mid-way', async () => {
    const res = await send(upstream(chat('mock-cut', { stream: true }), ch));
    await expect(res.body.text()).rejects.toThrow();
  });

  it('answers embeddings, one vector per input', async () => {
    const res = await send(upstream(clientCall('embeddings', { model: '@cf/baai/bge-m3', input: ['a', 'b', 'c'] }), ch));
    expect(res.statusCode).toBe(200);
    expect(mock.requests.at(-1)?.path).toBe(`/client/v4/accounts/${ACCOUNT}/ai/v1/embeddings`);
    const answer = (await res.body.json()) as { data: Array<{ index: number; embedding: number[] }>; usage: unknown };
    expect(answer.data.map((d) => d.index)).toEqual([0, 1, 2]);
    expect(answer.data[0].embedding).toHaveLength(4);
    expect(answer.usage).toEqual({ prompt_tokens: 6, total_tokens: 6 });
  });

  it('reads a wrong token, another account, a rate limit and a refused body as Cloudflare errors', async () => {
    const cases: Array<[UpstreamCall, number, string, string]> = [
      [upstream(chat('m'), ch, 'm', 'wrong'), 401, '10000', 'Authentication error'],
      [upstream(chat('m'), channel({ baseUrl: mock.url, other: 'another-account' })), 401, '10000', 'Authentication error'],
      [upstream(chat('mock-429'), ch), 429, '3036', 'daily free allocation'],
      [upstream(chat('mock-400'), ch), 400, '5006', 'Bad input'],
      [upstream(clientCall('chat', { model: 'm' }), ch), 400, '5006', 'Bad input'],
    ];
    for (const [up, status, code, message] of cases) {
      const res = await send(up);
      expect(res.statusCode).toBe(status);
      const err = cloudflareProvider.parseError!(res.statusCode, await res.body.text(), res.headers);
      expect(err.code).toBe(code);
      expect(err.message).toContain(message);
    }
  });
});
