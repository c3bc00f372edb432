import { readFileSync } from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClaudeMock, startClaudeMock } from './claude.js';
import { type FixtureCase, fillModel, isWellFormed, loadCaseFolder } from './fixture-cases.js';

const FIXTURES = new URL('../fixtures/claude/', import.meta.url);
const messages = loadCaseFolder(new URL('messages/', FIXTURES));
const errors = loadCaseFolder(new URL('errors/', FIXTURES));

let mock: ClaudeMock;
let client: Anthropic;

beforeAll(async () => {
  mock = await startClaudeMock();
  client = new Anthropic({ apiKey: mock.key, baseURL: mock.url, maxRetries: 0 });
});
afterAll(() => mock.close());

const modelFor = (c: string) => `claude-sonnet-mock-${c}`;
const ask = (model: string) => ({ model, max_tokens: 64, messages: [{ role: 'user' as const, content: 'Hello' }] });
const bodyOf = (c: FixtureCase, model: string): unknown => JSON.parse(fillModel(JSON.stringify(c.answer!.body), model));
/** The fixture's events as the SDK yields them (it drops pings). */
const eventsOf = (c: FixtureCase, model: string): unknown[] =>
  c.events!
    .filter((e) => !e.startsWith('event: ping'))
    .map((e) => JSON.parse(fillModel(e, model).split('\n').find((l) => l.startsWith('data: '))!.slice(6)));
const hasErrorEvent = (c: FixtureCase) => c.events!.some((e) => e.startsWith('event: error'));

const answered = [...messages.values()].filter((c) => c.answer?.status === 200 && !c.answer.cut && isWellFormed(c));
const streamed = [...messages.values()].filter((c) => c.events && !c.answer?.cut && isWellFormed(c) && !hasErrorEvent(c));

async function collect(stream: AsyncIterable<unknown>): Promise<{ events: unknown[]; error: unknown }> {
  const events: unknown[] = [];
  try {
    for await (const e of stream) events.push(e);
    return { events, error: null };
  } catch (error) {
    return { events, error };
  }
}

async function post(path: string, body: string, headers: Record<string, string>): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${mock.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return { status: res.status, json: await res.json() };
}
const goodHeaders = () => ({ 'x-api-key': mock.key, 'anthropic-version': '2023-06-01' });

