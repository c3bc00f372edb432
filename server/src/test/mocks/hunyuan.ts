import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type http from 'node:http';
import { caseOfRequest, fixtureFiles, type PlainRequest, type RecordingServer, sendHalfJson, sendJson, sendSse, serveMock, sleep, startRecordingServer } from './local-server.js';

/*
 * A local server that behaves like Tencent Cloud's Hunyuan API (ChatCompletions, version 2023-09-01): one POST to /
 * with the action in X-TC-Action. Like Tencent Cloud it answers every error with HTTP 200 and
 * {"Response": {"Error": {"Code", "Message"}, "RequestId"}}, and it checks what Tencent checks: the action, version and
 * region headers, a timestamp within five minutes, and the TC3-HMAC-SHA256 signature — recomputed here from the
 * request as received (its own implementation of the published algorithm, not the gateway's), for the known SecretId.
 * Answers come from fixtures/hunyuan/chat/<case>.
 *
 * The case comes from the model name ("...mock-<case>") or an `x-mock-case` header, else `good`:
 *   good, tool-call, no-usage   <case>.json, or <case>.sse when the request streams
 *   cut                         part of a stream, then the connection drops (half a body when not streamed)
 *   stream-error                a stream that ends with ErrorMsg (the model timed out)
 *   400, 429, arrearage         the error fixture
 */

export interface HunyuanMock extends RecordingServer {
  appId: string;
  secretId: string;
  secretKey: string;
  /** The channel key the mock accepts. */
  key: string;
  /** Signatures this mock accepted, newest last (for tests that compare). */
  verified: string[];
}

const FIXTURES = new URL('../fixtures/hunyuan/', import.meta.url);
const fixture = fixtureFiles(FIXTURES);
const text = (file: string) => fixture('chat', file)?.toString('utf8') ?? null;

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);
const SKEW_SECONDS = 300;

