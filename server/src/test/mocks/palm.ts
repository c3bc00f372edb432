import type http from 'node:http';
import { type CaseFolder, type FixtureServer, type MockRequest, caseOfModel, DEFAULT_CASE, fillModel, findCase, loadCaseFolder, sendBody, startFixtureServer } from './fixture-cases.js';
import { serveMock } from './local-server.js';

/*
 * A local PaLM 2 API (channel type 11): POST /v1beta2/models/{model}:generateMessage with the key as ?key= (or
 * x-goog-api-key), answering from relay/providers/palm/fixtures/<route>/<case> (route generateMessage; errors/ for
 * all). Checks what Google checks: the key (400 API_KEY_INVALID, errors/bad-key), then the body (prompt.messages
 * non-empty, each with string content, authors alternating) → 400 INVALID_ARGUMENT. The case is the model name
 * after "mock-" (chat-bison-001 → default); a case that does not exist answers errors/not-found. GET /v1beta2/models
 * lists models/default in pages of `pageSize` (at most the mock's `modelsPageLimit`), the page token being the offset.
 */

export interface PalmMock extends FixtureServer {
  key: string;
  modelsPageLimit: number;
}

const FIXTURES = new URL('../../relay/providers/palm/fixtures/', import.meta.url);
const JSON_HEADERS = { 'content-type': 'application/json; charset=UTF-8' };
const ROUTE = /^\/v1beta2\/models\/([^/:]+):generateMessage$/;

const invalid = (res: http.ServerResponse, rec: MockRequest, message: string) =>
  sendBody(res, rec, 400, JSON_HEADERS, JSON.stringify({ error: { code: 400, message, status: 'INVALID_ARGUMENT' } }));

function problem(json: Record<string, unknown> | null): string | null {
  const prompt = json?.prompt as { messages?: Array<{ author?: unknown; content?: unknown }> } | undefined;
  if (!prompt || typeof prompt !== 'object') return 'prompt is required';
  if (!Array.isArray(prompt.messages) || prompt.messages.length === 0) return 'prompt.messages must not be empty';
  let last: unknown = null;
  for (const m of prompt.messages) {
    if (typeof m?.content !== 'string') return 'prompt.messages[].content must be a string';
    if (m.author !== undefined && m.author === last) return 'Messages must alternate between authors.';
    last = m.author;
  }
  return null;
}

function send(res: http.ServerResponse, rec: MockRequest, c: { name: string; answer?: { status: number; headers: Record<string, string>; body: unknown; cut: boolean } }, model: string) {
  rec.case = c.name;
  const a = c.answer!;
  return sendBody(res, rec, a.status, { ...JSON_HEADERS, ...a.headers }, fillModel(JSON.stringify(a.body), model), a.cut);
}

function listModels(mock: PalmMock, folders: Record<string, CaseFolder>, rec: MockRequest, res: http.ServerResponse) {
  const all = (folders.models.get(DEFAULT_CASE)!.answer!.body as { models: unknown[] }).models;
  const size = Math.min(Number(rec.query.pageSize) || 50, mock.modelsPageLimit);
  const from = Number(rec.query.pageToken ?? '0');
  const page: Record<string, unknown> = { models: all.slice(from, from + size) };
  if (from + size < all.length) page.nextPageToken = String(from + size);
  return sendBody(res, rec, 200, JSON_HEADERS, JSON.stringify(page));
}

async function handle(mock: PalmMock, folders: Record<string, CaseFolder>, rec: MockRequest, res: http.ServerResponse): Promise<void> {
  const key = rec.query.key ?? rec.headers['x-goog-api-key'];
  const route = rec.method === 'POST' ? ROUTE.exec(rec.path) : null;
  const model = route ? decodeURIComponent(route[1]) : '';
  if (key !== mock.key) return send(res, rec, folders.errors.get('bad-key')!, model);
  if (rec.method === 'GET' && rec.path === '/v1beta2/models') return listModels(mock, folders, rec, res);
  if (!route) return sendBody(res, rec, 404, { 'content-type': 'text/html' }, '<html><body>Not Found</body></html>');
  const wrong = problem(rec.json);
  if (wrong) return invalid(res, rec, wrong);
  return send(res, rec, findCase(caseOfModel(model), [folders.generateMessage, folders.errors]) ?? folders.errors.get('not-found')!, model);
}

export async function startPalmMock(key = 'AIzaSyMockPalmKey0123456789', modelsPageLimit = 1000): Promise<PalmMock> {
  const load = (route: string) => loadCaseFolder(new URL(`${route}/`, FIXTURES));
  const folders = { generateMessage: load('generateMessage'), models: load('models'), errors: load('errors') };
  return serveMock<PalmMock>({ key, modelsPageLimit }, (mock) => startFixtureServer((rec, res) => handle(mock, folders, rec, res)));
}