describe('Claude mock answers through @anthropic-ai/sdk', () => {
  it('chooses the default case for a model without "mock-"', async () => {
    const msg = await client.messages.create(ask('claude-sonnet-4-5-20250929'));
    expect(msg).toEqual(bodyOf(messages.get('default')!, 'claude-sonnet-4-5-20250929'));
    expect(mock.requests.at(-1)!.case).toBe('default');
  });

  it.each(answered.map((c) => [c.name, c]))('answers %s as JSON', async (name, c) => {
    const msg = await client.messages.create(ask(modelFor(name)));
    expect(msg).toEqual(bodyOf(c, modelFor(name)));
  });

  it.each(streamed.map((c) => [c.name, c]))('streams %s event by event', async (name, c) => {
    const stream = await client.messages.create({ ...ask(modelFor(name)), stream: true });
    const { events, error } = await collect(stream);
    expect(error).toBeNull();
    expect(events).toEqual(eventsOf(c, modelFor(name)));
    expect((events.at(-1) as { type: string }).type).toBe('message_stop');
  });

  it.each(streamed.filter((c) => c.name !== 'no-usage').map((c) => [c.name, c]))(
    'accumulates the %s stream into the same message as the JSON answer',
    async (name, c) => {
      const final = await client.messages.stream(ask(modelFor(name))).finalMessage();
      const { content, stop_reason, usage } = bodyOf(c, modelFor(name)) as Anthropic.Message;
      expect(final).toMatchObject({ content, stop_reason, usage });
    },
  );

  it('streams a tool_use block as input_json_delta pieces that join to the input', async () => {
    const { events } = await collect(await client.messages.create({ ...ask(modelFor('tool-use')), stream: true }));
    const pieces = events
      .filter((e): e is Anthropic.RawContentBlockDeltaEvent => (e as { type: string }).type === 'content_block_delta')
      .map((e) => e.delta)
      .filter((d): d is Anthropic.InputJSONDelta => d.type === 'input_json_delta');
    expect(pieces.length).toBeGreaterThan(2);
    expect(JSON.parse(pieces.map((p) => p.partial_json).join(''))).toEqual({ city: 'Paris', unit: 'celsius' });
  });

  it('carries the thinking signature and the cache usage', async () => {
    const thinking = await client.messages.create(ask(modelFor('thinking-signature')));
    expect(thinking.content[0]).toMatchObject({ type: 'thinking', signature: expect.stringMatching(/^EqQB/) });
    const cached = await client.messages.create(ask(modelFor('cache-usage')));
    expect(cached.usage).toMatchObject({ input_tokens: 8, cache_creation_input_tokens: 1200, cache_read_input_tokens: 3400, output_tokens: 7 });
    const max = await client.messages.create(ask(modelFor('max-tokens')));
    expect(max.stop_reason).toBe('max_tokens');
  });

  it('leaves usage out of the no-usage answers', async () => {
    const msg = await client.messages.create(ask(modelFor('no-usage')));
    expect(msg.usage).toBeUndefined();
    const { events } = await collect(await client.messages.create({ ...ask(modelFor('no-usage')), stream: true }));
    expect(events.some((e) => 'usage' in (e as object) || Object.hasOwn((e as { message?: object }).message ?? {}, 'usage'))).toBe(false);
  });

  it('sends an error event in the middle of the stream-error stream', async () => {
    const { events, error } = await collect(await client.messages.create({ ...ask(modelFor('stream-error')), stream: true }));
    expect(events.map((e) => (e as { type: string }).type)).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'content_block_delta']);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect((error as InstanceType<typeof Anthropic.APIError>).error).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    await expect(client.messages.create(ask(modelFor('stream-error')))).rejects.toMatchObject({ status: 529 });
  });

  it('cuts the stream before message_stop, and the JSON half-way', async () => {
    const { events, error } = await collect(await client.messages.create({ ...ask(modelFor('cut')), stream: true }));
    expect(error).toBeTruthy();
    expect(events.length).toBeGreaterThan(2);
    expect(events.some((e) => (e as { type: string }).type === 'message_stop')).toBe(false);
    expect(mock.requests.at(-1)!.response.cut).toBe(true);
    await expect(client.messages.create(ask(modelFor('cut')))).rejects.toThrow();
    expect(mock.requests.at(-1)!.response.cut).toBe(true);
  });

  it.each([...errors.values()].map((c) => [c.name, c]))('refuses %s with its status and Anthropic error body', async (name, c) => {
    for (const stream of [false, true]) {
      const err = await client.messages.create({ ...ask(modelFor(name)), stream }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Anthropic.APIError);
      const apiErr = err as InstanceType<typeof Anthropic.APIError>;
      expect(apiErr.status).toBe(c.answer!.status);
      expect(apiErr.error).toEqual(c.answer!.body);
      for (const [h, v] of Object.entries(c.answer!.headers)) expect(apiErr.headers?.get(h)).toBe(v);
    }
  });

  it('answers a 429 with retry-after', async () => {
    const err = (await client.messages.create(ask(modelFor('rate-limit'))).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
    expect(err).toBeInstanceOf(Anthropic.RateLimitError);
    expect(err.headers?.get('retry-after')).toBe('1');
  });

  it('counts tokens, with the error cases applying there too', async () => {
    expect(await client.messages.countTokens({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'Hello' }] })).toEqual({ input_tokens: 21 });
    expect(await client.messages.countTokens({ model: modelFor('tool-use'), messages: [{ role: 'user', content: 'Hi' }] })).toEqual({ input_tokens: 21 });
    await expect(client.messages.countTokens({ model: modelFor('overloaded'), messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject({ status: 529 });
  });

  it('lists models', async () => {
    const ids: string[] = [];
    for await (const m of client.models.list()) ids.push(m.id);
    expect(ids).toContain('claude-sonnet-4-5-20250929');
  });
});

