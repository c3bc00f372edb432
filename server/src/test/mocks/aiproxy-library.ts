import type http from 'node:http';
import { type CaseFolder, type FixtureCase, type FixtureServer, type MockRequest, caseOfModel, DEFAULT_CASE, fillModel, findCase, loadCaseFolder, sendBody, sendStream, startFixtureServer } from './fixture-cases.js';
import { serveMock } from './local-server.js';

/*
 * A local AI Proxy knowledge-base API (channel type 21): POST /api/library/ask {model, query, libraryId, stream},
 * answering from relay/providers/aiproxy-library/fixtures/<route>/<case> (route ask; errors/). Like the service it
 * refuses in HTTP 200 answers ({"success": false, "errCode", "message"}): a wrong Bearer key → errors/unauthorized, a
 * library other than the stand-in's → errors/library-not-found, a missing field → errCode 400. Streams are written
 * one `data:` line per event with a single newline between them. The case is the model name after "mock-".
 */

export interface LibraryMock extends FixtureServer {
  key: string;
  libraryId: string;
}

const FIXTURES = new URL('../../relay/providers/aiproxy-library/fixtures/', import.meta.url);
const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };
const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' };

function answer(res: http.ServerResponse, rec: MockRequest, c: FixtureCase, model = '') {
  rec.case = c.name;
  const a = c.answer!;
  return sendBody(res, rec, a.status, { ...JSON_HEADERS, ...a.headers }, fillModel(JSON.stringify(a.body), model), a.cut);
}

function missingField(json: Record<string, unknown> | null): string | null {
  if (!json) return 'body';
  for (const field of ['model', 'query', 'libraryId']) if (typeof json[field] !== 'string' || json[field] === '') return field;
  if (json.stream !== undefined && typeof json.stream !== 'boolean') return 'stream';
  return null;
}

async function handle(mock: LibraryMock, folders: Record<string, CaseFolder>, rec: MockRequest, res: http.ServerResponse): Promise<void> {
  if (rec.method !== 'POST' || rec.path !== '/api/library/ask') return sendBody(res, rec, 404, JSON_HEADERS, JSON.stringify({ success: false, errCode: 404, message: 'Not Found' }));
  if (rec.headers.authorization !== `Bearer ${mock.key}`) return answer(res, rec, folders.errors.get('unauthorized')!);
  const missing = missingField(rec.json);
  if (missing) return sendBody(res, rec, 200, JSON_HEADERS, JSON.stringify({ success: false, errCode: 400, message: `参数错误：${missing}` }));
  const json = rec.json!;
  if (json.libraryId !== mock.libraryId) return answer(res, rec, folders.errors.get('library-not-found')!);
  const model = json.model as string;
  const c = findCase(caseOfModel(model), [folders.ask, folders.errors]) ?? folders.ask.get(DEFAULT_CASE)!;
  if (json.stream === true && c.events) {
    rec.case = c.name;
    return sendStream(res, rec, SSE_HEADERS, c.events.map((e) => `${fillModel(e, model)}\n`), { cut: c.answer?.cut === true, delayMs: 1 });
  }
  return answer(res, rec, c, model);
}

export async function startLibraryMock(key = 'ap-mock-key-0123456789', libraryId = 'lib-mock-0001'): Promise<LibraryMock> {
  const load = (route: string) => loadCaseFolder(new URL(`${route}/`, FIXTURES));
  const folders = { ask: load('ask'), errors: load('errors') };
  return serveMock<LibraryMock>({ key, libraryId }, (mock) => startFixtureServer((rec, res) => handle(mock, folders, rec, res)));
}
