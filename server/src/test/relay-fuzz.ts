import v8 from 'node:v8';
import vm from 'node:vm';
import fc from 'fast-check';
import { expect } from 'vitest';
import { EDGE_MODELS as M, VIAS, type EdgeAnswer, type EdgeFixture, type EdgeRequest, type Via } from './edge-fixture.js';

/*
 * Property-based probing of the relay's edge: what to send (valid bodies of every endpoint, the same bodies with one
 * field replaced by a wrong type, null or a huge value, random JSON and bytes) and what every answer must satisfy
 * (an answer always comes; no 5xx of the gateway's own; every error in the caller's format; nothing the relay logs
 * as its own failure). Runs are bounded for CI: FUZZ_RUNS raises them (npm run fuzz).
 */

/** Runs per property: small in CI, FUZZ_RUNS for a longer search. */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS) || 60;

/**
 * A test's time limit, growing with the runs asked for. Alone a file takes seconds; the margin is for the whole
 * suite running in parallel on a small machine.
 */
export const FUZZ_TIMEOUT = 180_000 + FUZZ_RUNS * 500;

export type Format = 'openai' | 'claude' | 'gemini';
type Json = unknown;

/** The error body's format, or null when it is none of the three (a framework or console body, or not JSON). */
export function errorFormatOf(text: string): Format | null {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (!body || typeof body !== 'object') return null;
  const error = body.error as Record<string, unknown> | undefined;
  if (body.type === 'error' && typeof error?.type === 'string' && typeof error.message === 'string') return 'claude';
  if (error && typeof error.message === 'string' && typeof error.code === 'number' && typeof error.status === 'string') return 'gemini';
  if (error && typeof error.message === 'string' && typeof error.type === 'string' && 'param' in error && 'code' in error) return 'openai';
  return null;
}

/** The format the relay documents for errors on a path it has no endpoint for: the path first, then the SDK's headers. */
export function formatOfUnknownPath(path: string, headers: Record<string, string>): Format {
  const [p, q = ''] = path.split('?');
  if (p.startsWith('/v1/messages')) return 'claude';
  if (p.startsWith('/v1beta') || /^\/v1\/models\/[^/]*:/.test(p)) return 'gemini';
  if (p.startsWith('/v1/responses')) return 'openai';
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  if (lower['anthropic-version'] !== undefined) return 'claude';
  if (lower['x-goog-api-key'] !== undefined || /(^|&)key=/.test(q)) return 'gemini';
  return 'openai';
}

/* ---------- valid bodies ---------- */

const words = fc.oneof(fc.string({ maxLength: 30 }), fc.string({ unit: 'grapheme', maxLength: 12 }));
const someWords = fc.string({ minLength: 1, maxLength: 30 });
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const SCHEMA = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

const chatPart = fc.oneof(
  fc.record({ type: fc.constant('text'), text: words }),
  fc.record({ type: fc.constant('image_url'), image_url: fc.record({ url: fc.constantFrom('https://example.test/cat.png', `data:image/png;base64,${PNG}`) }) }),
);
const chatMessage = fc.oneof(
  fc.record({ role: fc.constantFrom('system', 'developer', 'user', 'assistant'), content: words }),
  fc.record({ role: fc.constant('user'), content: fc.array(chatPart, { minLength: 1, maxLength: 3 }) }),
  fc.record({
    role: fc.constant('assistant'),
    content: fc.constant(null),
    tool_calls: fc.array(
      fc.record({ id: fc.constantFrom('call_1', 'call_2'), type: fc.constant('function'), function: fc.record({ name: fc.constant('get_weather'), arguments: fc.constantFrom('{"city":"Paris"}', '{}', 'not json') }) }),
      { minLength: 1, maxLength: 2 },
    ),
  }),
  fc.record({ role: fc.constant('tool'), tool_call_id: fc.constantFrom('call_1', 'call_2'), content: words }),
);

const openAIModels = fc.constantFrom(M.openai, M.claude, M.gemini);

