import type http from 'node:http';
import {
  type CaseFolder,
  DEFAULT_CASE,
  type FixtureCase,
  type FixtureServer,
  type MockRequest,
  caseOfModel,
  fillModel,
  findCase,
  loadCaseFolder,
  sendBody,
  sendStream,
  startFixtureServer,
} from './fixture-cases.js';
import { serveMock, waitUnlessGone } from './local-server.js';

/*
 * A local Gemini API (generativelanguage, channel type 24) answering from fixture files in ../fixtures/gemini/.
 *
 * Checks what Google checks: the key from `x-goog-api-key` or `?key=` — missing → 403 PERMISSION_DENIED
 * ("unregistered callers", as Google answers), wrong → 400 INVALID_ARGUMENT with the API_KEY_INVALID details; then the
 * body (`contents` for generateContent / streamGenerateContent / countTokens, `content` for embedContent, `requests`
 * for batchEmbedContents) → 400 INVALID_ARGUMENT.
 *
 * Routes under /v1beta (also /v1, /v1alpha): POST models/{model}:generateContent, :streamGenerateContent
 * (`?alt=sse` → `data: {...}\r\n\r\n` events; without it → one JSON array), :countTokens, :embedContent,
 * :batchEmbedContents (one embedding per request); GET models, GET models/{model}.
 *
 * The case is chosen by the model in the path: the text after its last "mock-" names a fixture case
 * ("gemini-mock-function-call" → function-call); a model without "mock-" gets `default`; an unknown case → 404.
 * A route's own folder is searched first, then errors/ (which applies to every route); a case that exists only for
 * another route answers with this route's default (countTokens of "mock-thoughts").
 *
 * generateContent/: default, function-call, thoughts, cache-usage, max-tokens, safety (finishReason SAFETY),
 *   prompt-blocked (promptFeedback.blockReason), no-usage, stream-error (error event mid-stream; 503 when not
 *   streamed), cut (the socket is destroyed before the last event / half-way through the JSON), malformed (JSON that
 *   does not parse / an event whose data does not parse).
 * Timing faults are the mock's options: `headDelayMs` (late first byte), `stallAfter` (silence mid-answer).
 * errors/: bad-request 400, permission-denied 403, rate-limit 429, server-error 500, unavailable 503.
 * Adding a case is adding `<case>.json` (+ `<case>.sse`) — see fixture-cases.ts for the file format.
 */

export const GEMINI_MOCK_KEY = 'AIzaSyMockUpstreamKeyForSwitchyardTests0';

export interface GeminiMockOptions {
  key?: string;
  /** Pause before each streamed event (ms). */
  eventDelayMs?: number;
  /** Wait this long before the status line (ms): a first byte that comes late or never. */
  headDelayMs?: number;
  /** Go silent with the connection open: streams after this many events, JSON answers half-way through. */
  stallAfter?: number;
}

export interface GeminiMock extends FixtureServer {
  key: string;
  eventDelayMs: number;
  headDelayMs: number;
  stallAfter: number | undefined;
}

const FIXTURES = new URL('../fixtures/gemini/', import.meta.url);
const JSON_HEADERS = { 'content-type': 'application/json; charset=UTF-8', vary: 'Origin, X-Origin, Referer' };
const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };
const ACTION = /^\/(v1|v1beta|v1alpha)\/models\/([^/:]+):([A-Za-z]+)$/;
const MODELS = /^\/(v1|v1beta|v1alpha)\/models(?:\/([^/:]+))?$/;

const ROUTES = ['generateContent', 'countTokens', 'embedContent', 'batchEmbedContents'] as const;
type Route = (typeof ROUTES)[number];
type Folders = Record<Route | 'models' | 'errors', CaseFolder>;

function loadFolders(): Folders {
  const load = (name: string) => loadCaseFolder(new URL(`${name}/`, FIXTURES));
  return {
    generateContent: load('generateContent'),
    countTokens: load('countTokens'),
    embedContent: load('embedContent'),
    batchEmbedContents: load('batchEmbedContents'),
    models: load('models'),
    errors: load('errors'),
  };
}

