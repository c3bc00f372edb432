import { createHmac, timingSafeEqual } from 'node:crypto';
import type http from 'node:http';
import { fillModel } from './fixture-cases.js';
import { caseOfRequest, fixtureFiles, type PlainRequest, type RecordingServer, sendJson, sendSse, serveMock, sleep, startRecordingServer } from './local-server.js';

/*
 * A local server that behaves like Zhipu AI's API (open.bigmodel.cn):
 *   v4  POST /api/paas/v4/chat/completions (JSON and SSE), POST /api/paas/v4/embeddings — OpenAI's bodies, with
 *       errors as an HTTP status and {"error": {"code": "1214", "message": "..."}};
 *   v3  POST /api/paas/v3/model-api/{model}/invoke (JSON) and /sse-invoke (SSE events add / finish / error /
 *       interrupted, usage in the finish event's meta) — errors in a 200 body {"code", "msg", "success": false}.
 * Every call must carry a token made from one of the mock's keys (`id.secret`): a JWT whose header is exactly
 * {"alg":"HS256","sign_type":"SIGN"}, whose claims name the key id (api_key) with exp and timestamp in milliseconds,
 * unexpired, and whose HS256 signature the mock computes again with the key's secret. v4 takes it as a Bearer token,
 * v3 as the bare token. A token that fails answers 401.json (v4) or token-invalid.json with 200 (v3).
 *
 * Answers come from fixtures/zhipu/<route>/<case> (routes chat, embeddings, invoke, sse-invoke); the case comes
 * from the model name ("mock-<case>", the model in the URL for v3) or an `x-mock-case` header, else `good`:
 *   good          good.json, or stream.sse when the request streams
 *   tool-call     tool-call.json / tool-call.sse (v4 chat)
 *   max-tokens    max-tokens.json / max-tokens.sse (v4 chat): finish_reason length
 *   no-usage      no-usage.json / no-usage.sse
 *   cut           cut.sse: part of a stream, then the connection drops
 *   error, interrupted (sse-invoke): an error event / an answer stopped by the content check
 *   network-error (v4 chat): the generation failed (finish_reason network_error)
 *   400, 429 ...  <status>.json with that status (v4); arrears: 1113 with 429 (v4)
 *   prompt-too-long, concurrency, token-invalid (v3): the error body with 200, streamed or not
 * {{model}} in a fixture becomes the model asked for.
 */

export interface ZhipuMock extends RecordingServer {
  /** Keys the mock accepts, `id.secret`. */
  keys: string[];
  /** Every token that passed, in order of arrival. */
  tokens: string[];
}

const FIXTURES = new URL('../fixtures/zhipu/', import.meta.url);
const V3_PATH = /^\/api\/paas\/v3\/model-api\/([^/]+)\/(invoke|sse-invoke)$/;
const V4_ROUTES: Record<string, string> = { '/api/paas/v4/chat/completions': 'chat', '/api/paas/v4/embeddings': 'embeddings' };

const fixture = fixtureFiles(FIXTURES);

const v4Error = (code: string, message: string) => JSON.stringify({ error: { code, message } });
const v3Error = (code: number, msg: string) => JSON.stringify({ code, msg, success: false });

