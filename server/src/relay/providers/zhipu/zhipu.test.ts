import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoutedChannel } from '../../../cache/routing.js';
import { startZhipuMock, tokenProblem, type ZhipuMock } from '../../../test/mocks/zhipu.js';
import type { ChatCompletion } from '../../formats/openai/chat.js';
import type { ClientCall, Provider } from '../../types.js';
import { attemptOn, clientCall, readStreamed, routedChannel, sendBuilt, streamedText } from '../../../test/provider-calls.js';
import { providerFor, wireCodec } from '../index.js';
import { createZhipuProviders, parseZhipuKey, signZhipuToken, zhipuTokenCache, zhipuV3Url, zhipuV4Url } from './index.js';

const KEY = 'zp-mock-id.zp-mock-secret';

const channel = (type: number, fields: Partial<RoutedChannel> = {}) => routedChannel(type, KEY, fields);
const chat = clientCall;
const upstream = (provider: Provider, call: ClientCall, ch: RoutedChannel, key = KEY) => attemptOn(provider, call, ch, key);
const send = sendBuilt;
const streamed = readStreamed;
const text = streamedText;

describe('Zhipu keys and tokens', () => {
  it('reads a key id.secret and refuses anything else as a bad channel key', () => {
    expect(parseZhipuKey('abc.def')).toEqual({ id: 'abc', secret: 'def' });
    for (const bad of ['abcdef', '.def', 'abc.', 'a.b.c']) expect(() => parseZhipuKey(bad)).toThrow(expect.objectContaining({ status: 500, code: 'invalid_channel_key' }));
  });

  it('signs an HS256 JWT with Zhipu’s header and millisecond claims, which a verifier with the secret accepts', () => {
    const now = Date.now();
    const token = signZhipuToken(parseZhipuKey(KEY), now, 600);
    const [h, p, s] = token.split('.');
    expect(Buffer.from(h, 'base64url').toString()).toBe('{"alg":"HS256","sign_type":"SIGN"}');
    expect(JSON.parse(Buffer.from(p, 'base64url').toString())).toEqual({ api_key: 'zp-mock-id', exp: now + 600_000, timestamp: now });
    expect(s).toBe(createHmac('sha256', 'zp-mock-secret').update(`${h}.${p}`).digest('base64url'));
    expect(tokenProblem(token, [KEY])).toBeNull();
    expect(tokenProblem(signZhipuToken({ id: 'zp-mock-id', secret: 'other' }, now), [KEY])).toBe('bad signature');
    expect(tokenProblem(signZhipuToken(parseZhipuKey(KEY), now - 7200_000), [KEY])).toBe('expired');
  });

  it('reuses a key’s token until five minutes before it expires, then makes a new one', async () => {
    let now = 1_764_000_000_000;
    const cache = zhipuTokenCache(() => now);
    const key = parseZhipuKey(KEY);
    const first = await cache.get(key);
    now += 3600_000 - 5 * 60_000 - 1;
    expect(await cache.get(key)).toBe(first);
    now += 1;
    const second = await cache.get(key);
    expect(second).not.toBe(first);
    expect(JSON.parse(Buffer.from(second.split('.')[1], 'base64url').toString()).timestamp).toBe(now);
    expect(await cache.get(parseZhipuKey('other-id.other-secret'))).not.toBe(second);
  });
});

