import type http from 'node:http';
import type { MockRequest } from '../mock-openai.js';
import { caseOfRequest, fixtureFiles, type RecordingServer, sendHalfJson, sendJson, sendSse, serveMock, sleep, startRecordingServer } from './local-server.js';

/*
 * A local server that behaves like Cohere's API: POST /v2/chat (JSON and SSE), POST /v1/rerank and GET /v1/models.
 * It checks the bearer key and the fields Cohere requires, and answers from fixture files in
 * fixtures/cohere/<route>/<case>.
 *
 * GET /v1/models lists models/good.json page by page: page_size (default 20, at most `modelsPageLimit`, 1000 unless
 * given) and page_token, answering next_page_token while more remain.
 *
 * The case comes from the model name ("mock-<case>") or an `x-mock-case` header, else `good`:
 *   good          good.json, or stream.sse when the request streams
 *   tool-call     tool-call.json / tool-call.sse (chat)
 *   no-usage      no-usage.json / no-usage.sse (chat)
 *   max-tokens    max-tokens.json / max-tokens.sse (chat): finish_reason MAX_TOKENS
 *   cut           cut.sse: part of a stream, then the connection drops (a non-streamed call gets half a body)
 *   400, 429 ...  <status>.json with that status
 * A wrong or missing key answers 401.json with 401, whatever the case.
 */

export interface CohereMock extends RecordingServer {
  key: string;
  /** The largest page GET /v1/models answers, whatever page_size asks. */
  modelsPageLimit: number;
}

const FIXTURES = new URL('../fixtures/cohere/', import.meta.url);
const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

const fixture = fixtureFiles(FIXTURES);


const invalid = (res: http.ServerResponse, message: string) =>
  sendJson(res, 400, JSON.stringify({ id: 'mock-invalid-request', message: `invalid request: ${message}` }));

/** Writes an SSE fixture one event at a time; `cut` drops the connection after the last byte instead of ending. */
const sendStream = (res: http.ServerResponse, body: Buffer, cut: boolean) => sendSse(res, body.toString('utf8'), { cut, pause: () => sleep(1) });

/** The messages Cohere would refuse outright; null when the body is acceptable. */
function chatProblem(json: Record<string, unknown>): string | null {
  if (typeof json.model !== 'string' || json.model === '') return 'model is required';
  if (!Array.isArray(json.messages) || json.messages.length === 0) return 'messages: at least one message is required';
  if (json.stream !== undefined && typeof json.stream !== 'boolean') return 'stream must be a boolean';
  for (const [i, m] of (json.messages as Array<Record<string, unknown>>).entries()) {
    if (!m || typeof m !== 'object' || !ROLES.has(String(m.role))) return `messages[${i}]: role must be one of system, user, assistant, tool`;
    if (m.role === 'tool' && typeof m.tool_call_id !== 'string') return `messages[${i}]: tool_call_id is required`;
    if (m.role !== 'assistant' && m.content === undefined) return `messages[${i}]: content is required`;
  }
  for (const t of (json.tools as Array<{ type?: unknown; function?: { name?: unknown } }> | undefined) ?? []) {
    if (t?.type !== 'function' || typeof t.function?.name !== 'string') return 'tools: each tool needs type function and a name';
  }
  return null;
}

function rerankProblem(json: Record<string, unknown>): string | null {
  if (typeof json.query !== 'string' || json.query === '') return 'query is required';
  if (!Array.isArray(json.documents) || json.documents.length === 0) return 'list of documents must not be empty';
  for (const d of json.documents as unknown[]) {
    if (typeof d !== 'string' && !(d && typeof d === 'object')) return 'documents must be strings or objects';
  }
  return null;
}

