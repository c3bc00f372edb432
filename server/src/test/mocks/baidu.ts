import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { caseOfRequest, fixtureFiles, type PlainRequest, type RecordingServer, sendJson, sendSse, serveMock, sleep, startRecordingServer } from './local-server.js';

/*
 * A local server that behaves like Baidu Qianfan's v1 API (aip.baidubce.com):
 *   POST /oauth/2.0/token?grant_type=client_credentials&client_id=..&client_secret=..  the client-credentials
 *        exchange: an unknown client id or a wrong secret answers 401 invalid_client, else a new access token
 *        lasting `expiresIn` seconds (oauth/good.json with {{token}} and {{expires_in}} filled in);
 *   POST /rpc/2.0/ai_custom/v1/wenxinworkshop/chat/{endpoint}?access_token=..       ERNIE chat (JSON and SSE);
 *   POST /rpc/2.0/ai_custom/v1/wenxinworkshop/embeddings/{endpoint}?access_token=..  embeddings.
 * Every model call must name a token this mock issued and that has not expired or been revoked: else it answers,
 * with HTTP 200 as Qianfan does, {"error_code": 110} (unknown or revoked) or 111 (expired). An endpoint it does not
 * serve answers error 3; a body Qianfan would refuse answers 336003 / 336006 (also with 200). Errors take the place
 * of a stream as a JSON body.
 *
 * Answers come from fixtures/baidu/<route>/<case>; the case comes from the endpoint ("mock-<case>") or an
 * `x-mock-case` header, else `good`:
 *   good          good.json, or stream.sse when the request streams
 *   tool-call     tool-call.json / tool-call.sse: a function_call
 *   max-tokens    max-tokens.json / max-tokens.sse: is_truncated, finish_reason length
 *   no-usage      no-usage.json / no-usage.sse
 *   cut           cut.sse: part of a stream, then the connection drops
 *   stream-error  stream-error.sse: an error event after some text
 *   unsafe-input  need_clear_history: Baidu's canned reply to an input its safety check refused
 *   invalid-param, rate-limit, quota, no-permission, iam-failed: the error body with 200, streamed or not
 */

export interface BaiduMock extends RecordingServer {
  /** client_id -> client_secret of the applications the mock knows. */
  apps: Record<string, string>;
  /** Lifetime of the tokens it issues, in seconds. */
  expiresIn: number;
  /** Each successful exchange's client id, in order. */
  exchanges: string[];
  /** Makes every token issued so far unknown (Qianfan's error 110 on their next use). */
  revokeAll(): void;
}

interface Issued {
  clientId: string;
  expiresAt: number;
}

const FIXTURES = new URL('../fixtures/baidu/', import.meta.url);
const MODEL_PATH = /^\/rpc\/2\.0\/ai_custom\/v1\/wenxinworkshop\/(chat|embeddings)\/([^/]+)$/;
const CHAT_ENDPOINTS = new Set(['completions_pro', 'completions', 'ernie-4.0-8k-latest', 'ernie-4.0-turbo-8k', 'ernie-3.5-128k', 'ernie_speed', 'ernie-speed-128k', 'ernie-lite-8k', 'eb-instant', 'ernie-tiny-8k']);
const EMBEDDING_ENDPOINTS = new Set(['embedding-v1', 'bge_large_zh', 'bge_large_en', 'tao_8k']);
const CHAT_FIELDS = new Set([
  'messages', 'system', 'stream', 'temperature', 'top_p', 'penalty_score', 'max_output_tokens', 'min_output_tokens', 'stop', 'user_id',
  'functions', 'tool_choice', 'response_format', 'disable_search', 'enable_citation', 'enable_trace',
]);

const fixture = fixtureFiles(FIXTURES);
const baiduError = (code: number, msg: string) => JSON.stringify({ error_code: code, error_msg: msg });

const inRange = (v: unknown, low: number, high: number, openLow = false) =>
  v === undefined || (typeof v === 'number' && (openLow ? v > low : v >= low) && v <= high);

/** What Qianfan would refuse in a chat body, as [code, message]; null when acceptable. */
function chatProblem(json: Record<string, unknown>): [number, string] | null {
  for (const key of Object.keys(json)) if (!CHAT_FIELDS.has(key)) return [336003, `the ${key} param is invalid`];
  const messages = json.messages as Array<Record<string, unknown>> | undefined;
  if (!Array.isArray(messages) || messages.length === 0) return [336003, 'the messages param is invalid'];
  if (messages.length % 2 === 0) return [336006, 'the length of messages must be an odd number'];
  for (const [i, m] of messages.entries()) {
    const expected = i % 2 === 0 ? ['user', 'function'] : ['assistant'];
    if (!expected.includes(String(m?.role)) || (i === 0 && m.role === 'function')) return [336006, `the role of message ${i} is invalid`];
    if (m.role === 'function' && typeof m.name !== 'string') return [336003, 'the name of a function message is required'];
    const emptyAllowed = m.role === 'assistant' && m.function_call;
    if (typeof m.content !== 'string' || (!emptyAllowed && m.content.trim() === '')) return [336003, `the content of message ${i} is invalid`];
  }
  if (json.system !== undefined && typeof json.system !== 'string') return [336003, 'the system param is invalid'];
  if (!inRange(json.temperature, 0, 1, true)) return [336003, 'the temperature param is invalid'];
  if (!inRange(json.top_p, 0, 1)) return [336003, 'the top_p param is invalid'];
  if (!inRange(json.penalty_score, 1, 2)) return [336003, 'the penalty_score param is invalid'];
  if (!inRange(json.max_output_tokens, 2, 2048)) return [336003, 'the max_output_tokens param is invalid'];
  for (const f of (json.functions as Array<Record<string, unknown>> | undefined) ?? []) {
    if (typeof f?.name !== 'string' || typeof f.description !== 'string' || !f.parameters) return [336003, 'the functions param is invalid'];
  }
  return null;
}

