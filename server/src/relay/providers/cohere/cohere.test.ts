import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoutedChannel } from '../../../cache/routing.js';
import { startCohereMock, type CohereMock } from '../../../test/mocks/cohere.js';
import type { ChatChunk, ChatCompletion } from '../../formats/openai/chat.js';
import type { Attempt, ClientCall, UpstreamCall } from '../../types.js';
import { cohereProvider, cohereUrl, cohereWire } from './index.js';
import { readStreamed } from '../../../test/provider-calls.js';

const KEY = 'co-test-key';

function channel(fields: Partial<RoutedChannel> = {}): RoutedChannel {
  return {
    id: 7, type: 34, name: 'cohere', key: KEY, baseUrl: '', other: '', organization: '', testModel: '', models: [], groups: ['default'],
    modelMapping: {}, statusCodeMapping: {}, priority: 0, weight: 0, autoBan: true, status: 1, setting: {}, paramOverride: {},
    ...fields,
  };
}

function clientCall(mode: ClientCall['mode'], json: Record<string, unknown>): ClientCall {
  return {
    format: 'openai', mode, model: String(json.model), stream: json.stream === true, json, raw: Buffer.from(JSON.stringify(json)),
    clientWantsStreamUsage: false, maxTokens: 0,
  };
}

/** What the pipeline does before build(): pick the wire, convert when it differs from the client's format. */
function upstream(call: ClientCall, ch: RoutedChannel, upstreamModel = call.model, key = KEY): UpstreamCall {
  const attempt: Attempt = { call, channel: ch, upstreamModel, key, options: {} as Attempt['options'] };
  const wire = cohereProvider.wire(attempt);
  const converted = wire === call.format ? null : cohereWire.encode(call.json ?? {}, attempt);
  return { ...attempt, wire, converted };
}

async function send(up: UpstreamCall) {
  const req = await cohereProvider.build(up);
  return request(req.url, { method: req.method, headers: req.headers, body: req.body as string | Buffer });
}

const streamed = (up: UpstreamCall) => readStreamed(cohereProvider, up);