function tencentError(res: http.ServerResponse, code: string, message: string): void {
  const body = text('auth-failure.json')!.replace('{{code}}', code).replace('{{message}}', JSON.stringify(message).slice(1, -1));
  sendJson(res, 200, body);
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const mac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** The signature Tencent expects for this request, from the headers it says it signed. */
function expectedSignature(req: PlainRequest, secretKey: string, date: string, service: string, signedHeaders: string[]): string {
  const canonicalHeaders = signedHeaders.map((h) => `${h}:${String(req.headers[h] ?? '').trim().toLowerCase()}\n`).join('');
  const canonical = `POST\n/\n\n${canonicalHeaders}\n${signedHeaders.join(';')}\n${sha256(req.body)}`;
  const timestamp = String(req.headers['x-tc-timestamp']);
  const toSign = `TC3-HMAC-SHA256\n${timestamp}\n${date}/${service}/tc3_request\n${sha256(canonical)}`;
  const key = mac(mac(mac(`TC3${secretKey}`, date), service), 'tc3_request');
  return createHmac('sha256', key).update(toSign).digest('hex');
}

/** The authentication failure Tencent would answer, or null when the request is signed right. */
function authProblem(mock: HunyuanMock, req: PlainRequest): [string, string] | null {
  if (req.headers['x-tc-action'] !== 'ChatCompletions') return ['InvalidAction', `接口 ${String(req.headers['x-tc-action'])} 不存在`];
  if (req.headers['x-tc-version'] !== '2023-09-01') return ['NoSuchVersion', `接口版本 ${String(req.headers['x-tc-version'])} 不存在`];
  if (typeof req.headers['x-tc-region'] !== 'string' || !req.headers['x-tc-region']) return ['InvalidParameter.Region', '缺少 X-TC-Region'];
  const timestamp = Number(req.headers['x-tc-timestamp']);
  if (!Number.isInteger(timestamp)) return ['MissingParameter', '缺少 X-TC-Timestamp'];
  if (Math.abs(timestamp - Date.now() / 1000) > SKEW_SECONDS) return ['AuthFailure.SignatureExpire', '签名过期。Timestamp 和服务器时间相差不得超过五分钟'];
  const m = /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/([^/]+)\/tc3_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/.exec(
    String(req.headers.authorization ?? ''),
  );
  if (!m) return ['AuthFailure.InvalidAuthorization', 'Authorization 格式不正确'];
  const [, secretId, date, service, signed, signature] = m;
  if (secretId !== mock.secretId) return ['AuthFailure.SecretIdNotFound', '密钥不存在。请在控制台检查密钥是否已被删除或者禁用'];
  if (service !== 'hunyuan') return ['AuthFailure.InvalidAuthorization', `服务 ${service} 与域名不符`];
  if (date !== new Date(timestamp * 1000).toISOString().slice(0, 10)) return ['AuthFailure.InvalidAuthorization', 'Credential 中的日期与 X-TC-Timestamp 不符'];
  const headers = signed.split(';');
  if (!headers.includes('content-type') || !headers.includes('host')) return ['AuthFailure.InvalidAuthorization', 'SignedHeaders 必须包含 content-type 和 host'];
  const expected = expectedSignature(req, mock.secretKey, date, service, headers);
  if (!timingSafeEqual(Buffer.from(expected), Buffer.from(signature))) return ['AuthFailure.SignatureFailure', '请求签名验证失败，请检查您的签名计算是否正确'];
  mock.verified.push(signature);
  return null;
}

function bodyProblem(json: Record<string, unknown> | null): string | null {
  if (!json) return '请求体不是合法的 JSON';
  if (typeof json.Model !== 'string' || json.Model === '') return '缺少参数 Model';
  const messages = json.Messages;
  if (!Array.isArray(messages) || messages.length === 0) return 'Messages 不能为空';
  for (const [i, m] of (messages as Array<Record<string, unknown>>).entries()) {
    if (!m || !ROLES.has(String(m.Role))) return `Messages[${i}].Role 取值不合法`;
    if (m.Role === 'tool' && typeof m.ToolCallId !== 'string') return `Messages[${i}].ToolCallId 不能为空`;
  }
  const last = (messages as Array<{ Role?: unknown }>).at(-1)?.Role;
  if (last !== 'user' && last !== 'tool') return 'Messages 的最后一条必须是 user 或 tool';
  if (json.TopP !== undefined && (typeof json.TopP !== 'number' || json.TopP < 0 || json.TopP > 1)) return 'TopP 取值区间为 [0.0, 1.0]';
  if (json.Temperature !== undefined && (typeof json.Temperature !== 'number' || json.Temperature < 0 || json.Temperature > 2)) return 'Temperature 取值区间为 [0.0, 2.0]';
  if (json.Stream !== undefined && typeof json.Stream !== 'boolean') return 'Stream 必须是布尔值';
  for (const t of (json.Tools as Array<{ Type?: unknown; Function?: { Name?: unknown; Parameters?: unknown } }> | undefined) ?? []) {
    if (t?.Type !== 'function' || typeof t.Function?.Name !== 'string' || typeof t.Function.Parameters !== 'string') return 'Tools 中的 Function 需要 Name 和 JSON 字符串 Parameters';
  }
  if (json.ToolChoice === 'custom' && !json.CustomTool) return 'ToolChoice 为 custom 时 CustomTool 必填';
  return null;
}

async function handle(mock: HunyuanMock, req: PlainRequest, res: http.ServerResponse): Promise<void> {
  if (req.method !== 'POST' || req.path !== '/') return tencentError(res, 'UnsupportedOperation', `不支持 ${req.method} ${req.path}`);
  if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) return tencentError(res, 'InvalidParameter', 'Content-Type 必须是 application/json');
  const auth = authProblem(mock, req);
  if (auth) return tencentError(res, ...auth);
  const problem = bodyProblem(req.json);
  if (problem) return tencentError(res, 'InvalidParameter', problem);
  const json = req.json!;
  const model = String(json.Model);
  const name = caseOfRequest(req, model.replace(/^.*?(mock-)/, '$1'));
  if (/^\d{3}$/.test(name) || name === 'arrearage') {
    const body = text(`${name}.json`);
    if (body) return sendJson(res, 200, body);
  }
  if (json.Stream === true) {
    const sse = text(name === 'good' ? 'stream.sse' : `${name}.sse`);
    if (sse !== null) return sendSse(res, sse, { cut: name === 'cut', pause: () => sleep(1) });
  } else if (name === 'cut') {
    return sendHalfJson(res, fixture('chat', 'good.json')!);
  } else {
    const body = text(`${name}.json`);
    if (body !== null) return sendJson(res, 200, body);
  }
  return tencentError(res, 'InvalidParameter', `模型 ${model} 不存在`);
}

export async function startHunyuanMock(opts: { appId?: string; secretId?: string; secretKey?: string } = {}): Promise<HunyuanMock> {
  const appId = opts.appId ?? '1300000001';
  const secretId = opts.secretId ?? 'AKIDmockHunyuanSecretId000000000000';
  const secretKey = opts.secretKey ?? 'mockHunyuanSecretKey0000000000000';
  const fields = { appId, secretId, secretKey, key: `${appId}|${secretId}|${secretKey}`, verified: [] as string[] };
  return serveMock<HunyuanMock>(fields, (mock) => startRecordingServer((req, res) => handle(mock, req, res)));
}
