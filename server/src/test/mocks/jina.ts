import type http from 'node:http';
import { type CaseFolder, type FixtureServer, type MockRequest, caseOfModel, DEFAULT_CASE, fillModel, findCase, loadCaseFolder, sendBody, startFixtureServer } from './fixture-cases.js';
import { serveMock } from './local-server.js';

/*
 * A local Jina AI API (channel type 38): POST /v1/embeddings and POST /v1/rerank, answering from the fixture files in
 * relay/providers/jina/fixtures/<route>/<case>. It checks the Bearer key (401 from errors/unauthorized otherwise) and
 * what Jina's validation checks (422 in FastAPI's shape: embeddings need model and a non-empty input, rerank a
 * model, a query and a non-empty document list). The case is the model name after "mock-" (jina-embeddings-v3 →
 * default, jina-reranker-mock-no-usage → no-usage); a route's folder is searched first, then errors/.
 */

export interface JinaMock extends FixtureServer {
  key: string;
}

const FIXTURES = new URL('../../relay/providers/jina/fixtures/', import.meta.url);
const JSON_HEADERS = { 'content-type': 'application/json' };

const missing = (field: string) => ({ detail: [{ loc: ['body', field], msg: 'field required', type: 'value_error.missing' }] });

function problem(route: string, json: Record<string, unknown> | null): unknown {
  if (!json) return { detail: 'Invalid JSON body' };
  if (typeof json.model !== 'string' || json.model === '') return missing('model');
  if (route === 'embeddings') {
    const input = json.input;
    if (input === undefined || input === '' || (Array.isArray(input) && input.length === 0)) return missing('input');
    return null;
  }
  if (typeof json.query !== 'string' && !(json.query && typeof json.query === 'object')) return missing('query');
  if (!Array.isArray(json.documents) || json.documents.length === 0) return missing('documents');
  return null;
}

function send(res: http.ServerResponse, rec: MockRequest, c: { answer?: { status: number; headers: Record<string, string>; body: unknown; cut: boolean } }, model = '') {
  const a = c.answer!;
  return sendBody(res, rec, a.status, { ...JSON_HEADERS, ...a.headers }, fillModel(JSON.stringify(a.body), model), a.cut);
}

async function handle(mock: JinaMock, folders: Record<string, CaseFolder>, rec: MockRequest, res: http.ServerResponse): Promise<void> {
  if (rec.headers.authorization !== `Bearer ${mock.key}`) return send(res, rec, folders.errors.get('unauthorized')!);
  const route = rec.method === 'POST' && /^\/v1\/(embeddings|rerank)$/.exec(rec.path)?.[1];
  if (!route) return sendBody(res, rec, 404, JSON_HEADERS, JSON.stringify({ detail: 'Not Found' }));
  const wrong = problem(route, rec.json);
  if (wrong) return sendBody(res, rec, 422, JSON_HEADERS, JSON.stringify(wrong));
  const model = rec.json!.model as string;
  const c = findCase(caseOfModel(model), [folders[route], folders.errors]) ?? folders[route].get(DEFAULT_CASE)!;
  rec.case = c.name;
  return send(res, rec, c, model);
}

export async function startJinaMock(key = 'jina_mock_0123456789abcdef'): Promise<JinaMock> {
  const load = (route: string) => loadCaseFolder(new URL(`${route}/`, FIXTURES));
  const folders = { embeddings: load('embeddings'), rerank: load('rerank'), errors: load('errors') };
  return serveMock<JinaMock>({ key }, (mock) => startFixtureServer((rec, res) => handle(mock, folders, rec, res)));
}
