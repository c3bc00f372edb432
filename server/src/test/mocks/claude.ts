import type http from 'node:http';
import {
  type CaseFolder,
  DEFAULT_CASE,
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
 * A local Anthropic Messages API (channel type 14) answering from fixture files in ../fixtures/claude/.
 *
 * Checks what Anthropic checks, in its order: the key (`x-api-key`, or `Authorization: Bearer` as the current SDK
 * sends it) → 401 authentication_error; the `anthropic-version` header → 400; then the body fields (model,
 * max_tokens as an integer, non-empty messages; count_tokens needs no max_tokens) → 400 invalid_request_error.
 *
 * Routes: POST /v1/messages (JSON, or SSE with `stream: true`), POST /v1/messages/count_tokens, GET /v1/models.
 *
 * The case is chosen by the request's model name: the text after its last "mock-" names a fixture case
 * ("claude-mock-tool-use" → tool-use); a model without "mock-" gets `default`; an unknown case → 404 not_found_error.
 * A route's own folder is searched first (messages/, count_tokens/), then errors/ (which applies to every route);
 * a case that exists only for another route answers with this route's default (count_tokens of "mock-tool-use").
 *
 * messages/: default, tool-use, thinking-signature, thinking-tool-use, cache-usage, max-tokens, no-usage, stream-error (SSE error event
 *   mid-stream; 529 when not streamed), cut (the socket is destroyed before message_stop / half-way through the JSON),
 *   malformed (JSON that does not parse / an event whose data does not parse).
 * Timing faults are the mock's options: `headDelayMs` (late first byte), `stallAfter` (silence mid-answer).
 * errors/: bad-request 400, unauthorized 401, forbidden 403, rate-limit 429 (retry-after), server-error 500,
 *   overloaded 529.
 * Adding a case is adding `<case>.json` (+ `<case>.sse`) — see fixture-cases.ts for the file format.
 */

export const CLAUDE_MOCK_KEY = 'sk-ant-api03-mock-upstream-key';

export interface ClaudeMockOptions {
  key?: string;
  /** Pause before each streamed event (ms). */
  eventDelayMs?: number;
  /** Wait this long before the status line (ms): a first byte that comes late or never. */
  headDelayMs?: number;
  /** Go silent with the connection open: streams after this many events, JSON answers half-way through. */
  stallAfter?: number;
}

export interface ClaudeMock extends FixtureServer {
  key: string;
  eventDelayMs: number;
  headDelayMs: number;
  stallAfter: number | undefined;
}

const FIXTURES = new URL('../fixtures/claude/', import.meta.url);
const JSON_TYPE = 'application/json';
const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' };

interface Folders {
  messages: CaseFolder;
  countTokens: CaseFolder;
  models: CaseFolder;
  errors: CaseFolder;
}

function loadFolders(): Folders {
  const load = (name: string) => loadCaseFolder(new URL(`${name}/`, FIXTURES));
  return { messages: load('messages'), countTokens: load('count_tokens'), models: load('models'), errors: load('errors') };
}

let requestSeq = 0;
const nextRequestId = () => `req_011CMock${String(++requestSeq).padStart(12, '0')}`;

function refuse(res: http.ServerResponse, rec: MockRequest, status: number, type: string, message: string) {
  const requestId = nextRequestId();
  const body = JSON.stringify({ type: 'error', error: { type, message }, request_id: requestId });
  return sendBody(res, rec, status, { 'content-type': JSON_TYPE, 'request-id': requestId }, body);
}

function presentedKey(headers: http.IncomingHttpHeaders): string | undefined {
  const apiKey = headers['x-api-key'];
  if (typeof apiKey === 'string' && apiKey) return apiKey;
  const auth = headers.authorization;
  return auth?.startsWith('Bearer ') ? auth.slice(7) : undefined;
}

/** Anthropic's wording for the body checks; null when the body is acceptable. */
function invalidBody(json: Record<string, unknown> | null, needsMaxTokens: boolean): string | null {
  if (!json) return 'There was an error parsing the body of your request. Please check that it is valid JSON.';
  if (json.model === undefined) return 'model: Field required';
  if (typeof json.model !== 'string') return 'model: Input should be a valid string';
  if (needsMaxTokens) {
    if (json.max_tokens === undefined) return 'max_tokens: Field required';
    if (!Number.isInteger(json.max_tokens)) return 'max_tokens: Input should be a valid integer';
  }
  if (json.messages === undefined) return 'messages: Field required';
  if (!Array.isArray(json.messages)) return 'messages: Input should be a valid list';
  if (json.messages.length === 0) return 'messages: at least one message is required';
  return null;
}

async function answer(mock: ClaudeMock, folders: Folders, rec: MockRequest, res: http.ServerResponse, route: CaseFolder) {
  const model = rec.json!.model as string;
  const name = caseOfModel(model);
  const known = (f: CaseFolder) => f.has(name);
  let c = findCase(name, [route, folders.errors]);
  if (!c && [folders.messages, folders.countTokens].some(known)) c = route.get(DEFAULT_CASE);
  if (!c) return refuse(res, rec, 404, 'not_found_error', `model: ${model}`);
  rec.case = c.name;
  if (mock.headDelayMs) await waitUnlessGone(res, mock.headDelayMs);
  if (res.destroyed) return;
  if (rec.json!.stream === true && c.events) {
    const framed = c.events.map((e) => `${fillModel(e, model)}\n\n`);
    return sendStream(res, rec, { ...SSE_HEADERS, 'request-id': nextRequestId() }, framed, {
      cut: c.answer?.cut === true,
      delayMs: mock.eventDelayMs,
      stallAfter: mock.stallAfter,
    });
  }
  if (!c.answer) return refuse(res, rec, 500, 'api_error', `fixture ${c.name} has no JSON answer`);
  const a = c.answer;
  const body = a.body as { request_id?: unknown } | null;
  const requestId = typeof body?.request_id === 'string' ? body.request_id : nextRequestId();
  const headers = { 'content-type': JSON_TYPE, 'request-id': requestId, ...a.headers };
  return sendBody(res, rec, a.status, headers, fillModel(a.raw ?? JSON.stringify(a.body), model), a.cut, mock.stallAfter !== undefined);
}

async function handle(mock: ClaudeMock, folders: Folders, rec: MockRequest, res: http.ServerResponse): Promise<void> {
  const key = presentedKey(rec.headers);
  if (!key) return refuse(res, rec, 401, 'authentication_error', 'x-api-key header is required');
  if (key !== mock.key) return refuse(res, rec, 401, 'authentication_error', 'invalid x-api-key');
  if (!rec.headers['anthropic-version']) return refuse(res, rec, 400, 'invalid_request_error', 'anthropic-version: header is required');

  const route = `${rec.method} ${rec.path.replace(/\/+$/, '')}`;
  if (route === 'GET /v1/models') {
    const list = folders.models.get(DEFAULT_CASE)!.answer!;
    rec.case = DEFAULT_CASE;
    return sendBody(res, rec, list.status, { 'content-type': JSON_TYPE, 'request-id': nextRequestId() }, JSON.stringify(list.body));
  }
  const messages = route === 'POST /v1/messages';
  if (!messages && route !== 'POST /v1/messages/count_tokens') return refuse(res, rec, 404, 'not_found_error', 'Not Found');
  const invalid = invalidBody(rec.json, messages);
  if (invalid) return refuse(res, rec, 400, 'invalid_request_error', invalid);
  return answer(mock, folders, rec, res, messages ? folders.messages : folders.countTokens);
}

export async function startClaudeMock(opts: ClaudeMockOptions = {}): Promise<ClaudeMock> {
  const folders = loadFolders();
  const fields = { key: opts.key ?? CLAUDE_MOCK_KEY, eventDelayMs: opts.eventDelayMs ?? 0, headDelayMs: opts.headDelayMs ?? 0, stallAfter: opts.stallAfter };
  return serveMock<ClaudeMock>(fields, (mock) => startFixtureServer((rec, res) => handle(mock, folders, rec, res)));
}