const chat = fc.record(
  {
    model: openAIModels,
    messages: fc.array(chatMessage, { minLength: 1, maxLength: 5 }),
    stream: fc.boolean(),
    stream_options: fc.constant({ include_usage: true }),
    max_tokens: fc.integer({ min: 1, max: 512 }),
    temperature: fc.double({ min: 0, max: 2, noNaN: true }),
    tools: fc.constant([{ type: 'function', function: { name: 'get_weather', description: 'Weather of a city', parameters: SCHEMA } }]),
    tool_choice: fc.constantFrom('auto', 'none', 'required'),
    stop: fc.oneof(fc.constant('\n'), fc.constant(['END'])),
    response_format: fc.constantFrom({ type: 'text' }, { type: 'json_object' }),
  },
  { requiredKeys: ['model', 'messages'] },
);

const textOrTexts = fc.oneof(someWords, fc.array(someWords, { minLength: 1, maxLength: 3 }));

const completions = fc.record(
  { model: fc.constant(M.openai), prompt: textOrTexts, max_tokens: fc.integer({ min: 1, max: 64 }), stream: fc.boolean(), temperature: fc.double({ min: 0, max: 2, noNaN: true }) },
  { requiredKeys: ['model', 'prompt'] },
);
const embeddings = fc.record({ model: fc.constantFrom(M.openai, M.gemini), input: textOrTexts, dimensions: fc.integer({ min: 1, max: 256 }) }, { requiredKeys: ['model', 'input'] });
const moderations = fc.record({ model: fc.constant(M.openai), input: textOrTexts }, { requiredKeys: ['input'] });
const images = fc.record({ model: fc.constant(M.openai), prompt: someWords, n: fc.integer({ min: 1, max: 2 }), size: fc.constant('1024x1024') }, { requiredKeys: ['model', 'prompt'] });
const speech = fc.record({ model: fc.constant(M.openai), input: someWords, voice: fc.constant('alloy'), speed: fc.double({ min: 0.25, max: 4, noNaN: true }) }, { requiredKeys: ['model', 'input', 'voice'] });
const rerank = fc.record(
  { model: fc.constant(M.openai), query: someWords, documents: fc.array(someWords, { minLength: 1, maxLength: 3 }), top_n: fc.integer({ min: 1, max: 3 }) },
  { requiredKeys: ['model', 'query', 'documents'] },
);

const responsesItem = fc.oneof(
  fc.record({ role: fc.constantFrom('user', 'assistant', 'system', 'developer'), content: words }),
  fc.record({ role: fc.constant('user'), content: fc.array(fc.record({ type: fc.constant('input_text'), text: words }), { minLength: 1, maxLength: 2 }) }),
  fc.record({ type: fc.constant('function_call'), call_id: fc.constant('call_1'), name: fc.constant('get_weather'), arguments: fc.constant('{"city":"Paris"}') }),
  fc.record({ type: fc.constant('function_call_output'), call_id: fc.constant('call_1'), output: words }),
);
const responses = fc.record(
  {
    model: fc.constantFrom(M.responses, M.responsesOnChat, M.claude, M.gemini),
    input: fc.oneof(someWords, fc.array(responsesItem, { minLength: 1, maxLength: 4 })),
    instructions: words,
    stream: fc.boolean(),
    max_output_tokens: fc.integer({ min: 16, max: 512 }),
    temperature: fc.double({ min: 0, max: 2, noNaN: true }),
    tools: fc.constant([{ type: 'function', name: 'get_weather', parameters: SCHEMA }]),
  },
  { requiredKeys: ['model', 'input'] },
);

