import { ApiError, type GenerateContentResponse, GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureCase, fillModel, isWellFormed, loadCaseFolder } from './fixture-cases.js';
import { type GeminiMock, startGeminiMock } from './gemini.js';

const FIXTURES = new URL('../fixtures/gemini/', import.meta.url);
const generate = loadCaseFolder(new URL('generateContent/', FIXTURES));
const errors = loadCaseFolder(new URL('errors/', FIXTURES));

let mock: GeminiMock;
let ai: GoogleGenAI;

beforeAll(async () => {
  mock = await startGeminiMock();
  ai = new GoogleGenAI({ apiKey: mock.key, httpOptions: { baseUrl: mock.url } });
});
afterAll(() => mock.close());

const modelFor = (c: string) => `gemini-2.5-flash-mock-${c}`;
const bodyOf = (c: FixtureCase, model: string): Record<string, unknown> => JSON.parse(fillModel(JSON.stringify(c.answer!.body), model));
const eventsOf = (c: FixtureCase, model: string): Array<Record<string, unknown>> =>
  c.events!.map((e) => JSON.parse(fillModel(e, model).slice('data: '.length)));
const isErrorEvent = (e: string) => e.startsWith('data: {"error"');

const answered = [...generate.values()].filter((c) => c.answer?.status === 200 && !c.answer.cut && isWellFormed(c));
const streamed = [...generate.values()].filter((c) => c.events && !c.answer?.cut && isWellFormed(c) && !c.events.some(isErrorEvent));

/** The wire fields of an SDK response (it adds sdkHttpResponse). */
function wire(r: GenerateContentResponse): Record<string, unknown> {
  const { candidates, promptFeedback, usageMetadata, modelVersion, responseId } = r;
  return Object.fromEntries(Object.entries({ candidates, promptFeedback, usageMetadata, modelVersion, responseId }).filter(([, v]) => v !== undefined));
}

async function collect(model: string): Promise<{ chunks: GenerateContentResponse[]; error: unknown }> {
  const chunks: GenerateContentResponse[] = [];
  try {
    for await (const c of await ai.models.generateContentStream({ model, contents: 'Hello' })) chunks.push(c);
    return { chunks, error: null };
  } catch (error) {
    return { chunks, error };
  }
}

/** Status and body of an SDK ApiError (a mid-stream one prefixes its body with "got status: …. "). */
const apiErrorOf = (e: unknown) => {
  expect(e).toBeInstanceOf(ApiError);
  const { status, message } = e as ApiError;
  return { status, body: JSON.parse(message.slice(message.indexOf('{'))) as unknown };
};

