import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoutedChannel } from '../../../cache/routing.js';
import { startBaiduMock, type BaiduMock } from '../../../test/mocks/baidu.js';
import { RelayError } from '../../errors.js';
import type { ChatCompletion } from '../../formats/openai/chat.js';
import type { ClientCall, Provider } from '../../types.js';
import { attemptOn, clientCall, readStreamed, routedChannel, sendBuilt, streamedText } from '../../../test/provider-calls.js';
import { providerFor, wireCodec } from '../index.js';
import { baiduTokenCache, chatEndpoint, createBaiduProvider, embeddingEndpoint, fetchBaiduToken, parseBaiduKey } from './index.js';

const KEY = 'bd-mock-api-key|bd-mock-secret-key';

const channel = (fields: Partial<RoutedChannel> = {}) => routedChannel(15, KEY, fields);
const call = clientCall;
const upstream = (provider: Provider, c: ClientCall, ch: RoutedChannel, key = KEY) => attemptOn(provider, c, ch, key);
const send = sendBuilt;
const streamed = readStreamed;
const text = streamedText;

describe('Baidu keys, endpoints and bodies', () => {
  it('reads a key APIKey|SecretKey and refuses anything else as a bad channel key', () => {
    expect(parseBaiduKey('ak|sk')).toEqual({ apiKey: 'ak', secretKey: 'sk' });
    for (const bad of ['ak', 'ak|', '|sk', 'a|b|c']) expect(() => parseBaiduKey(bad)).toThrow(expect.objectContaining({ status: 500, code: 'invalid_channel_key' }));
  });

  it('maps model names to Qianfan endpoints, lowercasing the ones it does not know', () => {
    expect(chatEndpoint('ERNIE-4.0-8K')).toBe('completions_pro');
    expect(chatEndpoint('ERNIE-3.5-8K')).toBe('completions');
    expect(chatEndpoint('ERNIE-Speed-128K')).toBe('ernie-speed-128k');
    expect(chatEndpoint('ERNIE-Lite-8K-0922')).toBe('eb-instant');
    expect(chatEndpoint('ERNIE-4.5-Turbo-32K')).toBe('ernie-4.5-turbo-32k');
    expect(embeddingEndpoint('Embedding-V1')).toBe('embedding-v1');
    expect(embeddingEndpoint('bge-large-zh')).toBe('bge_large_zh');
  });

  it('converts a chat into ERNIE’s body: system apart, max_output_tokens, user_id, functions, temperature 0 as 0.01', () => {
    const provider = providerFor(15);
    const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
    const up = upstream(provider, call('ERNIE-4.0-8K', { max_tokens: 64, temperature: 0, user: 'u-1', stop: 'END', tools, tool_choice: { type: 'function', function: { name: 'get_weather' } } }), channel());
    expect(up.converted).toEqual({
      messages: [{ role: 'user', content: 'Hello' }],
      system: 'Be brief.',
      temperature: 0.01,
      max_output_tokens: 64,
      stop: ['END'],
      user_id: 'u-1',
      functions: [{ name: 'get_weather', description: '', parameters: tools[0].function.parameters }],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
    });
  });

  it('sends a tool round trip as function_call and a function turn named after the function', () => {
    const messages = [
      { role: 'user', content: 'Weather in Shanghai?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Shanghai"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '{"temp":21}' },
    ];
    const up = upstream(providerFor(15), call('ERNIE-3.5-8K', { messages }), channel());
    expect((up.converted as { messages: unknown }).messages).toEqual([
      { role: 'user', content: 'Weather in Shanghai?' },
      { role: 'assistant', content: '', function_call: { name: 'get_weather', arguments: '{"city":"Shanghai"}' } },
      { role: 'function', name: 'get_weather', content: '{"temp":21}' },
    ]);
  });

  it('refuses what ERNIE cannot do with a 400: images, a required tool call, penalties, json_schema', () => {
    const provider = providerFor(15);
    const image = { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x/y.png' } }] }] };
    const tools = [{ type: 'function', function: { name: 'f' } }];
    for (const extra of [image, { tools, tool_choice: 'required' }, { presence_penalty: 0.5 }, { response_format: { type: 'json_schema', json_schema: { name: 'x' } } }]) {
      expect(() => upstream(provider, call('ERNIE-3.5-8K', extra), channel())).toThrow(expect.objectContaining({ status: 400 }));
    }
  });
});

describe('Baidu against the mock upstream', () => {
  let mock: BaiduMock;
  let ch: RoutedChannel;
  beforeAll(async () => {
    mock = await startBaiduMock();
    ch = channel({ baseUrl: mock.url });
  });
  afterAll(() => mock.close());

  it('exchanges the key for an access token with the client id and secret', async () => {
    const token = await fetchBaiduToken({ base: mock.url, apiKey: 'bd-mock-api-key', secretKey: 'bd-mock-secret-key' });
    expect(token.token).toMatch(/^24\./);
    expect(token.expiresIn).toBe(2_592_000);
    const sent = mock.requests.at(-1)!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/oauth/2.0/token?grant_type=client_credentials&client_id=bd-mock-api-key&client_secret=bd-mock-secret-key');
  });

  it('fails a refused exchange with a 502 that counts as refused credentials and names neither key', async () => {
    for (const secretKey of ['wrong-secret', 'bd-mock-secret-key']) {
      const apiKey = secretKey === 'wrong-secret' ? 'bd-mock-api-key' : 'unknown-key';
      const err = await fetchBaiduToken({ base: mock.url, apiKey, secretKey }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RelayError);
      expect(err).toMatchObject({ status: 502, code: 'baidu_token_failed', local: false, credentialsRefused: true });
      expect((err as Error).message).toBe('百度文心获取 access_token 失败：HTTP 401 invalid_client');
    }
    const down = await fetchBaiduToken({ base: 'http://127.0.0.1:1', apiKey: 'a', secretKey: 'b' }).catch((e: unknown) => e);
    expect(down).toMatchObject({ status: 502, code: 'baidu_token_failed' });
    expect((down as RelayError).credentialsRefused).toBeUndefined();
  });

  it('makes one exchange for many concurrent calls, and sends its token on each call', async () => {
    const provider = createBaiduProvider(baiduTokenCache());
    const before = mock.exchanges.length;
    const answers = await Promise.all(Array.from({ length: 8 }, () => send(provider, upstream(provider, call('ERNIE-Speed-128K'), ch))));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(200));
    expect(mock.exchanges.length - before).toBe(1);
    const tokens = new Set(mock.requests.slice(-8).map((r) => new URL(r.path, 'http://x').searchParams.get('access_token')));
    expect(tokens.size).toBe(1);
    expect(mock.requests.at(-1)!.path).toMatch(/^\/rpc\/2\.0\/ai_custom\/v1\/wenxinworkshop\/chat\/ernie-speed-128k\?access_token=24\./);
  });

  it('exchanges again an hour before the token expires', async () => {
    let now = Date.now();
    const provider = createBaiduProvider(baiduTokenCache(undefined, () => now));
    const before = mock.exchanges.length;
    await send(provider, upstream(provider, call('ERNIE-Speed-128K'), ch));
    now += (2_592_000 - 3600) * 1000 - 1;
    await send(provider, upstream(provider, call('ERNIE-Speed-128K'), ch));
    expect(mock.exchanges.length - before).toBe(1);
    now += 1;
    await send(provider, upstream(provider, call('ERNIE-Speed-128K'), ch));
    expect(mock.exchanges.length - before).toBe(2);
  });

  it('does not remember a failed exchange', async () => {
    const provider = createBaiduProvider(baiduTokenCache());
    const key = 'late-app|late-secret';
    const failures = await Promise.allSettled([0, 1].map(() => provider.build(upstream(provider, call('ERNIE-Speed-128K'), ch, key))));
    expect(failures.map((f) => f.status)).toEqual(['rejected', 'rejected']);
    mock.apps['late-app'] = 'late-secret';
    const before = mock.exchanges.length;
    expect((await send(provider, upstream(provider, call('ERNIE-Speed-128K'), ch, key))).statusCode).toBe(200);
    expect(mock.exchanges.length - before).toBe(1);
  });

  it('reads a revoked token’s error 110 as a passing failure and drops the token, so the next call exchanges again', async () => {
    const provider = createBaiduProvider(baiduTokenCache());
    await send(provider, upstream(provider, call('ERNIE-Speed-128K'), ch));
    mock.revokeAll();
    const up = upstream(provider, call('ERNIE-Speed-128K'), ch);
    const res = await send(provider, up);
    expect(res.statusCode).toBe(200);
    const body = await res.body.text();
    expect(provider.answerError!(up, body)).toBe(503);
    const parsed = provider.parseError!(503, body, {});
    expect(parsed).toMatchObject({ code: '110', type: 'api_error' });
    expect(parsed.credentials).toBeUndefined();
    const before = mock.exchanges.length;
    const again = await send(provider, upstream(provider, call('ERNIE-Speed-128K'), ch));
    expect(provider.answerError!(up, await again.body.text())).toBeNull();
    expect(mock.exchanges.length - before).toBe(1);
  });

  const provider = createBaiduProvider(baiduTokenCache());

  it('answers chat as a ChatCompletion with ERNIE’s usage', async () => {
    const up = upstream(provider, call('ERNIE-4.0-8K'), ch);
    const body = Buffer.from(await (await send(provider, up)).body.arrayBuffer());
    expect(provider.answerError!(up, body.toString())).toBeNull();
    const answer = wireCodec(up.wire).decode(body, up) as unknown as ChatCompletion;
    expect(answer).toMatchObject({ id: 'as-bcmt5ct4iy', object: 'chat.completion', model: 'ERNIE-4.0-8K' });
    expect(answer.choices[0]).toMatchObject({ message: { role: 'assistant', content: 'Hello from the ERNIE mock.' }, finish_reason: 'stop' });
    expect(answer.usage).toEqual({ prompt_tokens: 7, completion_tokens: 6, total_tokens: 13 });
    expect(mock.requests.at(-1)!.path).toMatch(/\/chat\/completions_pro\?/);
  });

  it('answers a function call as a tool call, streamed and not', async () => {
    const up = upstream(provider, call('mock-tool-call'), ch);
    const answer = wireCodec(up.wire).decode(Buffer.from(await (await send(provider, up)).body.arrayBuffer()), up) as unknown as ChatCompletion;
    expect(answer.choices[0].finish_reason).toBe('tool_calls');
    expect(answer.choices[0].message.tool_calls).toEqual([{ id: 'call_as-cxm2n4b8pq', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Shanghai"}' } }]);
    const { chunks } = await streamed(provider, upstream(provider, call('mock-tool-call', { stream: true }), ch));
    const calls = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(calls).toEqual([{ index: 0, id: 'call_as-dym3p5c9qr', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Shanghai"}' } }]);
    expect(chunks.at(-2)!.choices[0].finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)!.usage).toEqual({ prompt_tokens: 118, completion_tokens: 31, total_tokens: 149 });
  });

  it('streams text, the finish at is_end and then the usage', async () => {
    const { chunks, cut } = await streamed(provider, upstream(provider, call('ERNIE-3.5-8K', { stream: true }), ch));
    expect(cut).toBe(false);
    expect(text(chunks)).toBe('Hello from the ERNIE mock.');
    expect(chunks.at(-2)!.choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 7, completion_tokens: 6, total_tokens: 13 } });
  });

  it('keeps what came of a cut stream and the prompt tokens it reported so far', async () => {
    const { chunks, cut, partial } = await streamed(provider, upstream(provider, call('mock-cut', { stream: true }), ch));
    expect(cut).toBe(true);
    expect(text(chunks)).toBe('Hello from the ERNIE');
    expect(chunks.some((c) => c.usage || c.choices[0]?.finish_reason)).toBe(false);
    expect(partial).toEqual({ promptTokens: 7, completionTokens: 0, cachedTokens: 0 });
  });

  it('reads an error event inside a stream as its failure', async () => {
    const { chunks, failure } = await streamed(provider, upstream(provider, call('mock-stream-error', { stream: true }), ch));
    expect(text(chunks)).toBe('Hello');
    expect(failure).toEqual({ type: 'upstream_error', message: 'try again later' });
  });

  it('reads a truncated answer as length and a refused input as content_filter', async () => {
    for (const [model, finish] of [['mock-max-tokens', 'length'], ['mock-unsafe-input', 'content_filter']]) {
      const up = upstream(provider, call(model), ch);
      const answer = wireCodec(up.wire).decode(Buffer.from(await (await send(provider, up)).body.arrayBuffer()), up) as unknown as ChatCompletion;
      expect(answer.choices[0].finish_reason).toBe(finish);
    }
  });

  it.each([
    ['mock-invalid-param', 400, '336003', 'invalid_request_error'],
    ['mock-rate-limit', 429, '18', 'rate_limit_error'],
    ['mock-quota', 429, '19', 'insufficient_quota'],
    ['mock-no-permission', 403, '6', 'forbidden_error'],
    ['mock-iam-failed', 401, '14', 'authentication_error'],
    ['unknown-model', 404, '3', 'invalid_request_error'],
  ])('reads the error of %s in a 200 body as HTTP %i, streamed or not', async (model, status, code, type) => {
    for (const stream of [false, true]) {
      const up = upstream(provider, call(model, { stream }), ch);
      const res = await send(provider, up);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('application/json');
      const body = await res.body.text();
      expect(provider.answerError!(up, body)).toBe(status);
      expect(provider.parseError!(status, body, {})).toMatchObject({ code, type });
    }
  });

  it('answers embeddings in OpenAI’s shape from the model’s embeddings endpoint', async () => {
    const up = upstream(provider, call('Embedding-V1', { input: ['hello', 'world'] }, 'embeddings'), ch);
    expect(up.converted).toEqual({ input: ['hello', 'world'] });
    const answer = wireCodec(up.wire).decode(Buffer.from(await (await send(provider, up)).body.arrayBuffer()), up);
    expect(answer).toMatchObject({ object: 'list', model: 'Embedding-V1', data: [{ index: 0 }, { index: 1 }], usage: { prompt_tokens: 4, total_tokens: 4 } });
    expect(mock.requests.at(-1)!.path).toMatch(/\/embeddings\/embedding-v1\?access_token=/);
  });
});