const claudeBlock = fc.oneof(
  fc.record({ type: fc.constant('text'), text: someWords }),
  fc.record({ type: fc.constant('image'), source: fc.constant({ type: 'base64', media_type: 'image/png', data: PNG }) }),
  fc.record({ type: fc.constant('tool_use'), id: fc.constant('toolu_1'), name: fc.constant('get_weather'), input: fc.constant({ city: 'Paris' }) }),
  fc.record({ type: fc.constant('tool_result'), tool_use_id: fc.constant('toolu_1'), content: fc.oneof(someWords, fc.constant([{ type: 'text', text: 'sunny' }])) }),
);
const claudeMessage = fc.record({ role: fc.constantFrom('user', 'assistant'), content: fc.oneof(someWords, fc.array(claudeBlock, { minLength: 1, maxLength: 3 })) });
const claudeFields = {
  model: fc.constantFrom(M.claude, M.claudeOnOpenAI, M.gemini),
  messages: fc.array(claudeMessage, { minLength: 1, maxLength: 4 }),
  system: fc.oneof(words, fc.constant([{ type: 'text', text: 'be brief' }])),
  tools: fc.constant([{ name: 'get_weather', description: 'Weather of a city', input_schema: SCHEMA }]),
  tool_choice: fc.constantFrom({ type: 'auto' }, { type: 'any' }, { type: 'tool', name: 'get_weather' }),
  thinking: fc.constant({ type: 'enabled', budget_tokens: 1024 }),
};
const claudeMessages = fc.record(
  { ...claudeFields, max_tokens: fc.integer({ min: 1, max: 2048 }), stream: fc.boolean(), temperature: fc.double({ min: 0, max: 1, noNaN: true }), stop_sequences: fc.constant(['END']) },
  { requiredKeys: ['model', 'messages', 'max_tokens'] },
);
const claudeCount = fc.record(claudeFields, { requiredKeys: ['model', 'messages'] });

const geminiPart = fc.oneof(
  fc.record({ text: words }),
  fc.record({ inlineData: fc.constant({ mimeType: 'image/png', data: PNG }) }),
  fc.record({ functionCall: fc.constant({ name: 'get_weather', args: { city: 'Paris' } }) }),
  fc.record({ functionResponse: fc.constant({ name: 'get_weather', response: { weather: 'sunny' } }) }),
);
const geminiContent = fc.record({ role: fc.constantFrom('user', 'model'), parts: fc.array(geminiPart, { minLength: 1, maxLength: 3 }) }, { requiredKeys: ['parts'] });
const geminiGenerate = fc.record(
  {
    contents: fc.array(geminiContent, { minLength: 1, maxLength: 3 }),
    systemInstruction: fc.constant({ parts: [{ text: 'be brief' }] }),
    generationConfig: fc.record({ temperature: fc.double({ min: 0, max: 2, noNaN: true }), maxOutputTokens: fc.integer({ min: 1, max: 512 }), stopSequences: fc.constant(['END']) }, { requiredKeys: [] }),
    tools: fc.constant([{ functionDeclarations: [{ name: 'get_weather', description: 'Weather of a city', parameters: SCHEMA }] }]),
  },
  { requiredKeys: ['contents'] },
);

/** Google's JSON mapping takes snake_case names and single objects for lists: clients send both. */
function googleSpelling(body: Json, snake: boolean, single: boolean): Json {
  if (Array.isArray(body)) return single && body.length === 1 ? googleSpelling(body[0], snake, single) : body.map((v) => googleSpelling(v, snake, single));
  if (!body || typeof body !== 'object') return body;
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(body)) out[snake ? k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) : k] = k === 'parameters' || k === 'args' || k === 'response' ? v : googleSpelling(v, snake, single);
  return out;
}
const geminiSpelled = (body: fc.Arbitrary<Json>) => fc.tuple(body, fc.boolean(), fc.boolean()).map(([b, snake, single]) => googleSpelling(b, snake, single));

const embedContent = fc.record({ content: fc.record({ parts: fc.array(fc.record({ text: someWords }), { minLength: 1, maxLength: 2 }) }) });
const batchEmbed = fc.record({ requests: fc.array(fc.record({ model: fc.constant(`models/${M.gemini}`), content: fc.record({ parts: fc.constant([{ text: 'hello' }]) }) }), { minLength: 1, maxLength: 3 }) });

/* ---------- endpoints ---------- */

