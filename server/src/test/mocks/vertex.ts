import { createPublicKey, generateKeyPairSync, randomBytes, verify, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listenLocal, parseJsonObject, sendJson, sendPieces, sleep } from './local-server.js';

/*
 * A local Vertex AI: Google's OAuth token endpoint and the publisher-model endpoints of aiplatform.googleapis.com.
 *
 * POST /token
 *   The JWT bearer grant (form body: grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer, assertion=<JWT>).
 *   The assertion must be an RS256 JWT signed by the service account's key (checked against its public key), with
 *   iss = the client email, aud = this endpoint's URL, scope including cloud-platform, exp − iat ≤ 3600 and not
 *   expired. A bad assertion gets 400 {"error":"invalid_grant","error_description":…}; a good one an access token
 *   valid for `tokenLifetime` seconds. `tokenRequests` counts the calls; `failNextTokens` makes the next ones 503.
 *
 * POST /v1/projects/{project}/locations/{location}/publishers/{anthropic|google}/models/{model}:{action}
 *   Needs `Authorization: Bearer <a token issued above, unexpired>` (else 401 in Google's error shape), the
 *   service account's project (else 403) and, when `locations` is given, one of them (else 404).
 *   anthropic: rawPredict / streamRawPredict take Anthropic's Messages body without `model` and with
 *   anthropic_version "vertex-2023-10-16" (else 400 in Anthropic's error shape).
 *   google: generateContent / streamGenerateContent?alt=sse take Gemini's body (contents required).
 *   Counts: anthropic count-tokens:rawPredict (the model in the body, no max_tokens or stream) and google
 *   {model}:countTokens answer VERTEX_MOCK_COUNTS.
 *
 * Answers come from fixture files, server/src/test/fixtures/vertex/<publisher>/<case>.(json|sse), falling back to
 * common/<case>.json. The case is the model name's `mock-<case>` part ("claude-mock-tools@20250101" → tools,
 * "gemini-mock-429" → 429), or the `x-mock-case` header, else "good". A streamed call is answered with <case>.sse
 * when it exists, else <case>.json; a .json fixture is {"status", "body"}. Cases named cut* write their bytes and
 * then drop the connection without ending the response. With `script`, a streamed call is answered with the SSE text
 * the script gives for it instead.
 */

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/vertex');

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const CLOUD_PLATFORM = 'https://www.googleapis.com/auth/cloud-platform';
const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';
const MODEL_PATH = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/(anthropic|google)\/models\/([^/:]+):([A-Za-z]+)$/;
/** What the count endpoints answer for a body they accept. */
export const VERTEX_MOCK_COUNTS = { anthropic: 1717, google: 1919 };

const ACTIONS: Record<string, { publisher: string; stream: boolean; count?: boolean }> = {
  countTokens: { publisher: 'google', stream: false, count: true },
  rawPredict: { publisher: 'anthropic', stream: false },
  // count-tokens:rawPredict arrives as rawPredict on the model named count-tokens.
  streamRawPredict: { publisher: 'anthropic', stream: true },
  generateContent: { publisher: 'google', stream: false },
  streamGenerateContent: { publisher: 'google', stream: true },
};

export interface VertexMockOptions {
  /** The service account's public key (PEM), or its key pair. */
  publicKeyPem?: string;
  keyPair?: { publicKey: KeyObject | string };
  clientEmail: string;
  projectId: string;
  /** When set, the assertion's header must name this key id. */
  privateKeyId?: string;
  /** Locations the project may use; any well-formed one when absent. */
  locations?: string[];
  /** Lifetime of issued access tokens, seconds (Google's is 3599). */
  tokenLifetime?: number;
  /** The SSE text each streamed model call is answered with instead of a fixture, after the same checks. */
  script?: (req: VertexMockRequest) => string;
}

export interface VertexMockRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  json: Record<string, unknown> | null;
}

export interface VertexMock {
  url: string;
  /** Model calls (not token requests), in arrival order. */
  requests: VertexMockRequest[];
  /** Calls to the token endpoint. */
  tokenRequests: number;
  /** Answer this many coming token requests with 503. */
  failNextTokens: number;
  /** Issued tokens and when they expire (ms); tests may expire one. */
  tokens: Map<string, number>;
  close(): Promise<void>;
}

interface JsonFixture {
  status: number;
  body: unknown;
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  sendJson(res, status, JSON.stringify(body), { 'content-type': 'application/json; charset=UTF-8' });
}

function googleError(res: http.ServerResponse, code: number, status: string, message: string): void {
  send(res, code, { error: { code, message, status } });
}

function anthropicError(res: http.ServerResponse, message: string): void {
  send(res, 400, { type: 'error', error: { type: 'invalid_request_error', message } });
}

function readJsonFixture(file: string): JsonFixture {
  return JSON.parse(readFileSync(file, 'utf8')) as JsonFixture;
}

