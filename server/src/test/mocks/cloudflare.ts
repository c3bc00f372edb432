import type http from 'node:http';
import type { MockRequest } from '../mock-openai.js';
import { caseOfRequest, fixtureFiles, type RecordingServer, sendJson, sendSse, serveMock, sleep, startRecordingServer } from './local-server.js';

/*
 * A local server that behaves like Cloudflare Workers AI's OpenAI-compatible endpoints:
 * POST /client/v4/accounts/<account>/ai/v1/chat/completions (JSON and SSE) and .../ai/v1/embeddings. It checks the
 * bearer token and the account, the fields the endpoints require, and answers from fixture files in
 * fixtures/cloudflare/<route>/<case>.
 *
 * GET /client/v4/accounts/<account>/ai/models/search lists models/good.json in the v4 envelope, page by page
 * (page, per_page: default 20, at most `modelsPageLimit`), with result_info {page, per_page, count, total_count}.
 *
 * The case comes from the model name ("mock-<case>") or an `x-mock-case` header, else `good`:
 *   good          good.json, or stream.sse when the request streams
 *   no-usage      no-usage.json / no-usage.sse (chat)
 *   tool-call     tool-call.json / tool-call.sse (chat): one function call, its arguments streamed in pieces
 *   max-tokens    max-tokens.json / max-tokens.sse (chat): finish_reason length
 *   cut           cut.sse: part of a stream, then the connection drops
 *   400, 429 ...  <status>.json (Cloudflare's v4 error envelope) with that status
 * A wrong or missing token, or another account, answers 401.json (code 10000) with 401, whatever the case.
 */

export interface CloudflareMock extends RecordingServer {
  key: string;
  accountId: string;
  /** The largest page the model search answers, whatever per_page asks. */
  modelsPageLimit: number;
}

const FIXTURES = new URL('../fixtures/cloudflare/', import.meta.url);
const PATH = /^\/client\/v4\/accounts\/([^/]+)\/ai\/v1\/(chat\/completions|embeddings)$/;
const MODELS_PATH = /^\/client\/v4\/accounts\/([^/]+)\/ai\/models\/search$/;

const fixture = fixtureFiles(FIXTURES);


/** Cloudflare's v4 envelope with one error. */
const envelope = (code: number, message: string) => JSON.stringify({ errors: [{ message, code }], success: false, result: {}, messages: [] });

/** Writes an SSE fixture one event at a time; `cut` drops the connection after the last byte instead of ending. */
const sendStream = (res: http.ServerResponse, body: Buffer, cut: boolean) => sendSse(res, body.toString('utf8'), { cut, pause: () => sleep(1) });

function problem(route: string, json: Record<string, unknown>): string | null {
  if (typeof json.model !== 'string' || json.model === '') return "AiError: Bad input: Error: required properties at '/' are 'model'";
  if (route === 'chat') {
    if (!Array.isArray(json.messages) || json.messages.length === 0) return "AiError: Bad input: Error: oneOf at '/' not met, 0 matches required";
  } else if (!(typeof json.input === 'string' || (Array.isArray(json.input) && json.input.length > 0))) {
    return "AiError: Bad input: Error: required properties at '/' are 'input'";
  }
  return null;
}

/** The fixture's vectors, one per input (reused in turn when more inputs come than the fixture has). */
function embeddingsAnswer(good: Buffer, json: Record<string, unknown>): string {
  const base = JSON.parse(good.toString('utf8')) as { data: Array<{ embedding: number[] }>; [key: string]: unknown };
  const inputs = Array.isArray(json.input) ? json.input : [json.input];
  const data = inputs.map((_, index) => ({ object: 'embedding', embedding: base.data[index % base.data.length].embedding, index }));
  return JSON.stringify({ ...base, data, model: json.model });
}

/** One page of the model search, in the v4 envelope. */
function modelsPage(mock: CloudflareMock, query: URLSearchParams): string {
  const all = (JSON.parse(fixture('models', 'good.json')!.toString('utf8')) as { result: unknown[] }).result;
  const perPage = Math.min(Math.max(1, Number(query.get('per_page') ?? 20) || 20), mock.modelsPageLimit);
  const page = Math.max(1, Number(query.get('page') ?? 1) || 1);
  const result = all.slice((page - 1) * perPage, page * perPage);
  const result_info = { page, per_page: perPage, count: result.length, total_count: all.length };
  return JSON.stringify({ success: true, errors: [], messages: [], result, result_info });
}

async function handle(mock: CloudflareMock, req: MockRequest, res: http.ServerResponse, query: URLSearchParams): Promise<void> {
  const listing = MODELS_PATH.exec(req.path);
  if (listing) {
    const token = /^Bearer\s+(.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    if (token !== mock.key || decodeURIComponent(listing[1]) !== mock.accountId) return sendJson(res, 401, envelope(10000, 'Authentication error'));
    if (req.method !== 'GET') return sendJson(res, 405, envelope(10405, 'Method not allowed'));
    return sendJson(res, 200, modelsPage(mock, query));
  }
  const match = PATH.exec(req.path);
  if (!match) return sendJson(res, 404, envelope(7003, 'Could not route to the requested path, perhaps your object identifier is invalid?'));
  const route = match[2] === 'embeddings' ? 'embeddings' : 'chat';
  const token = /^Bearer\s+(.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
  if (token !== mock.key || decodeURIComponent(match[1]) !== mock.accountId) {
    return sendJson(res, 401, fixture(route, '401.json') ?? envelope(10000, 'Authentication error'));
  }
  if (req.method !== 'POST') return sendJson(res, 405, envelope(10405, 'Method not allowed'));
  if (!req.json) return sendJson(res, 400, envelope(5006, 'AiError: Bad input: could not parse the JSON body'));

  const model = typeof req.json.model === 'string' ? req.json.model : '';
  const name = caseOfRequest(req, model);
  if (/^\d{3}$/.test(name)) {
    const body = fixture(route, `${name}.json`);
    if (body) return sendJson(res, Number(name), body);
  }
  const bad = problem(route, req.json);
  if (bad) return sendJson(res, 400, envelope(5006, bad));

  if (route === 'chat' && req.json.stream === true) {
    const body = fixture(route, name === 'good' ? 'stream.sse' : `${name}.sse`);
    if (body) return sendStream(res, body, name === 'cut');
  } else {
    const body = fixture(route, `${name}.json`);
    if (body) return sendJson(res, 200, route === 'embeddings' && name === 'good' ? embeddingsAnswer(body, req.json) : body);
  }
  return sendJson(res, 400, envelope(5007, `No such model ${model} or task`));
}

export async function startCloudflareMock(opts: { key?: string; accountId?: string; modelsPageLimit?: number } = {}): Promise<CloudflareMock> {
  const fields = {
    key: opts.key ?? 'cf-test-token',
    accountId: opts.accountId ?? '023e105f4ecef8ad9ca31a8372d0c353',
    modelsPageLimit: opts.modelsPageLimit ?? 100,
  };
  return serveMock<CloudflareMock>(fields, (mock) => startRecordingServer((req, res, query) => handle(mock, req, res, query)));
}