export interface Endpoint {
  name: string;
  format: Format;
  /** Paths to call (a Gemini endpoint names its model in the path). */
  paths: fc.Arbitrary<string>;
  /** Valid bodies. */
  body: fc.Arbitrary<Json>;
}

/** Mostly models the relay serves; now and then any name at all, percent-encoded as a client would. */
const geminiModel = (models: string[]) =>
  fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...models) }, { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 16 }).map(encodeURIComponent) });

const geminiPaths = (action: string, models: string[], query: string[] = ['']) =>
  fc.tuple(geminiModel(models), fc.constantFrom(...query), fc.constantFrom('/v1beta', '/v1')).map(([m, q, v]) => `${v}/models/${m}:${action}${q}`);

export const JSON_ENDPOINTS: readonly Endpoint[] = [
  { name: 'chat completions', format: 'openai', paths: fc.constant('/v1/chat/completions'), body: chat },
  { name: 'completions', format: 'openai', paths: fc.constant('/v1/completions'), body: completions },
  { name: 'embeddings', format: 'openai', paths: fc.constant('/v1/embeddings'), body: embeddings },
  { name: 'engine embeddings', format: 'openai', paths: fc.constant(`/v1/engines/${M.openai}/embeddings`), body: embeddings },
  { name: 'moderations', format: 'openai', paths: fc.constant('/v1/moderations'), body: moderations },
  { name: 'images', format: 'openai', paths: fc.constant('/v1/images/generations'), body: images },
  { name: 'speech', format: 'openai', paths: fc.constant('/v1/audio/speech'), body: speech },
  { name: 'rerank', format: 'openai', paths: fc.constant('/v1/rerank'), body: rerank },
  { name: 'responses', format: 'openai', paths: fc.constant('/v1/responses'), body: responses },
  { name: 'claude messages', format: 'claude', paths: fc.constant('/v1/messages'), body: claudeMessages },
  { name: 'claude count_tokens', format: 'claude', paths: fc.constant('/v1/messages/count_tokens'), body: claudeCount },
  { name: 'gemini generateContent', format: 'gemini', paths: geminiPaths('generateContent', [M.gemini, M.geminiOnOpenAI, M.claude]), body: geminiSpelled(geminiGenerate) },
  {
    name: 'gemini streamGenerateContent',
    format: 'gemini',
    paths: geminiPaths('streamGenerateContent', [M.gemini, M.geminiOnOpenAI, M.claude], ['?alt=sse', '']),
    body: geminiSpelled(geminiGenerate),
  },
  {
    name: 'gemini countTokens',
    format: 'gemini',
    paths: geminiPaths('countTokens', [M.gemini]),
    body: fc.oneof(geminiSpelled(geminiGenerate), geminiGenerate.map((g) => ({ generateContentRequest: { model: `models/${M.gemini}`, ...(g as object) } }))),
  },
  { name: 'gemini embedContent', format: 'gemini', paths: geminiPaths('embedContent', [M.gemini, M.openai]), body: geminiSpelled(embedContent) },
  { name: 'gemini batchEmbedContents', format: 'gemini', paths: geminiPaths('batchEmbedContents', [M.gemini, M.openai]), body: geminiSpelled(batchEmbed) },
];

/** The caller's key the way each format's SDKs send it. */
export function authHeaders(format: Format, key: string, style = 0): Record<string, string> {
  if (format === 'claude') return style % 2 ? { 'x-api-key': key, 'anthropic-version': '2023-06-01' } : { authorization: `Bearer ${key}`, 'anthropic-version': '2023-06-01' };
  if (format === 'gemini') return style % 2 ? { 'x-goog-api-key': key } : { authorization: `Bearer ${key}` };
  return { authorization: `Bearer ${key}` };
}

/* ---------- mutations ---------- */

const DELETE = Symbol('delete');

/** Every place in a JSON value (object keys and array indexes), up to a bound. */
function placesOf(value: Json, at: Array<string | number> = [], out: Array<Array<string | number>> = []): Array<Array<string | number>> {
  const children: Array<[string | number, Json]> = Array.isArray(value) ? value.map((v, i) => [i, v]) : value && typeof value === 'object' ? Object.entries(value) : [];
  for (const [key, child] of children) {
    if (out.length >= 200) break;
    const place = [...at, key];
    out.push(place);
    placesOf(child, place, out);
  }
  return out;
}