/** The fixture's scores for the documents sent, best first, cut to top_n, with the documents when asked. */
function rerankAnswer(good: Buffer, json: Record<string, unknown>): string {
  const base = JSON.parse(good.toString('utf8')) as { results: Array<{ index: number; relevance_score: number }> };
  const docs = json.documents as unknown[];
  const score = new Map(base.results.map((r) => [r.index, r.relevance_score]));
  let results = docs
    .map((doc, index) => ({ index, relevance_score: score.get(index) ?? 0.01, doc }))
    .sort((a, b) => b.relevance_score - a.relevance_score);
  if (typeof json.top_n === 'number') results = results.slice(0, json.top_n);
  const out = results.map(({ index, relevance_score, doc }) =>
    json.return_documents === true ? { document: typeof doc === 'string' ? { text: doc } : doc, index, relevance_score } : { index, relevance_score },
  );
  return JSON.stringify({ ...base, results: out });
}

/** One page of the model list; the page token is the offset of the page, base64-encoded as Cohere's look. */
function modelsPage(mock: CohereMock, query: URLSearchParams): string {
  const all = (JSON.parse(fixture('models', 'good.json')!.toString('utf8')) as { models: unknown[] }).models;
  const size = Math.min(Number(query.get('page_size') ?? 20) || 20, mock.modelsPageLimit);
  const token = query.get('page_token');
  const offset = token ? Number((JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as { offset: number }).offset) : 0;
  const end = offset + size;
  const next = end < all.length ? Buffer.from(JSON.stringify({ offset: end })).toString('base64') : undefined;
  return JSON.stringify({ models: all.slice(offset, end), ...(next ? { next_page_token: next } : {}) });
}

async function handle(mock: CohereMock, req: MockRequest, res: http.ServerResponse, query: URLSearchParams): Promise<void> {
  const route = req.path === '/v2/chat' ? 'chat' : req.path === '/v1/rerank' ? 'rerank' : req.path === '/v1/models' ? 'models' : null;
  if (!route) return sendJson(res, 404, JSON.stringify({ message: `Route ${req.method} ${req.path} not found` }));
  const auth = /^bearer\s+(.+)$/i.exec(String(req.headers.authorization ?? ''));
  if (auth?.[1] !== mock.key) return sendJson(res, 401, fixture(route, '401.json') ?? '{"message":"invalid api token"}');
  if (route === 'models') {
    if (req.method !== 'GET') return sendJson(res, 405, JSON.stringify({ message: 'method not allowed' }));
    return sendJson(res, 200, modelsPage(mock, query));
  }
  if (req.method !== 'POST') return sendJson(res, 405, JSON.stringify({ message: 'method not allowed' }));
  if (!req.json) return invalid(res, 'could not parse the JSON body');

  const model = typeof req.json.model === 'string' ? req.json.model : '';
  const name = caseOfRequest(req, model);
  if (/^\d{3}$/.test(name)) {
    const body = fixture(route, `${name}.json`);
    if (body) return sendJson(res, Number(name), body);
  }
  const problem = route === 'chat' ? chatProblem(req.json) : rerankProblem(req.json);
  if (problem) return invalid(res, problem);

  const stream = route === 'chat' && req.json.stream === true;
  if (stream) {
    const body = fixture(route, name === 'good' ? 'stream.sse' : `${name}.sse`);
    if (body) return sendStream(res, body, name === 'cut');
  } else if (name === 'cut') {
    return sendHalfJson(res, fixture(route, 'good.json') ?? Buffer.from('{}'));
  } else {
    const body = fixture(route, `${name}.json`);
    if (body) return sendJson(res, 200, route === 'rerank' && name === 'good' ? rerankAnswer(body, req.json) : body);
  }
  return sendJson(res, 404, JSON.stringify({ id: 'mock-not-found', message: `model '${model}' not found, make sure the correct model ID was used and that you have access to the model.` }));
}

export async function startCohereMock(opts: { key?: string; modelsPageLimit?: number } = {}): Promise<CohereMock> {
  const fields = { key: opts.key ?? 'co-test-key', modelsPageLimit: opts.modelsPageLimit ?? 1000 };
  return serveMock<CohereMock>(fields, (mock) => startRecordingServer((req, res, query) => handle(mock, req, res, query)));
}