const decodeJson = (segment: string): Record<string, unknown> | null => {
  try {
    const v: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

/** Why a token is refused, or null when it is a valid token of one of the keys. */
export function tokenProblem(token: string, keys: readonly string[], nowMs = Date.now()): string | null {
  const parts = token.split('.');
  if (parts.length !== 3) return 'not a JWT';
  const header = decodeJson(parts[0]);
  if (!header || Object.keys(header).length !== 2 || header.alg !== 'HS256' || header.sign_type !== 'SIGN') return 'bad header';
  const claims = decodeJson(parts[1]);
  const key = keys.find((k) => k.slice(0, k.indexOf('.')) === claims?.api_key);
  if (!claims || !key) return 'unknown api_key';
  const { exp, timestamp } = claims;
  if (!Number.isInteger(exp) || !Number.isInteger(timestamp)) return 'exp and timestamp must be integers';
  // Milliseconds: a time in seconds would be in 1970.
  if ((timestamp as number) < 1e12 || (timestamp as number) > nowMs + 60_000) return 'timestamp is not now in milliseconds';
  if ((exp as number) <= nowMs) return 'expired';
  const expected = createHmac('sha256', key.slice(key.indexOf('.') + 1)).update(`${parts[0]}.${parts[1]}`).digest();
  const given = Buffer.from(parts[2], 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'bad signature';
  return null;
}

const sendStream = (res: http.ServerResponse, text: string, cut: boolean) => sendSse(res, text, { cut, pause: () => sleep(1) });

const inOpenUnit = (v: unknown) => v === undefined || (typeof v === 'number' && v > 0 && v < 1);

function v4Problem(route: string, json: Record<string, unknown>): string | null {
  if (typeof json.model !== 'string' || json.model === '') return 'model 不能为空';
  if (route === 'embeddings') return typeof json.input === 'string' || Array.isArray(json.input) ? null : 'input 不能为空';
  if (!Array.isArray(json.messages) || json.messages.length === 0) return 'messages 不能为空';
  if (!inOpenUnit(json.top_p)) return 'top_p 取值范围为 (0, 1)';
  // GLM-4V takes an image as a URL or as bare base64; a data: URL is not a URL it can fetch.
  for (const m of json.messages as Array<{ content?: unknown }>) {
    for (const p of Array.isArray(m?.content) ? (m.content as Array<{ type?: unknown; image_url?: { url?: unknown } }>) : []) {
      if (p?.type === 'image_url' && String(p.image_url?.url ?? '').startsWith('data:')) return '图片格式错误：请传入图片 URL 或 base64 编码';
    }
  }
  return null;
}

function v3Problem(json: Record<string, unknown>): string | null {
  if (!Array.isArray(json.prompt) || json.prompt.length === 0) return 'prompt 不能为空';
  for (const m of json.prompt as Array<Record<string, unknown>>) {
    if (m?.role !== 'user' && m?.role !== 'assistant') return 'prompt 中的 role 只能是 user 或 assistant';
    if (typeof m.content !== 'string') return 'prompt 中的 content 必须是字符串';
  }
  if (!inOpenUnit(json.top_p) || !inOpenUnit(json.temperature)) return 'temperature 与 top_p 取值范围为 (0, 1)';
  if (json.return_type !== undefined && json.return_type !== 'text' && json.return_type !== 'json_string') return 'return_type 非法';
  return null;
}

async function handle(mock: ZhipuMock, req: PlainRequest, res: http.ServerResponse): Promise<void> {
  const v3 = V3_PATH.exec(req.path);
  const route = v3 ? v3[2] : V4_ROUTES[req.path];
  if (!route) return sendJson(res, 404, v4Error('1222', 'API 不存在'));
  const auth = String(req.headers.authorization ?? '');
  const token = v3 ? auth : auth.replace(/^Bearer /, '');
  if ((!v3 && !auth.startsWith('Bearer ')) || tokenProblem(token, mock.keys) !== null) {
    return v3 ? sendJson(res, 200, fixture(route, 'token-invalid.json')!) : sendJson(res, 401, fixture(route, '401.json')!);
  }
  mock.tokens.push(token);
  if (req.method !== 'POST') return sendJson(res, 405, v4Error('1200', 'method not allowed'));
  if (!req.json) return v3 ? sendJson(res, 200, v3Error(1214, '请求体不是合法的 JSON')) : sendJson(res, 400, v4Error('1214', '请求体不是合法的 JSON'));

  const model = v3 ? decodeURIComponent(v3[1]) : String(req.json.model ?? '');
  const name = caseOfRequest(req, model);
  const text = (file: string) => {
    const bytes = fixture(route, file);
    return bytes ? fillModel(bytes.toString('utf8'), model) : null;
  };
  if (v3) {
    const failure = text(`${name}.json`);
    if (failure && name !== 'good' && name !== 'no-usage') return sendJson(res, 200, failure);
    const problem = v3Problem(req.json);
    if (problem) return sendJson(res, 200, v3Error(1214, problem));
  } else {
    const status = /^\d{3}$/.test(name) ? Number(name) : name === 'arrears' ? 429 : 0;
    const failure = status ? text(`${name}.json`) : null;
    if (failure) return sendJson(res, status, failure);
    const problem = v4Problem(route, req.json);
    if (problem) return sendJson(res, 400, v4Error('1214', problem));
  }
  const stream = route === 'sse-invoke' || (route === 'chat' && req.json.stream === true);
  const body = stream ? text(name === 'good' ? 'stream.sse' : `${name}.sse`) : text(`${name}.json`);
  if (body === null) return v3 ? sendJson(res, 200, v3Error(1211, '模型不存在，请检查模型代码。')) : sendJson(res, 400, v4Error('1211', '模型不存在，请检查模型代码。'));
  return stream ? sendStream(res, body, name === 'cut') : sendJson(res, 200, body);
}

export async function startZhipuMock(opts: { keys?: string[] } = {}): Promise<ZhipuMock> {
  const fields = { keys: opts.keys ?? ['zp-mock-id.zp-mock-secret'], tokens: [] };
  return serveMock<ZhipuMock>(fields, (mock) => startRecordingServer((req, res) => handle(mock, req, res)));
}