/** Google's JSON: indented by two, ending with a newline. */
const googleJson = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

function refuse(res: http.ServerResponse, rec: MockRequest, code: number, status: string, message: string, details?: unknown[]) {
  const body = { error: { code, message, status, ...(details ? { details } : {}) } };
  return sendBody(res, rec, code, JSON_HEADERS, googleJson(body));
}

const INVALID_KEY = 'API key not valid. Please pass a valid API key.';
const INVALID_KEY_DETAILS = [
  {
    '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
    reason: 'API_KEY_INVALID',
    domain: 'googleapis.com',
    metadata: { service: 'generativelanguage.googleapis.com' },
  },
  { '@type': 'type.googleapis.com/google.rpc.LocalizedMessage', locale: 'en-US', message: INVALID_KEY },
];
const NO_KEY =
  "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.";

function presentedKey(rec: MockRequest): string | undefined {
  const header = rec.headers['x-goog-api-key'];
  if (typeof header === 'string' && header) return header;
  return rec.query.key || undefined;
}

/** Google's JSON mapping takes a single object for a repeated field (`"contents": {"parts": ...}`). */
const isNonEmptyList = (v: unknown) => (Array.isArray(v) ? v.length > 0 : v !== null && typeof v === 'object');

/** Google's wording for a missing field; null when the body is acceptable. */
function invalidBody(route: Route, json: Record<string, unknown> | null): string | null {
  const j = json ?? {};
  switch (route) {
    case 'generateContent':
      return isNonEmptyList(j.contents) ? null : '* GenerateContentRequest.contents: contents is not specified\n';
    case 'countTokens':
      return isNonEmptyList(j.contents) || (j.generateContentRequest !== null && typeof j.generateContentRequest === 'object')
        ? null
        : '* CountTokensRequest.contents: contents is not specified\n';
    case 'embedContent':
      return j.content !== null && typeof j.content === 'object' ? null : '* EmbedContentRequest.content: content is not specified\n';
    case 'batchEmbedContents': {
      if (!isNonEmptyList(j.requests)) return '* BatchEmbedContentsRequest.requests: requests is not specified\n';
      const i = (j.requests as Array<Record<string, unknown> | null>).findIndex((r) => !r || typeof r.content !== 'object' || !r.content);
      return i < 0 ? null : `* BatchEmbedContentsRequest.requests[${i}].content: content is not specified\n`;
    }
  }
}

/** Each SSE event of a fixture, framed as Google's alt=sse does: CRLF line ends, a blank CRLF line after each. */
const sseFrames = (events: string[], model: string) => events.map((e) => `${fillModel(e, model).split('\n').join('\r\n')}\r\n\r\n`);

/** Without alt=sse, the stream is one JSON array whose elements arrive one by one. */
function arrayFrames(events: string[], model: string, cut: boolean): string[] {
  const items = events.map((e) => {
    const data = e
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).trimStart())
      .join('\n');
    return JSON.stringify(JSON.parse(fillModel(data, model)), null, 2);
  });
  const frames = items.map((item, i) => `${i === 0 ? '[' : ',\r\n'}${item}`);
  if (!cut) frames.push(frames.length === 0 ? '[]' : ']');
  return frames;
}

interface Call {
  model: string;
  route: Route;
  stream: boolean;
}

