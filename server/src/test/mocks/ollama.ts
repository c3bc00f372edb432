import type http from 'node:http';
import { type CaseFolder, type FixtureServer, type MockRequest, caseOfModel, DEFAULT_CASE, fillModel, findCase, loadCaseFolder, sendBody, sendStream, startFixtureServer } from './fixture-cases.js';
import { serveMock } from './local-server.js';

/*
 * A local Ollama server (channel type 4) behind a proxy that checks a Bearer key (Ollama itself checks none): the
 * native POST /api/embed and the OpenAI-compatible POST /v1/chat/completions (JSON, or SSE when streaming), answering
 * from relay/providers/ollama/fixtures/<route>/<case> (routes embed and chat; errors/ for every route), and the
 * native model list GET /api/tags (tags/default). The case is
 * the model name after "mock-"; a model Ollama has not pulled ("…-mock-not-pulled") answers 404 as Ollama does.
 * Ollama's own checks: /api/embed needs model and input (400 {"error": ...}).
 */

export interface OllamaMock extends FixtureServer {
  key: string;
}

const FIXTURES = new URL('../../relay/providers/ollama/fixtures/', import.meta.url);
const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };
const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' };

const refuse = (res: http.ServerResponse, rec: MockRequest, status: number, error: string) => sendBody(res, rec, status, JSON_HEADERS, JSON.stringify({ error }));

async function handle(mock: OllamaMock, folders: Record<string, CaseFolder>, rec: MockRequest, res: http.ServerResponse): Promise<void> {
  if (rec.headers.authorization !== `Bearer ${mock.key}`) return refuse(res, rec, 401, 'unauthorized');
  if (rec.method === 'GET' && rec.path === '/api/tags') {
    const tags = folders.tags.get(DEFAULT_CASE)!.answer!;
    return sendBody(res, rec, tags.status, JSON_HEADERS, JSON.stringify(tags.body));
  }
  const route = rec.method !== 'POST' ? null : rec.path === '/api/embed' ? 'embed' : rec.path === '/v1/chat/completions' ? 'chat' : null;
  if (!route) return sendBody(res, rec, 404, { 'content-type': 'text/plain' }, '404 page not found');
  const json = rec.json;
  if (!json) return refuse(res, rec, 400, 'invalid character in request body');
  if (typeof json.model !== 'string' || json.model === '') return refuse(res, rec, 400, 'model is required');
  if (route === 'embed' && (json.input === undefined || json.input === '' || (Array.isArray(json.input) && json.input.length === 0))) return refuse(res, rec, 400, 'input is required');
  const model = json.model;
  const c = findCase(caseOfModel(model), [folders[route], folders.errors]) ?? folders[route].get(DEFAULT_CASE)!;
  rec.case = c.name;
  if (json.stream === true && c.events) return sendStream(res, rec, SSE_HEADERS, c.events.map((e) => `${fillModel(e, model)}\n\n`), { cut: c.answer?.cut === true, delayMs: 1 });
  const a = c.answer!;
  return sendBody(res, rec, a.status, { ...JSON_HEADERS, ...a.headers }, fillModel(JSON.stringify(a.body), model), a.cut);
}

export async function startOllamaMock(key = 'ollama-proxy-key'): Promise<OllamaMock> {
  const load = (route: string) => loadCaseFolder(new URL(`${route}/`, FIXTURES));
  const folders = { embed: load('embed'), chat: load('chat'), tags: load('tags'), errors: load('errors') };
  return serveMock<OllamaMock>({ key }, (mock) => startFixtureServer((rec, res) => handle(mock, folders, rec, res)));
}