function replacedAt(value: Json, place: Array<string | number>, replacement: unknown): Json {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let owner = copy;
  for (const key of place.slice(0, -1)) owner = owner[key] as Record<string | number, unknown>;
  const last = place[place.length - 1];
  if (replacement === DELETE) {
    if (Array.isArray(owner)) owner.splice(Number(last), 1);
    else delete owner[last];
  } else owner[last] = replacement;
  return copy;
}

/** Nested lists `depth` deep, for converters that recurse. */
const nested = (depth: number) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown;

/** What a field is replaced by: the wrong type, null, nothing at all, a huge or deep value. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.constant(DELETE),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.string({ maxLength: 20 }),
  fc.constant([]),
  fc.constant({}),
  fc.constant([null]),
  fc.constant([[]]),
  fc.constant({ type: null }),
  fc.constant(-1),
  fc.constant(1e308),
  fc.constant(Number.MAX_SAFE_INTEGER),
  fc.constant('x'.repeat(100_000)),
  fc.constant(nested(2_000)),
  fc.jsonValue({ maxDepth: 3 }),
);

/** A valid body with one field replaced by a wrong value (or removed). */
export function mutated(valid: fc.Arbitrary<Json>): fc.Arbitrary<Json> {
  return valid.chain((body) => {
    const places = placesOf(body);
    if (places.length === 0) return fc.constant(body);
    return fc.tuple(fc.constantFrom(...places), wrongValue).map(([place, replacement]) => replacedAt(body, place, replacement));
  });
}

/** Bodies for an endpoint: valid, mutated, random JSON, not JSON at all. */
export function bodiesOf(endpoint: Endpoint): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: endpoint.body.map((b) => JSON.stringify(b)) },
    { weight: 6, arbitrary: mutated(endpoint.body).map((b) => JSON.stringify(b)) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((b) => JSON.stringify(b)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  );
}

/* ---------- the oracle ---------- */

/** What JavaScript says when code meets a value it did not expect: never a relay error message. */
const JS_TEXT = /Cannot read propert|is not a function|is not iterable|Cannot convert|undefined is not|Maximum call stack|Invalid array length|Unexpected token|is not valid JSON/;

export interface Sent {
  via: Via;
  request: EdgeRequest;
  /** The format every error of this request must take. */
  format: Format;
}

/**
 * Sends one request and checks what every answer must satisfy: one comes; a 5xx only when an upstream was asked
 * (or 501, the documented answer for OpenAI calls not relayed); an error body in the caller's format; nothing the
 * relay logs as its own failure.
 */
export async function sendAndCheck(f: EdgeFixture, sent: Sent): Promise<EdgeAnswer> {
  const before = f.upstreamCalls();
  const logged = f.relayErrors.length;
  const answer = await f.send(sent.via, sent.request);
  const what = `${sent.via} ${sent.request.method ?? 'POST'} ${sent.request.path} -> ${answer.status} ${answer.text.slice(0, 300)}`;
  if (answer.status >= 500) {
    expect(answer.status === 501 || f.upstreamCalls() > before, `a 5xx of the gateway's own: ${what}`).toBe(true);
    expect(answer.text, what).not.toContain('服务器内部错误');
  }
  if (answer.status >= 400 && sent.request.method !== 'HEAD') {
    expect(errorFormatOf(answer.text), what).toBe(sent.format);
    expect(answer.text, `JavaScript's own words in an error: ${what}`).not.toMatch(JS_TEXT);
  }
  expect(f.relayErrors.slice(logged), what).toEqual([]);
  return answer;
}

/* ---------- memory ---------- */

let gc: (() => void) | null = null;

/** Heap in use after a full collection (bytes). */
export function heapAfterGc(): number {
  if (!gc) {
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as () => void;
  }
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

export { VIAS };