function embeddingsAnswer(good: Buffer, input: unknown[]): string {
  const base = JSON.parse(good.toString('utf8')) as { data: Array<{ embedding: number[] }>; usage: { prompt_tokens: number } };
  const data = input.map((_, index) => ({ object: 'embedding', embedding: base.data[0].embedding, index }));
  return JSON.stringify({ ...base, data });
}

function exchange(mock: BaiduMock, issued: Map<string, Issued>, query: URLSearchParams, res: http.ServerResponse): void {
  if (query.get('grant_type') !== 'client_credentials') return sendJson(res, 400, JSON.stringify({ error: 'unsupported_grant_type', error_description: 'The authorization grant type is not supported' }));
  const clientId = query.get('client_id') ?? '';
  const secret = mock.apps[clientId];
  if (secret === undefined) return sendJson(res, 401, fixture('oauth', 'unknown-client.json')!);
  if (query.get('client_secret') !== secret) return sendJson(res, 401, fixture('oauth', 'bad-secret.json')!);
  const token = `${randomBytes(16).toString('hex')}.${mock.expiresIn}.${Math.floor(Date.now() / 1000)}.${randomBytes(4).toString('hex')}`;
  issued.set(`24.${token}`, { clientId, expiresAt: Date.now() + mock.expiresIn * 1000 });
  mock.exchanges.push(clientId);
  const body = fixture('oauth', 'good.json')!.toString('utf8').replaceAll('{{token}}', token).replace('{{expires_in}}', String(mock.expiresIn));
  return sendJson(res, 200, body);
}

async function handle(mock: BaiduMock, issued: Map<string, Issued>, req: PlainRequest, res: http.ServerResponse, query: URLSearchParams): Promise<void> {
  if (req.path === '/oauth/2.0/token') return exchange(mock, issued, query, res);
  const match = MODEL_PATH.exec(req.path);
  if (!match || req.method !== 'POST') return sendJson(res, 200, baiduError(3, 'Unsupported openapi method'));
  const token = issued.get(query.get('access_token') ?? '');
  if (!token) return sendJson(res, 200, baiduError(110, 'Access token invalid or no longer valid'));
  if (token.expiresAt <= Date.now()) return sendJson(res, 200, baiduError(111, 'Access token expired'));
  const [, route, endpoint] = match;
  const name = caseOfRequest(req, endpoint);
  if (name === 'good' && !(route === 'chat' ? CHAT_ENDPOINTS : EMBEDDING_ENDPOINTS).has(endpoint)) return sendJson(res, 200, baiduError(3, 'Unsupported openapi method'));
  if (!req.json) return sendJson(res, 200, baiduError(336002, 'Invalid JSON'));

  const canned = fixture(route, `${name}.json`);
  if (canned && /"error_code"/.test(canned.toString('utf8'))) return sendJson(res, 200, canned);
  if (route === 'embeddings') {
    const input = req.json.input;
    if (!Array.isArray(input) || input.length === 0 || input.some((i) => typeof i !== 'string' || i === '')) return sendJson(res, 200, baiduError(336003, 'the input param is invalid'));
    return sendJson(res, 200, embeddingsAnswer(fixture('embeddings', 'good.json')!, input));
  }
  const problem = chatProblem(req.json);
  if (problem) return sendJson(res, 200, baiduError(...problem));
  if (req.json.stream === true) {
    const body = fixture(route, name === 'good' ? 'stream.sse' : `${name}.sse`);
    if (body) return sendSse(res, body.toString('utf8'), { cut: name === 'cut', pause: () => sleep(1) });
  } else if (canned) {
    return sendJson(res, 200, canned);
  }
  return sendJson(res, 200, baiduError(3, 'Unsupported openapi method'));
}

export async function startBaiduMock(opts: { apps?: Record<string, string>; expiresIn?: number } = {}): Promise<BaiduMock> {
  const issued = new Map<string, Issued>();
  const fields = {
    apps: opts.apps ?? { 'bd-mock-api-key': 'bd-mock-secret-key' },
    expiresIn: opts.expiresIn ?? 2_592_000,
    exchanges: [],
    revokeAll: () => issued.clear(),
  };
  return serveMock<BaiduMock>(fields, (mock) => startRecordingServer((req, res, query) => handle(mock, issued, req, res, query)));
}