async function post(path: string, body: string, headers: Record<string, string> = { 'x-goog-api-key': mock.key }) {
  const res = await fetch(`${mock.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return { status: res.status, text: await res.text(), contentType: res.headers.get('content-type') };
}
const CONTENTS = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Hello' }] }] });

describe('Gemini mock answers through @google/genai', () => {
  it('chooses the default case for a model without "mock-"', async () => {
    const r = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Hello' });
    expect(wire(r)).toEqual(bodyOf(generate.get('default')!, 'gemini-2.5-flash'));
    expect(r.text).toBe('Hello from the Gemini mock.');
    expect(mock.requests.at(-1)!.case).toBe('default');
  });

  it.each(answered.map((c) => [c.name, c]))('answers %s as JSON', async (name, c) => {
    const r = await ai.models.generateContent({ model: modelFor(name), contents: 'Hello' });
    expect(wire(r)).toEqual(bodyOf(c, modelFor(name)));
  });

  it.each(streamed.map((c) => [c.name, c]))('streams %s event by event', async (name, c) => {
    const { chunks, error } = await collect(modelFor(name));
    expect(error).toBeNull();
    expect(chunks.map(wire)).toEqual(eventsOf(c, modelFor(name)));
  });

  it('puts usage in every streamed event and finishReason in the last', async () => {
    const { chunks } = await collect('gemini-2.5-pro');
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(c.usageMetadata?.promptTokenCount).toBe(8);
    expect(chunks.slice(0, -1).every((c) => c.candidates![0].finishReason === undefined)).toBe(true);
    expect(chunks.at(-1)!.candidates![0].finishReason).toBe('STOP');
    expect(chunks.at(-1)!.usageMetadata).toMatchObject({ candidatesTokenCount: 7, totalTokenCount: 15 });
  });

  it('answers a function call, thoughts, cached tokens and a MAX_TOKENS stop', async () => {
    const call = await ai.models.generateContent({ model: modelFor('function-call'), contents: 'Weather?' });
    expect(call.functionCalls).toEqual([{ name: 'get_weather', args: { city: 'Paris', unit: 'celsius' } }]);
    const thoughts = await ai.models.generateContent({ model: modelFor('thoughts'), contents: '2+2?' });
    expect(thoughts.candidates![0].content!.parts![0].thought).toBe(true);
    expect(thoughts.usageMetadata).toMatchObject({ thoughtsTokenCount: 38, candidatesTokenCount: 8, totalTokenCount: 56 });
    const cached = await ai.models.generateContent({ model: modelFor('cache-usage'), contents: 'Hi' });
    expect(cached.usageMetadata).toMatchObject({ promptTokenCount: 2100, cachedContentTokenCount: 2048 });
    const max = await ai.models.generateContent({ model: modelFor('max-tokens'), contents: 'Story' });
    expect(max.candidates![0].finishReason).toBe('MAX_TOKENS');
  });

  it('blocks by safety: a SAFETY finish, and a blocked prompt', async () => {
    const safety = await ai.models.generateContent({ model: modelFor('safety'), contents: 'x' });
    expect(safety.candidates![0].finishReason).toBe('SAFETY');
    expect(safety.text).toBeUndefined();
    const blocked = await ai.models.generateContent({ model: modelFor('prompt-blocked'), contents: 'x' });
    expect(blocked.candidates).toBeUndefined();
    expect(blocked.promptFeedback?.blockReason).toBe('SAFETY');
  });

  it('leaves usageMetadata out of the no-usage answers', async () => {
    const r = await ai.models.generateContent({ model: modelFor('no-usage'), contents: 'x' });
    expect(r.usageMetadata).toBeUndefined();
    const { chunks } = await collect(modelFor('no-usage'));
    expect(chunks.every((c) => c.usageMetadata === undefined)).toBe(true);
  });

  it('sends an error event in the middle of the stream-error stream', async () => {
    const { chunks, error } = await collect(modelFor('stream-error'));
    expect(chunks.map((c) => c.text)).toEqual(['Partial']);
    expect(apiErrorOf(error).status).toBe(500);
    const nonStream = await ai.models.generateContent({ model: modelFor('stream-error'), contents: 'x' }).catch((e: unknown) => e);
    expect(apiErrorOf(nonStream).status).toBe(503);
  });

  it('cuts the stream before its last event, and the JSON half-way', async () => {
    const { chunks, error } = await collect(modelFor('cut'));
    expect(error).toBeTruthy();
    expect(chunks.map((c) => c.text)).toEqual(['This answer', ' is cut']);
    expect(mock.requests.at(-1)!.response.cut).toBe(true);
    await expect(ai.models.generateContent({ model: modelFor('cut'), contents: 'x' })).rejects.toThrow();
    expect(mock.requests.at(-1)!.response.cut).toBe(true);
  });

  it.each([...errors.values()].map((c) => [c.name, c]))('refuses %s with its status and Google error body', async (name, c) => {
    const plain = await ai.models.generateContent({ model: modelFor(name), contents: 'x' }).catch((e: unknown) => e);
    expect(apiErrorOf(plain)).toEqual({ status: c.answer!.status, body: c.answer!.body });
    const { error } = await collect(modelFor(name));
    expect(apiErrorOf(error)).toEqual({ status: c.answer!.status, body: c.answer!.body });
  });

  it('counts tokens, with the error cases applying there too', async () => {
    const r = await ai.models.countTokens({ model: 'gemini-2.5-flash', contents: 'Hello' });
    expect(r.totalTokens).toBe(8);
    expect((await ai.models.countTokens({ model: modelFor('thoughts'), contents: 'Hello' })).totalTokens).toBe(8);
    const limited = await ai.models.countTokens({ model: modelFor('rate-limit'), contents: 'Hello' }).catch((e: unknown) => e);
    expect(apiErrorOf(limited).status).toBe(429);
  });

  it('embeds: one embedding per batch request, and a single embedContent', async () => {
    const r = await ai.models.embedContent({ model: 'gemini-embedding-001', contents: ['a', 'b', 'c', 'd'] });
    expect(r.embeddings).toHaveLength(4);
    expect(r.embeddings![0].values).toHaveLength(8);
    expect(r.embeddings![3].values).toEqual(r.embeddings![0].values);
    const single = await post('/v1beta/models/gemini-embedding-001:embedContent', JSON.stringify({ content: { parts: [{ text: 'a' }] } }));
    expect(single.status).toBe(200);
    expect((JSON.parse(single.text) as { embedding: { values: number[] } }).embedding.values).toHaveLength(8);
  });

  it('lists models and gets one', async () => {
    const names: string[] = [];
    for await (const m of await ai.models.list()) names.push(m.name!);
    expect(names).toEqual(['models/gemini-2.5-flash', 'models/gemini-2.5-pro', 'models/gemini-embedding-001']);
    const one = await ai.models.get({ model: 'gemini-2.5-pro' });
    expect(one.displayName).toBe('Gemini 2.5 Pro');
  });
});

describe('Gemini mock speaks the wire format', () => {
  it('frames alt=sse events as data: …\\r\\n\\r\\n', async () => {
    const res = await post('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', CONTENTS);
    expect(res.contentType).toBe('text/event-stream');
    const events = res.text.split('\r\n\r\n');
    expect(events.pop()).toBe('');
    expect(events).toHaveLength(3);
    for (const e of events) expect(e).toMatch(/^data: \{"candidates": \[/);
    expect(mock.requests.at(-1)!.response.body.toString()).toBe(res.text);
  });

  it('streams one JSON array without alt=sse', async () => {
    const res = await post('/v1beta/models/gemini-2.5-flash:streamGenerateContent', CONTENTS);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual(eventsOf(generate.get('default')!, 'gemini-2.5-flash'));
  });

  it('records the raw body, query and headers', async () => {
    const raw = '{"contents": [ {"role":"user","parts":[{"text":"Héllo"}]} ], "generationConfig": {"temperature": 0.5}}';
    const res = await post(`/v1beta/models/gemini-2.5-flash:generateContent?key=${mock.key}`, raw, {});
    expect(res.status).toBe(200);
    const rec = mock.requests.at(-1)!;
    expect(rec).toMatchObject({ method: 'POST', path: '/v1beta/models/gemini-2.5-flash:generateContent', query: { key: mock.key }, case: 'default' });
    expect(rec.body.equals(Buffer.from(raw))).toBe(true);
    expect(rec.json).toEqual(JSON.parse(raw));
    expect(rec.response.body.toString()).toBe(res.text);
  });
});

describe('Gemini mock refuses what Google refuses', () => {
  it('refuses a wrong key with the API_KEY_INVALID body', async () => {
    const bad = new GoogleGenAI({ apiKey: 'AIzaWrong', httpOptions: { baseUrl: mock.url } });
    const err = await bad.models.generateContent({ model: 'gemini-2.5-flash', contents: 'x' }).catch((e: unknown) => e);
    expect(apiErrorOf(err)).toEqual({
      status: 400,
      body: {
        error: {
          code: 400,
          message: 'API key not valid. Please pass a valid API key.',
          status: 'INVALID_ARGUMENT',
          details: [
            {
              '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
              reason: 'API_KEY_INVALID',
              domain: 'googleapis.com',
              metadata: { service: 'generativelanguage.googleapis.com' },
            },
            { '@type': 'type.googleapis.com/google.rpc.LocalizedMessage', locale: 'en-US', message: 'API key not valid. Please pass a valid API key.' },
          ],
        },
      },
    });
    const viaQuery = await post('/v1beta/models/gemini-2.5-flash:generateContent?key=AIzaWrong', CONTENTS, {});
    expect(viaQuery.status).toBe(400);
  });

  it('refuses a call without a key as an unregistered caller', async () => {
    const res = await post('/v1beta/models/gemini-2.5-flash:generateContent', CONTENTS, {});
    expect(res.status).toBe(403);
    expect(JSON.parse(res.text)).toMatchObject({ error: { code: 403, status: 'PERMISSION_DENIED' } });
  });

  it.each([
    ['generateContent', '{}', '* GenerateContentRequest.contents: contents is not specified\n'],
    ['generateContent', '{"contents": []}', '* GenerateContentRequest.contents: contents is not specified\n'],
    ['streamGenerateContent?alt=sse', '{}', '* GenerateContentRequest.contents: contents is not specified\n'],
    ['embedContent', '{}', '* EmbedContentRequest.content: content is not specified\n'],
    ['batchEmbedContents', '{"requests": []}', '* BatchEmbedContentsRequest.requests: requests is not specified\n'],
    ['generateContent', '{not json', 'Invalid JSON payload received. Unexpected token.'],
  ])('refuses %s with %s as INVALID_ARGUMENT', async (action, body, message) => {
    const res = await post(`/v1beta/models/gemini-2.5-flash:${action}`, body);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual({ error: { code: 400, message, status: 'INVALID_ARGUMENT' } });
  });

  it('answers an unknown case with 404 NOT_FOUND', async () => {
    const res = await post('/v1beta/models/gemini-mock-nonexistent:generateContent', CONTENTS);
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text)).toMatchObject({ error: { code: 404, status: 'NOT_FOUND', message: expect.stringContaining('models/gemini-mock-nonexistent is not found') } });
  });
});