/** The fixture answering a case: a stream's .sse first, then the publisher's .json, then a common one. */
function fixtureFor(publisher: string, name: string, stream: boolean): { sse: Buffer } | { json: JsonFixture } | null {
  if (!/^[a-z0-9-]+$/.test(name)) return null;
  const sse = path.join(FIXTURES, publisher, `${name}.sse`);
  if (stream && existsSync(sse)) return { sse: readFileSync(sse) };
  for (const dir of [publisher, 'common']) {
    const file = path.join(FIXTURES, dir, `${name}.json`);
    if (existsSync(file)) return { json: readJsonFixture(file) };
  }
  return null;
}

function caseOf(model: string, header: string | string[] | undefined): string {
  if (typeof header === 'string' && header) return header;
  const m = /mock-([a-z0-9-]+?)(?:@\d+)?$/.exec(model);
  return m ? m[1] : 'good';
}

function b64urlJson(part: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Google's checks of a JWT bearer assertion; the error description on failure, else null. */
function assertionProblem(assertion: string, key: KeyObject, opts: VertexMockOptions, audience: string): string | null {
  const parts = assertion.split('.');
  if (parts.length !== 3) return 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.';
  const header = b64urlJson(parts[0]);
  const claims = b64urlJson(parts[1]);
  if (!header || !claims || header.alg !== 'RS256') return 'Invalid JWT Signature.';
  if (opts.privateKeyId && header.kid !== opts.privateKeyId) return 'Invalid JWT Signature.';
  const signed = Buffer.from(`${parts[0]}.${parts[1]}`);
  if (!verify('RSA-SHA256', signed, key, Buffer.from(parts[2], 'base64url'))) return 'Invalid JWT Signature.';
  if (claims.iss !== opts.clientEmail) return 'Invalid grant: account not found';
  if (claims.aud !== audience) return 'Invalid JWT: Failed audience check.';
  const scopes = typeof claims.scope === 'string' ? claims.scope.split(' ') : [];
  if (!scopes.includes(CLOUD_PLATFORM)) return 'Invalid OAuth scope or ID token audience provided.';
  const now = Math.floor(Date.now() / 1000);
  const { iat, exp } = claims;
  if (typeof iat !== 'number' || typeof exp !== 'number' || exp - iat > 3600 || exp <= now || iat > now + 60) {
    return 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.';
  }
  return null;
}

function handleToken(mock: VertexMock, key: KeyObject, opts: VertexMockOptions, req: VertexMockRequest, res: http.ServerResponse): void {
  mock.tokenRequests++;
  if (mock.failNextTokens > 0) {
    mock.failNextTokens--;
    return send(res, 503, { error: 'internal_failure', error_description: 'Backend Error' });
  }
  const form = new URLSearchParams(req.body.toString('utf8'));
  if (!String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
    return send(res, 400, { error: 'invalid_request', error_description: 'Required parameter is missing: grant_type' });
  }
  const grant = form.get('grant_type');
  if (grant !== JWT_BEARER) {
    return send(res, 400, { error: 'unsupported_grant_type', error_description: `Invalid grant_type: ${grant ?? ''}` });
  }
  const problem = assertionProblem(form.get('assertion') ?? '', key, opts, `${mock.url}/token`);
  if (problem) return send(res, 400, { error: 'invalid_grant', error_description: problem });
  const lifetime = opts.tokenLifetime ?? 3599;
  const token = `ya29.mock-${randomBytes(12).toString('hex')}`;
  mock.tokens.set(token, Date.now() + lifetime * 1000);
  send(res, 200, { access_token: token, expires_in: lifetime, token_type: 'Bearer' });
}

/** Anthropic's checks of a Vertex Messages body; the message on failure, else null. */
function claudeBodyProblem(json: Record<string, unknown> | null): string | null {
  if (!json) return 'Invalid JSON payload received.';
  if ('model' in json) return 'model: Extra inputs are not permitted';
  if (json.anthropic_version === undefined) return 'anthropic_version: Field required';
  if (json.anthropic_version !== VERTEX_ANTHROPIC_VERSION) return `anthropic_version: Input should be '${VERTEX_ANTHROPIC_VERSION}'`;
  if (!Array.isArray(json.messages)) return 'messages: Field required';
  if (typeof json.max_tokens !== 'number') return 'max_tokens: Field required';
  return null;
}

/** Two writes, so the client sees the stream arrive in pieces (and a cut one end mid-event). */
function writeStream(res: http.ServerResponse, bytes: Buffer, cut: boolean): Promise<void> {
  const half = Math.floor(bytes.length / 2);
  const headers = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };
  return sendPieces(res, headers, [bytes.subarray(0, half), bytes.subarray(half)], { cut, pause: () => sleep(5) });
}