async function answerCase(mock: GeminiMock, rec: MockRequest, res: http.ServerResponse, c: FixtureCase, { model, route, stream }: Call) {
  rec.case = c.name;
  const cut = c.answer?.cut === true;
  if (mock.headDelayMs) await waitUnlessGone(res, mock.headDelayMs);
  if (res.destroyed) return;
  if (stream && c.events) {
    const sse = rec.query.alt === 'sse';
    const framed = sse ? sseFrames(c.events, model) : arrayFrames(c.events, model, cut);
    const headers = sse ? SSE_HEADERS : JSON_HEADERS;
    return sendStream(res, rec, headers, framed, { cut, delayMs: mock.eventDelayMs, stallAfter: mock.stallAfter });
  }
  if (!c.answer) return refuse(res, rec, 500, 'INTERNAL', `fixture ${c.name} has no JSON answer`);
  let body = c.answer.body;
  if (route === 'batchEmbedContents' && c.answer.status === 200) {
    // One embedding per request, taken in turn from the fixture's list.
    const pool = (body as { embeddings: unknown[] }).embeddings;
    body = { embeddings: (rec.json!.requests as unknown[]).map((_, i) => pool[i % pool.length]) };
  }
  const text = fillModel(c.answer.raw ?? googleJson(body), model);
  return sendBody(res, rec, c.answer.status, { ...JSON_HEADERS, ...c.answer.headers }, text, cut, mock.stallAfter !== undefined);
}

async function listModels(rec: MockRequest, res: http.ServerResponse, folders: Folders, version: string, id?: string) {
  const list = folders.models.get(DEFAULT_CASE)!.answer!.body as { models: Array<{ name: string }> };
  rec.case = DEFAULT_CASE;
  if (!id) return sendBody(res, rec, 200, JSON_HEADERS, googleJson(list));
  const found = list.models.find((m) => m.name === `models/${id}`);
  if (found) return sendBody(res, rec, 200, JSON_HEADERS, googleJson(found));
  return refuse(res, rec, 404, 'NOT_FOUND', `models/${id} is not found for API version ${version}`);
}

async function handle(mock: GeminiMock, folders: Folders, rec: MockRequest, res: http.ServerResponse): Promise<void> {
  const key = presentedKey(rec);
  if (!key) return refuse(res, rec, 403, 'PERMISSION_DENIED', NO_KEY);
  if (key !== mock.key) return refuse(res, rec, 400, 'INVALID_ARGUMENT', INVALID_KEY, INVALID_KEY_DETAILS);

  const listing = rec.method === 'GET' ? MODELS.exec(rec.path) : null;
  if (listing) return listModels(rec, res, folders, listing[1], listing[2] && decodeURIComponent(listing[2]));
  const m = rec.method === 'POST' ? ACTION.exec(rec.path) : null;
  const action = m?.[3];
  const stream = action === 'streamGenerateContent';
  const route = (stream ? 'generateContent' : action) as Route | undefined;
  if (!m || !route || !ROUTES.includes(route)) {
    return refuse(res, rec, 404, 'NOT_FOUND', `The requested URL ${rec.path} was not found on this server.`);
  }
  if (rec.body.length > 0 && !rec.json) {
    return refuse(res, rec, 400, 'INVALID_ARGUMENT', 'Invalid JSON payload received. Unexpected token.');
  }
  const invalid = invalidBody(route, rec.json);
  if (invalid) return refuse(res, rec, 400, 'INVALID_ARGUMENT', invalid);

  const model = decodeURIComponent(m[2]);
  const name = caseOfModel(model);
  let c = findCase(name, [folders[route], folders.errors]);
  if (!c && ROUTES.some((r) => folders[r].has(name))) c = folders[route].get(DEFAULT_CASE);
  if (!c) {
    const message = `models/${model} is not found for API version ${m[1]}, or is not supported for ${action}. Call ListModels to see the list of available models and their supported methods.`;
    return refuse(res, rec, 404, 'NOT_FOUND', message);
  }
  return answerCase(mock, rec, res, c, { model, route, stream });
}

export async function startGeminiMock(opts: GeminiMockOptions = {}): Promise<GeminiMock> {
  const folders = loadFolders();
  const fields = { key: opts.key ?? GEMINI_MOCK_KEY, eventDelayMs: opts.eventDelayMs ?? 0, headDelayMs: opts.headDelayMs ?? 0, stallAfter: opts.stallAfter };
  return serveMock<GeminiMock>(fields, (mock) => startFixtureServer((rec, res) => handle(mock, folders, rec, res)));
}
