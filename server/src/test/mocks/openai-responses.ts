import { existsSync, readFileSync } from 'node:fs';
import type http from 'node:http';
import { listenLocal, parseJsonObject, sendHalfJson, sendJson, sendSse } from './local-server.js';

/*
 * A local OpenAI Responses server (POST /v1/responses) for passthrough tests. Like OpenAI it checks
 * `Authorization: Bearer <key>`, parses the JSON body and requires `model` and `input`; it answers from the fixture
 * files in test/fixtures/openai-responses/responses/, so adding a case is adding a file:
 *
 *   <case>.json        the JSON answer (stream absent or false)
 *   <case>.sse         the event stream (stream: true), written one event at a time
 *   <case>.error.json  {status, headers?, body}: that error, in OpenAI's shape, for either kind of request
 *
 * The case is the `x-mock-case` header, else the model name after `mock-` (model "mock-rate-limited" → rate-limited),
 * else `good`. Cases today: good, no-usage, cached, tool-call, cut (the stream stops mid-event and the socket is
 * destroyed; a JSON request gets half of good.json), bad-request (400), unauthorized (401, also for a wrong key),
 * rate-limited (429 with retry-after), server-error (500). POST /v1/responses/compact answers a compaction (compact()).
 */

export interface ResponsesMockRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  json: Record<string, unknown> | null;
}

export interface ResponsesMock {
  url: string;
  key: string;
  /** Every request received, in order. */
  requests: ResponsesMockRequest[];
  close(): Promise<void>;
}

const FIXTURES = new URL('../fixtures/openai-responses/responses/', import.meta.url);

const fixturePath = (name: string): URL => new URL(name, FIXTURES);

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendJson(res, status, typeof body === 'string' ? body : JSON.stringify(body), headers);
}

function openAIError(status: number, message: string, param: string | null, code: string | null, type = 'invalid_request_error') {
  return { status, body: { error: { message, type, param, code } } };
}

function sendError(res: http.ServerResponse, e: { status: number; body: unknown; headers?: Record<string, string> }): void {
  send(res, e.status, e.body, e.headers);
}

/** One write per event, so the client sees the stream in pieces. */
const stream = (res: http.ServerResponse, text: string, cut: boolean) =>
  sendSse(res, text, { cut, pause: () => new Promise((r) => setImmediate(r)), headers: { 'content-type': 'text/event-stream; charset=utf-8' } });

function caseOf(req: ResponsesMockRequest): string {
  const header = req.headers['x-mock-case'];
  if (typeof header === 'string' && header) return header;
  const model = req.json?.model;
  if (typeof model === 'string' && model.startsWith('mock-')) return model.slice(5);
  return 'good';
}

/** OpenAI's compaction (POST /v1/responses/compact): the input's user messages, then one compaction item. */
export const COMPACT_USAGE = { input_tokens: 41, output_tokens: 13, total_tokens: 54 };
function compact(req: ResponsesMockRequest, res: http.ServerResponse): void {
  const json = req.json ?? {};
  if (typeof json.model !== 'string') return sendError(res, openAIError(400, "Missing required parameter: 'model'.", 'model', 'missing_required_parameter'));
  const input = typeof json.input === 'string' ? [{ role: 'user', content: json.input }] : Array.isArray(json.input) ? (json.input as Array<Record<string, unknown>>) : [];
  const users = input
    .filter((item) => item.role === 'user')
    .map((item) => ({ type: 'message', role: 'user', content: typeof item.content === 'string' ? [{ type: 'input_text', text: item.content }] : item.content }));
  const output = [...users, { id: 'cmp_0123456789abcdef', type: 'compaction', encrypted_content: 'gAAAAB-openai-sealed-summary' }];
  send(res, 200, { id: 'resp_0123456789abcdef', object: 'response.compaction', created_at: 1_796_000_000, output, usage: COMPACT_USAGE });
}

async function handle(mock: ResponsesMock, req: ResponsesMockRequest, res: http.ServerResponse): Promise<void> {
  if (req.method === 'POST' && req.path === '/v1/responses/compact' && req.headers.authorization === `Bearer ${mock.key}`) return compact(req, res);
  if (req.method !== 'POST' || req.path !== '/v1/responses') {
    return sendError(res, openAIError(404, `Invalid URL (${req.method} ${req.path})`, null, 'unknown_url'));
  }
  const unauthorized = JSON.parse(readFileSync(fixturePath('unauthorized.error.json'), 'utf8')) as { status: number; body: unknown };
  if (req.headers.authorization !== `Bearer ${mock.key}`) return sendError(res, unauthorized);
  if (!req.json) return sendError(res, openAIError(400, 'We could not parse the JSON body of your request.', null, null));
  for (const field of ['model', 'input']) {
    const v = req.json[field];
    if (v === undefined || v === null || v === '') {
      return sendError(res, openAIError(400, `Missing required parameter: '${field}'.`, field, 'missing_required_parameter'));
    }
  }
  if (typeof req.json.model !== 'string') return sendError(res, openAIError(400, "Invalid type for 'model': expected a string.", 'model', 'invalid_type'));

  const name = caseOf(req);
  if (!/^[a-z0-9-]+$/.test(name)) return sendError(res, openAIError(400, `mock: bad case name ${name}`, null, null));
  const errorFile = fixturePath(`${name}.error.json`);
  if (existsSync(errorFile)) return sendError(res, JSON.parse(readFileSync(errorFile, 'utf8')) as { status: number; body: unknown });

  const cut = name.startsWith('cut');
  if (req.json.stream === true) {
    const file = fixturePath(`${name}.sse`);
    if (!existsSync(file)) return sendError(res, openAIError(500, `mock: no fixture ${name}.sse`, null, null, 'server_error'));
    return stream(res, readFileSync(file, 'utf8'), cut);
  }
  if (cut) return sendHalfJson(res, readFileSync(fixturePath('good.json')));
  const file = fixturePath(`${name}.json`);
  if (!existsSync(file)) return sendError(res, openAIError(500, `mock: no fixture ${name}.json`, null, null, 'server_error'));
  return send(res, 200, readFileSync(file, 'utf8'));
}

export async function startResponsesMock(opts: { key?: string } = {}): Promise<ResponsesMock> {
  const mock: ResponsesMock = { url: '', key: opts.key ?? 'sk-upstream-responses-key', requests: [], close: async () => {} };
  const server = await listenLocal((req, body, res) => {
    const record: ResponsesMockRequest = { method: req.method ?? 'GET', path: new URL(req.url ?? '/', 'http://mock').pathname, headers: req.headers, body, json: parseJsonObject(body) };
    mock.requests.push(record);
    handle(mock, record, res).catch(() => res.destroy());
  });
  return Object.assign(mock, server);
}