describe('Zhipu endpoints', () => {
  it('addresses v4 chat and embeddings, and v3 invoke / sse-invoke by model, without repeating a version path', () => {
    expect(zhipuV4Url('https://open.bigmodel.cn', 'chat')).toBe('https://open.bigmodel.cn/api/paas/v4/chat/completions');
    expect(zhipuV4Url('https://open.bigmodel.cn/api/paas/v4/', 'embeddings')).toBe('https://open.bigmodel.cn/api/paas/v4/embeddings');
    expect(zhipuV3Url('https://open.bigmodel.cn', 'chatglm_turbo', false)).toBe('https://open.bigmodel.cn/api/paas/v3/model-api/chatglm_turbo/invoke');
    expect(zhipuV3Url('https://open.bigmodel.cn/api/paas/v3', 'chatglm_pro', true)).toBe('https://open.bigmodel.cn/api/paas/v3/model-api/chatglm_pro/sse-invoke');
  });

  it('serves types 16 and 26 with the type default base URL', async () => {
    const v4 = providerFor(26);
    const v3 = providerFor(16);
    expect((await v4.build(upstream(v4, chat('glm-4'), channel(26)))).url).toBe('https://open.bigmodel.cn/api/paas/v4/chat/completions');
    expect((await v3.build(upstream(v3, chat('chatglm_std'), channel(16)))).url).toBe('https://open.bigmodel.cn/api/paas/v3/model-api/chatglm_std/invoke');
    expect(v4.supports('embeddings', channel(26))).toBe(true);
    expect(v3.supports('embeddings', channel(16))).toBe(false);
  });

  it('sends a GLM-4V inline image as bare base64 and an image URL as it is', () => {
    const v4 = providerFor(26);
    const content = [
      { type: 'text', text: 'What is in these?' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
      { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
    ];
    const up = upstream(v4, chat('glm-4v', { messages: [{ role: 'user', content }] }), channel(26));
    expect((up.converted as { messages: unknown }).messages).toEqual([
      { role: 'user', content: [content[0], { type: 'image_url', image_url: { url: 'iVBORw0KGgo=' } }, content[2]] },
    ]);
  });

  it('converts a chat into the v3 prompt: system text before the first user turn, only temperature and top_p', async () => {
    const v3 = providerFor(16);
    const up = upstream(v3, chat('chatglm_turbo', { temperature: 0.5, top_p: 0.7, max_tokens: 64, stream: true }), channel(16));
    expect(up.converted).toEqual({ prompt: [{ role: 'user', content: 'Be brief.\n\nHello' }], temperature: 0.5, top_p: 0.7, return_type: 'text', incremental: true });
    expect(() => upstream(v3, chat('chatglm_turbo', { tools: [{ type: 'function', function: { name: 'f' } }] }), channel(16))).toThrow(
      expect.objectContaining({ status: 400, message: expect.stringContaining('不支持工具调用') }),
    );
  });
});

describe('Zhipu against the mock upstream', () => {
  let mock: ZhipuMock;
  const providers = createZhipuProviders(zhipuTokenCache());
  let v4ch: RoutedChannel;
  let v3ch: RoutedChannel;
  beforeAll(async () => {
    mock = await startZhipuMock({ keys: [KEY] });
    v4ch = channel(26, { baseUrl: mock.url });
    v3ch = channel(16, { baseUrl: mock.url });
  });
  afterAll(() => mock.close());

  it('answers v4 chat with one token for many calls, and sends top_p 1 as the nearest value Zhipu accepts', async () => {
    const before = mock.tokens.length;
    for (let i = 0; i < 3; i++) {
      const res = await send(providers.v4, upstream(providers.v4, chat('glm-4', { top_p: 1 }), v4ch));
      expect(res.statusCode).toBe(200);
      expect(((await res.body.json()) as ChatCompletion).choices[0].message.content).toBe('Hello from the Zhipu GLM mock.');
    }
    expect(mock.requests.at(-1)!.json).toMatchObject({ model: 'glm-4', top_p: 0.99 });
    expect(new Set(mock.tokens.slice(before)).size).toBe(1);
    expect(mock.requests.at(-1)!.headers.authorization).toMatch(/^Bearer ey/);
  });

  it('streams v4 chat with the usage split off the finish chunk, as OpenAI sends it', async () => {
    const up = upstream(providers.v4, chat('glm-4', { stream: true, stream_options: { include_usage: true } }), v4ch);
    expect(up.converted).not.toHaveProperty('stream_options');
    const { chunks, cut } = await streamed(providers.v4, up);
    expect(cut).toBe(false);
    expect(text(chunks)).toBe('Hello from the Zhipu GLM mock.');
    expect(chunks.at(-2)).toMatchObject({ object: 'chat.completion.chunk', choices: [{ finish_reason: 'stop' }] });
    expect(chunks.at(-2)).not.toHaveProperty('usage');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 9, completion_tokens: 8, total_tokens: 17 } });
  });

  it('decodes a v4 answer with OpenAI’s object, and reads a failed generation as an upstream 500', async () => {
    const up = upstream(providers.v4, chat('glm-4'), v4ch);
    const body = Buffer.from(await (await send(providers.v4, up)).body.arrayBuffer());
    expect(providers.v4.answerError!(up, body.toString())).toBeNull();
    expect(wireCodec(up.wire).decode(body, up)).toMatchObject({ object: 'chat.completion', choices: [{ finish_reason: 'stop' }] });
    const failedUp = upstream(providers.v4, chat('mock-network-error'), v4ch);
    expect(providers.v4.answerError!(failedUp, await (await send(providers.v4, failedUp)).body.text())).toBe(500);
    const failed = await streamed(providers.v4, upstream(providers.v4, chat('mock-network-error', { stream: true }), v4ch));
    expect(text(failed.chunks)).toBe('Hello');
    expect(failed.failure).toMatchObject({ type: 'upstream_error' });
  });

  it('gets a GLM-4V question with an inline image past Zhipu’s image check', async () => {
    const content = [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQSkZJRg==' } }];
    const res = await send(providers.v4, upstream(providers.v4, chat('glm-4v', { messages: [{ role: 'user', content }] }), v4ch));
    expect(res.statusCode).toBe(200);
    expect(mock.requests.at(-1)!.json).toMatchObject({ messages: [{ content: [{ type: 'text' }, { image_url: { url: '/9j/4AAQSkZJRg==' } }] }] });
  });

  it('answers v4 embeddings', async () => {
    const res = await send(providers.v4, upstream(providers.v4, chat('embedding-3', { input: 'hello world' }, 'embeddings'), v4ch));
    expect(res.statusCode).toBe(200);
    expect(await res.body.json()).toMatchObject({ data: [{ index: 0 }], usage: { prompt_tokens: 6 } });
    expect(mock.requests.at(-1)!.path).toBe('/api/paas/v4/embeddings');
  });

  it('reads v4 errors, a refused token as a credential failure', async () => {
    const bad = await send(providers.v4, upstream(providers.v4, chat('glm-4'), v4ch, 'zp-mock-id.wrong-secret'));
    expect(bad.statusCode).toBe(401);
    expect(providers.v4.parseError!(401, await bad.body.text(), {})).toMatchObject({ code: '1002', type: 'authentication_error', credentials: true });
    const arrears = await send(providers.v4, upstream(providers.v4, chat('mock-arrears'), v4ch));
    expect(arrears.statusCode).toBe(429);
    expect(providers.v4.parseError!(429, await arrears.body.text(), {})).toMatchObject({ code: '1113', type: 'insufficient_quota' });
  });

  it('answers v3 invoke as a ChatCompletion with its usage, the bare token as Authorization', async () => {
    const up = upstream(providers.v3, chat('chatglm_turbo'), v3ch);
    const res = await send(providers.v3, up);
    const body = Buffer.from(await res.body.arrayBuffer());
    expect(providers.v3.answerError!(up, body.toString())).toBeNull();
    const answer = wireCodec(up.wire).decode(body, up) as unknown as ChatCompletion;
    expect(answer.choices[0]).toMatchObject({ message: { role: 'assistant', content: 'Hello from the ChatGLM v3 mock.' }, finish_reason: 'stop' });
    expect(answer.usage).toEqual({ prompt_tokens: 12, completion_tokens: 9, total_tokens: 21 });
    expect(mock.requests.at(-1)!.headers.authorization).toMatch(/^ey[^ ]+$/);
  });

  it('streams v3 add events as content, the finish with the usage from its meta', async () => {
    const { chunks, cut } = await streamed(providers.v3, upstream(providers.v3, chat('chatglm_turbo', { stream: true }), v3ch));
    expect(cut).toBe(false);
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    expect(text(chunks)).toBe('Hello from the ChatGLM v3 mock.');
    expect(chunks.at(-2)!.choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 12, completion_tokens: 9, total_tokens: 21 } });
    expect(mock.requests.at(-1)!.path).toBe('/api/paas/v3/model-api/chatglm_turbo/sse-invoke');
  });

  it('ends a v3 stream the content check interrupted as content_filter, and an error event as the stream’s failure', async () => {
    const interrupted = await streamed(providers.v3, upstream(providers.v3, chat('mock-interrupted', { stream: true }), v3ch));
    expect(text(interrupted.chunks)).toBe('Part of an answer');
    expect(interrupted.chunks.at(-2)!.choices[0].finish_reason).toBe('content_filter');
    expect(interrupted.chunks.at(-1)!.usage).toMatchObject({ completion_tokens: 4 });
    const failed = await streamed(providers.v3, upstream(providers.v3, chat('mock-error', { stream: true }), v3ch));
    expect(text(failed.chunks)).toBe('Hello');
    expect(failed.failure).toEqual({ type: 'upstream_error', message: '模型服务异常，请稍后重试' });
  });

  it('keeps what arrived of a v3 stream cut mid-way, without a finish or usage', async () => {
    const { chunks, cut } = await streamed(providers.v3, upstream(providers.v3, chat('mock-cut', { stream: true }), v3ch));
    expect(cut).toBe(true);
    expect(text(chunks)).toBe('Hello from the');
    expect(chunks.some((c) => c.usage || c.choices[0]?.finish_reason)).toBe(false);
  });

  it.each([
    ['mock-prompt-too-long', 400, '1261', 'invalid_request_error', false],
    ['mock-concurrency', 429, '1302', 'rate_limit_error', false],
    ['mock-token-invalid', 401, '1002', 'authentication_error', true],
  ])('reads the v3 error %s in a 200 body as HTTP %i', async (model, status, code, type, credentials) => {
    for (const stream of [false, true]) {
      const up = upstream(providers.v3, chat(model, { stream }), v3ch);
      const res = await send(providers.v3, up);
      expect(res.statusCode).toBe(200);
      const body = await res.body.text();
      expect(providers.v3.answerError!(up, body)).toBe(status);
      const parsed = providers.v3.parseError!(status, body, {});
      expect(parsed).toMatchObject({ code, type });
      expect(parsed.credentials === true).toBe(credentials);
    }
  });

  it('is refused by the mock when the key’s secret is wrong', async () => {
    const up = upstream(providers.v3, chat('chatglm_turbo'), v3ch, 'zp-mock-id.wrong-secret');
    const body = await (await send(providers.v3, up)).body.text();
    expect(providers.v3.answerError!(up, body)).toBe(401);
  });
});