async function handleModel(mock: VertexMock, opts: VertexMockOptions, req: VertexMockRequest, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.path, 'http://mock');
  const m = MODEL_PATH.exec(url.pathname);
  const action = m ? ACTIONS[m[5]] : undefined;
  if (!m || !action || action.publisher !== m[3] || req.method !== 'POST') {
    return googleError(res, 404, 'NOT_FOUND', 'The requested URL was not found on this server.');
  }
  const [, project, location, publisher, rawModel] = m;
  const model = decodeURIComponent(rawModel);
  const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  const expiresAt = bearer ? mock.tokens.get(bearer) : undefined;
  if (expiresAt === undefined || expiresAt <= Date.now()) {
    const unauth = readJsonFixture(path.join(FIXTURES, 'common', '401.json'));
    return send(res, unauth.status, unauth.body);
  }
  const resource = `projects/${project}/locations/${location}/publishers/${publisher}/models/${model}`;
  if (decodeURIComponent(project) !== opts.projectId) {
    return googleError(res, 403, 'PERMISSION_DENIED', `Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/${resource}' (or it may not exist).`);
  }
  if (!/^[a-z0-9-]+$/.test(location) || (opts.locations && !opts.locations.includes(location))) {
    return googleError(res, 404, 'NOT_FOUND', `Publisher Model \`${resource}\` not found.`);
  }
  if (action.stream && publisher === 'google' && url.searchParams.get('alt') !== 'sse') {
    // Without alt=sse Google streams one JSON array; the relay only reads SSE.
    return googleError(res, 400, 'INVALID_ARGUMENT', 'This mock only streams with alt=sse.');
  }
  if (publisher === 'anthropic' && model === 'count-tokens') {
    // Anthropic's count-tokens:rawPredict: the model in the body, no generation fields.
    const json = req.json;
    if (!json || typeof json.model !== 'string' || !Array.isArray(json.messages)) return anthropicError(res, 'model and messages: Field required');
    if ('max_tokens' in json || 'stream' in json) return anthropicError(res, 'max_tokens: Extra inputs are not permitted');
    return send(res, 200, { input_tokens: VERTEX_MOCK_COUNTS.anthropic });
  }
  if (publisher === 'anthropic') {
    const problem = claudeBodyProblem(req.json);
    if (problem) return anthropicError(res, problem);
  } else if (!Array.isArray(req.json?.contents) || req.json.contents.length === 0) {
    return googleError(res, 400, 'INVALID_ARGUMENT', 'Unable to submit request because it has an empty contents field.');
  }
  if (action.count) return send(res, 200, { totalTokens: VERTEX_MOCK_COUNTS.google });
  if (opts.script && action.stream) return writeStream(res, Buffer.from(opts.script(req), 'utf8'), false);
  const name = caseOf(model, req.headers['x-mock-case']);
  const fixture = fixtureFor(publisher, name, action.stream);
  if (!fixture) return googleError(res, 404, 'NOT_FOUND', `Publisher Model \`${resource}\` not found.`);
  if ('sse' in fixture) return writeStream(res, fixture.sse, name.startsWith('cut'));
  send(res, fixture.json.status, fixture.json.body);
}

export async function startVertexMock(opts: VertexMockOptions): Promise<VertexMock> {
  const pem = opts.publicKeyPem ?? opts.keyPair?.publicKey;
  if (!pem) throw new Error('startVertexMock needs publicKeyPem or keyPair');
  const key = typeof pem === 'string' ? createPublicKey(pem) : pem;
  const server = await listenLocal((req, body, res) => {
    // Form bodies (the token endpoint's) and garbage have no JSON.
    const record: VertexMockRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, json: parseJsonObject(body) };
    if (record.path === '/token' && record.method === 'POST') return handleToken(mock, key, opts, record, res);
    mock.requests.push(record);
    handleModel(mock, opts, record, res).catch(() => {
      if (!res.headersSent) googleError(res, 500, 'INTERNAL', 'Internal error encountered.');
      else res.destroy();
    });
  });
  const mock: VertexMock = { url: server.url, requests: [], tokenRequests: 0, failNextTokens: 0, tokens: new Map(), close: server.close };
  return mock;
}

export interface TestServiceAccount {
  publicKeyPem: string;
  privateKeyPem: string;
  clientEmail: string;
  projectId: string;
  privateKeyId: string;
  /** The key file as a channel key, its token_uri pointing at `tokenUri`. */
  key(tokenUri: string): string;
}

/** A fresh service account (RSA key pair in Google's key-file format) for tests. */
export function testServiceAccount(projectId = 'mock-project', clientEmail = `relay@${projectId}.iam.gserviceaccount.com`): TestServiceAccount {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const privateKeyId = randomBytes(20).toString('hex');
  return {
    publicKeyPem: publicKey,
    privateKeyPem: privateKey,
    clientEmail,
    projectId,
    privateKeyId,
    key: (tokenUri) =>
      JSON.stringify({
        type: 'service_account',
        project_id: projectId,
        private_key_id: privateKeyId,
        private_key: privateKey,
        client_email: clientEmail,
        client_id: '100000000000000000001',
        auth_uri: 'https://accounts.google.com/o/oauth2/auth',
        token_uri: tokenUri,
      }),
  };
}