describe('Claude mock refuses what Anthropic refuses', () => {
  it('refuses a wrong key with 401 authentication_error', async () => {
    const bad = new Anthropic({ apiKey: 'sk-ant-wrong', baseURL: mock.url, maxRetries: 0 });
    const err = (await bad.messages.create(ask('claude-sonnet-4-5')).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
    expect(err).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(err.error).toMatchObject({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
  });

  it('refuses a missing key, and accepts it as x-api-key', async () => {
    const body = JSON.stringify(ask('claude-sonnet-4-5'));
    const missing = await post('/v1/messages', body, { 'anthropic-version': '2023-06-01' });
    expect(missing.status).toBe(401);
    expect(missing.json).toMatchObject({ type: 'error', error: { type: 'authentication_error', message: 'x-api-key header is required' } });
    const ok = await post('/v1/messages', body, goodHeaders());
    expect(ok.status).toBe(200);
  });

  it('requires the anthropic-version header', async () => {
    const res = await post('/v1/messages', JSON.stringify(ask('claude-sonnet-4-5')), { 'x-api-key': mock.key });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'anthropic-version: header is required' },
      request_id: expect.stringMatching(/^req_/),
    });
  });

  it.each([
    ['no model', { max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }, 'model: Field required'],
    ['no max_tokens', { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'x' }] }, 'max_tokens: Field required'],
    ['a fractional max_tokens', { model: 'claude-sonnet-4-5', max_tokens: 1.5, messages: [{ role: 'user', content: 'x' }] }, 'max_tokens: Input should be a valid integer'],
    ['no messages', { model: 'claude-sonnet-4-5', max_tokens: 10 }, 'messages: Field required'],
    ['empty messages', { model: 'claude-sonnet-4-5', max_tokens: 10, messages: [] }, 'messages: at least one message is required'],
  ])('refuses a body with %s', async (_what, body, message) => {
    const res = await post('/v1/messages', JSON.stringify(body), goodHeaders());
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message } });
  });

  it('answers an unknown case and an unknown path with 404 not_found_error', async () => {
    const unknown = await post('/v1/messages', JSON.stringify(ask('claude-mock-nonexistent')), goodHeaders());
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ error: { type: 'not_found_error', message: 'model: claude-mock-nonexistent' } });
    const path = await post('/v1/complete', '{}', goodHeaders());
    expect(path.status).toBe(404);
  });
});

describe('Claude mock records requests and the bytes it answered', () => {
  it('keeps the raw body, query, headers and parsed JSON', async () => {
    const raw = '{ "model":"claude-sonnet-4-5",  "max_tokens":16, "messages":[{"role":"user","content":"Héllo"}] }';
    const res = await fetch(`${mock.url}/v1/messages?beta=true`, { method: 'POST', headers: { ...goodHeaders(), 'content-type': 'application/json' }, body: raw });
    const text = await res.text();
    const rec = mock.requests.at(-1)!;
    expect(rec).toMatchObject({ method: 'POST', path: '/v1/messages', query: { beta: 'true' }, case: 'default' });
    expect(rec.headers['x-api-key']).toBe(mock.key);
    expect(rec.body.equals(Buffer.from(raw))).toBe(true);
    expect(rec.json).toEqual(JSON.parse(raw));
    expect(rec.response.status).toBe(200);
    expect(rec.response.body.toString()).toBe(text);
  });

  it('streams the SSE fixture byte for byte', async () => {
    const model = 'claude-haiku-4-5';
    const res = await fetch(`${mock.url}/v1/messages`, {
      method: 'POST',
      headers: { ...goodHeaders(), 'content-type': 'application/json' },
      body: JSON.stringify({ ...ask(model), stream: true }),
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await res.text();
    expect(text).toBe(fillModel(readFileSync(new URL('messages/default.sse', FIXTURES), 'utf8'), model));
    expect(mock.requests.at(-1)!.response.body.toString()).toBe(text);
  });
});