const text = (chunks: ChatChunk[]) => chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
const chat = (model: string, extra: Record<string, unknown> = {}) =>
  clientCall('chat', { model, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hello' }], ...extra });

describe('Cohere endpoints', () => {
  it('sends chat to /v2/chat and rerank to /v1/rerank, once each version segment', () => {
    expect(cohereUrl('https://api.cohere.ai', 'chat')).toBe('https://api.cohere.ai/v2/chat');
    expect(cohereUrl('https://api.cohere.com/v1/', 'chat')).toBe('https://api.cohere.com/v2/chat');
    expect(cohereUrl('https://proxy.example/cohere/v2', 'rerank')).toBe('https://proxy.example/cohere/v1/rerank');
  });

  it('uses the type default base URL, a bearer key, and the converted body with the mapped model and overrides', async () => {
    const up = upstream(chat('cohere-chat', { stream: true, temperature: 0.5 }), channel({ paramOverride: { safety_mode: 'OFF' } }), 'command-a-03-2025');
    const req = await cohereProvider.build(up);
    expect(req.url).toBe('https://api.cohere.ai/v2/chat');
    expect(req.headers).toEqual({ authorization: `Bearer ${KEY}`, 'content-type': 'application/json', accept: 'text/event-stream' });
    expect(JSON.parse(String(req.body))).toEqual({
      model: 'command-a-03-2025',
      stream: true,
      messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hello' }],
      temperature: 0.5,
      safety_mode: 'OFF',
    });
  });

  it('speaks its own body for chat and passes rerank through', () => {
    const ch = channel();
    expect(cohereProvider.wire(upstream(chat('m'), ch))).toBe('cohere');
    expect(cohereProvider.wire(upstream(clientCall('rerank', { model: 'r', query: 'q', documents: ['a'] }), ch))).toBe('openai');
    expect(cohereProvider.supports('chat', ch)).toBe(true);
    expect(cohereProvider.supports('rerank', ch)).toBe(true);
    expect(cohereProvider.supports('embeddings', ch)).toBe(false);
  });
});

describe('Cohere against the mock upstream', () => {
  let mock: CohereMock;
  let ch: RoutedChannel;
  beforeAll(async () => {
    mock = await startCohereMock({ key: KEY });
    ch = channel({ baseUrl: mock.url });
  });
  afterAll(() => mock.close());

  it('answers a chat call as a ChatCompletion with the billed units as usage', async () => {
    const up = upstream(chat('cohere-chat'), ch, 'command-a-03-2025');
    const res = await send(up);
    expect(res.statusCode).toBe(200);
    const answer = cohereWire.decode(Buffer.from(await res.body.arrayBuffer()), up) as unknown as ChatCompletion;
    expect(answer.model).toBe('cohere-chat');
    expect(answer.choices[0]).toMatchObject({ message: { role: 'assistant', content: 'Hello from the Cohere mock.' }, finish_reason: 'stop' });
    expect(answer.usage).toEqual({ prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 });
    expect(mock.requests.at(-1)?.json?.model).toBe('command-a-03-2025');
  });

  it('answers a tool call with the call id, name and arguments', async () => {
    const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } } }];
    const up = upstream(chat('mock-tool-call', { tools }), ch);
    const res = await send(up);
    const answer = cohereWire.decode(Buffer.from(await res.body.arrayBuffer()), up) as unknown as ChatCompletion;
    expect(answer.choices[0].finish_reason).toBe('tool_calls');
    expect(answer.choices[0].message.tool_calls).toEqual([
      { id: 'get_weather_1byjy32y4hvq', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Toronto"}' } },
    ]);
  });

  it('streams text, the finish and a closing usage-only chunk with the billed units', async () => {
    const { chunks, cut } = await streamed(upstream(chat('cohere-chat', { stream: true }), ch));
    expect(cut).toBe(false);
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    expect(text(chunks)).toBe('Hello from the Cohere mock.');
    expect(chunks.at(-2)?.choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 } });
  });

  it('streams tool call arguments in pieces that join to the whole arguments', async () => {
    const { chunks } = await streamed(upstream(chat('mock-tool-call', { stream: true }), ch));
    const calls = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(calls[0]).toMatchObject({ index: 0, id: 'get_weather_nsz5zm3w56q3', function: { name: 'get_weather' } });
    expect(JSON.parse(calls.map((c) => c.function?.arguments ?? '').join(''))).toEqual({ location: 'Toronto' });
    expect(text(chunks)).toBe('I will look up the weather.');
    expect(chunks.at(-2)?.choices[0].finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)?.usage).toEqual({ prompt_tokens: 37, completion_tokens: 28, total_tokens: 65 });
  });

  it('ends a stream without usage with the finish only', async () => {
    const { chunks } = await streamed(upstream(chat('mock-no-usage', { stream: true }), ch));
    expect(chunks.at(-1)?.choices[0].finish_reason).toBe('stop');
    expect(chunks.some((c) => c.usage)).toBe(false);
  });

  it('keeps what arrived of a stream cut mid-way, without a finish or usage', async () => {
    const { chunks, cut } = await streamed(upstream(chat('mock-cut', { stream: true }), ch));
    expect(cut).toBe(true);
    expect(text(chunks)).toBe('Hello from the');
    expect(chunks.some((c) => c.usage || c.choices[0]?.finish_reason)).toBe(false);
  });

  it('reads a wrong key, a rate limit and a refused body as Cohere errors', async () => {
    const cases: Array<[UpstreamCall, number, string, string]> = [
      [upstream(chat('cohere-chat'), ch, 'cohere-chat', 'wrong'), 401, 'authentication_error', 'invalid api token'],
      [upstream(chat('mock-429'), ch), 429, 'rate_limit_error', 'Trial key'],
      [upstream(clientCall('chat', { model: 'c', messages: [] }), ch), 400, 'invalid_request_error', 'at least one message'],
    ];
    for (const [up, status, type, message] of cases) {
      const res = await send(up);
      expect(res.statusCode).toBe(status);
      const err = cohereWire.parseError(res.statusCode, await res.body.text());
      expect(err.type).toBe(type);
      expect(err.message).toContain(message);
    }
  });

  it('passes a Jina-style rerank body through to v1 rerank, with the mapped model', async () => {
    const body = { model: 'rerank-v3.5', query: 'capital of the US?', documents: ['Carson City', { text: 'Washington, D.C.' }, 'Paris'], top_n: 2, return_documents: true };
    const call = clientCall('rerank', body);
    const same = upstream(call, ch);
    const req = await cohereProvider.build(same);
    expect(req.body).toBe(call.raw);
    expect(req.url).toBe(`${mock.url}/v1/rerank`);

    const res = await send(upstream(call, ch, 'rerank-multilingual-v3.0'));
    expect(res.statusCode).toBe(200);
    const answer = (await res.body.json()) as { results: Array<{ index: number; relevance_score: number; document?: unknown }>; meta: unknown };
    expect(mock.requests.at(-1)?.path).toBe('/v1/rerank');
    expect(mock.requests.at(-1)?.json).toEqual({ ...body, model: 'rerank-multilingual-v3.0' });
    expect(answer.results).toEqual([
      { index: 0, relevance_score: 0.32713068, document: { text: 'Carson City' } },
      { index: 1, relevance_score: 0.1, document: { text: 'Washington, D.C.' } },
    ]);
    expect(answer.meta).toEqual({ api_version: { version: '1' }, billed_units: { search_units: 1 } });
  });
});
