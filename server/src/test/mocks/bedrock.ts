import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type http from 'node:http';
import { EventStreamCodec, type MessageHeaders } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import {
  type CaseFolder,
  type FixtureServer,
  type MockRequest,
  caseOfModel,
  fillModel,
  findCase,
  loadCaseFolder,
  sendBody,
  sendStream,
  startFixtureServer,
} from './fixture-cases.js';
import { serveMock } from './local-server.js';
import { BEDROCK_BETAS } from '../../relay/providers/aws/request.js';

/*
 * A local Amazon Bedrock runtime serving Claude through InvokeModel, answering from fixture files in
 * ../fixtures/bedrock/.
 *
 * Checks what Bedrock checks, in its order:
 *  - the SigV4 signature, recomputed here from the request as received with this file's own implementation of
 *    AWS's published algorithm (node:crypto, not the signing library the product uses): unknown access key or
 *    session token → 403 UnrecognizedClientException; wrong scope, stale x-amz-date or a signature that does not
 *    match → 403 InvalidSignatureException (errors/invalid-signature.json);
 *  - the operation: POST /model/{modelId}/invoke (JSON), /model/{modelId}/count-tokens (CountTokens: the InvokeModel
 *    body base64 in input.invokeModel.body, foundation-model ids only; answers BEDROCK_MOCK_INPUT_TOKENS) or
 *    /model/{modelId}/invoke-with-response-stream (binary
 *    application/vnd.amazon.eventstream), else 404 UnknownOperationException;
 *  - the body, the way Bedrock validates Claude's: JSON, anthropic_version "bedrock-2023-05-31", max_tokens,
 *    messages, and no `model` or `stream` key → 400 ValidationException; a beta flag Bedrock does not take → 400
 *    ValidationException "invalid beta flag".
 *
 * The case is chosen by the model id in the path: the text after its last "mock-" names a fixture case
 * ("mock-tool-use" → tool-use); an id without "mock-" gets `default`; an unknown case → 400 ValidationException
 * ("The provided model identifier is invalid."). invoke/ is searched first, then errors/.
 *
 * invoke/<case>.json is the InvokeModel answer ({status?, headers?, body, cut?}); invoke/<case>.sse the stream, as
 * Claude SSE events that the mock frames as Bedrock does: each event one `chunk` frame whose payload is
 * {"bytes": base64(event JSON), "p": padding}, the last chunk (message_stop) carrying amazon-bedrock-invocationMetrics
 * computed from the events' usage. An SSE block whose event name ends in "Exception" (modelStreamErrorException,
 * throttlingException …) becomes an exception frame with its data as payload. "cut": true in the .json drops the
 * connection half-way through the JSON / after the last event of the .sse.
 *
 * invoke/: default (text; streamed as "stream"), tool-use, cache-usage, max-tokens, no-usage, cut, stream-exception (an exception
 *   frame mid-stream; 424 ModelErrorException when not streamed).
 * errors/: validation 400, invalid-signature 403, throttling 429 (each with its x-amzn-errortype header).
 * The string {{model}} in a fixture becomes the Anthropic model name behind the Bedrock id.
 *
 * With `script`, a streamed call is answered with the events the script gives for it, framed the same way.
 */

export interface BedrockMockOptions {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** Temporary credentials: the x-amz-security-token every request must carry (and sign). */
  sessionToken?: string;
  /** Pause before each streamed frame (ms). */
  eventDelayMs?: number;
  /**
   * Answers each streamed call with these Claude stream events (SSE blocks, as in an invoke/<case>.sse file) instead
   * of the case its model id names, after the same checks: a test's own turns behind Bedrock's signature.
   */
  script?: (rec: MockRequest) => string[];
}

export interface BedrockMock extends FixtureServer {
  options: BedrockMockOptions;
}

const FIXTURES = new URL('../fixtures/bedrock/', import.meta.url);
const SERVICE = 'bedrock';
const ANTHROPIC_VERSION = 'bedrock-2023-05-31';
const ALGORITHM = 'AWS4-HMAC-SHA256';
/** AWS refuses a signature dated more than five minutes from its clock. */
const MAX_SKEW_MS = 5 * 60 * 1000;
const JSON_TYPE = 'application/json';
const EVENT_STREAM_TYPE = 'application/vnd.amazon.eventstream';
const PADDING = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/* ---------------------------------------------------------------------------------------------------------------
 * Signature Version 4, from AWS's description of the algorithm ("Create a signed AWS API request"):
 *   CanonicalRequest = Method \n CanonicalURI \n CanonicalQuery \n CanonicalHeaders \n SignedHeaders \n HashedPayload
 *   StringToSign     = "AWS4-HMAC-SHA256" \n AmzDate \n Scope \n hex(SHA256(CanonicalRequest))
 *   SigningKey       = HMAC(HMAC(HMAC(HMAC("AWS4" + Secret, Date), Region), Service), "aws4_request")
 *   Signature        = hex(HMAC(SigningKey, StringToSign))
 * ------------------------------------------------------------------------------------------------------------- */

export interface SigV4Input {
  method: string;
  /** The path as it arrived on the wire (still percent-encoded). */
  path: string;
  /** The query string as it arrived, without "?". */
  query: string;
  /** Header (name, value) pairs as received, duplicates kept. */
  headers: Array<[string, string]>;
  /** Lower-case names of the headers the signature covers. */
  signedHeaders: string[];
  /** Hex SHA-256 of the body. */
  payloadHash: string;
  /** x-amz-date, e.g. 20150830T123600Z. */
  amzDate: string;
  region: string;
  service: string;
  secretAccessKey: string;
}

export interface SigV4Result {
  canonicalRequest: string;
  stringToSign: string;
  signature: string;
}

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

/** RFC 3986 encoding as SigV4 wants it: every byte but A-Z a-z 0-9 - . _ ~ as %XX (upper-case hex). */
export function uriEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * Services other than S3 encode each segment of the (normalised) path once more, so an id sent as `v1%3A0` is
 * signed as `v1%253A0`.
 */
function canonicalUri(path: string): string {
  const segments: string[] = [];
  for (const s of path.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..') segments.pop();
    else segments.push(uriEncode(s));
  }
  const trailing = segments.length > 0 && path.endsWith('/') ? '/' : '';
  return `/${segments.join('/')}${trailing}`;
}

function decodeQueryPart(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, '%20'));
  } catch {
    return s;
  }
}

function canonicalQuery(query: string): string {
  if (!query) return '';
  return query
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf('=');
      const [k, v] = eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)];
      return [uriEncode(decodeQueryPart(k)), uriEncode(decodeQueryPart(v))] as const;
    })
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

/** Values trimmed, inner runs of spaces collapsed, repeated headers joined with commas. */
function canonicalHeaders(headers: Array<[string, string]>, signed: string[]): string {
  return signed
    .map((name) => {
      const values = headers.filter(([n]) => n.toLowerCase() === name).map(([, v]) => v.trim().replace(/\s+/g, ' '));
      return `${name}:${values.join(',')}\n`;
    })
    .join('');
}

export function sigV4(input: SigV4Input): SigV4Result {
  const signed = [...input.signedHeaders].sort();
  const canonicalRequest = [
    input.method.toUpperCase(),
    canonicalUri(input.path),
    canonicalQuery(input.query),
    canonicalHeaders(input.headers, signed),
    signed.join(';'),
    input.payloadHash,
  ].join('\n');
  const date = input.amzDate.slice(0, 8);
  const scope = `${date}/${input.region}/${input.service}/aws4_request`;
  const stringToSign = [ALGORITHM, input.amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${input.secretAccessKey}`, date), input.region), input.service), 'aws4_request');
  return { canonicalRequest, stringToSign, signature: createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex') };
}

interface Authorization {
  accessKeyId: string;
  date: string;
  region: string;
  service: string;
  terminator: string;
  signedHeaders: string[];
  signature: string;
}

function parseAuthorization(value: string | undefined): Authorization | null {
  if (!value?.startsWith(`${ALGORITHM} `)) return null;
  const fields = new Map<string, string>();
  for (const part of value.slice(ALGORITHM.length + 1).split(',')) {
    const eq = part.indexOf('=');
    if (eq > 0) fields.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  const credential = fields.get('Credential')?.split('/') ?? [];
  const signedHeaders = fields.get('SignedHeaders');
  const signature = fields.get('Signature');
  if (credential.length !== 5 || !signedHeaders || !signature) return null;
  const [accessKeyId, date, region, service, terminator] = credential;
  return { accessKeyId, date, region, service, terminator, signedHeaders: signedHeaders.split(';'), signature };
}

/** 20150830T123600Z as a time, NaN when malformed. */
function amzTime(amzDate: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  return m ? Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) : NaN;
}

function headerPairs(headers: http.IncomingHttpHeaders): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) pairs.push([name, v]);
  }
  return pairs;
}

interface Refusal {
  status: number;
  type: string;
  message: string;
}

const SIGNATURE_MISMATCH = 'signature';

/** Null when the request is signed by the mock's credentials, else why it is not. */
function checkSignature(rec: MockRequest, rawQuery: string, opts: BedrockMockOptions): Refusal | typeof SIGNATURE_MISMATCH | null {
  const header = rec.headers.authorization;
  if (!header) return { status: 403, type: 'MissingAuthenticationTokenException', message: 'Missing Authentication Token' };
  const auth = parseAuthorization(header);
  if (!auth) return { status: 403, type: 'IncompleteSignatureException', message: `Authorization header requires 'Credential', 'Signature' and 'SignedHeaders' parameters. Authorization=${ALGORITHM}` };
  const token = rec.headers['x-amz-security-token'];
  if (auth.accessKeyId !== opts.accessKeyId || (opts.sessionToken !== undefined && token !== opts.sessionToken)) {
    return { status: 403, type: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' };
  }
  if (auth.region !== opts.region) return { status: 403, type: 'InvalidSignatureException', message: 'Credential should be scoped to a valid region.' };
  if (auth.service !== SERVICE || auth.terminator !== 'aws4_request') {
    return { status: 403, type: 'InvalidSignatureException', message: `Credential should be scoped to correct service: '${SERVICE}'.` };
  }
  const amzDate = typeof rec.headers['x-amz-date'] === 'string' ? rec.headers['x-amz-date'] : '';
  const at = amzTime(amzDate);
  if (Number.isNaN(at) || amzDate.slice(0, 8) !== auth.date) return SIGNATURE_MISMATCH;
  if (Math.abs(Date.now() - at) > MAX_SKEW_MS) {
    return { status: 403, type: 'InvalidSignatureException', message: `Signature expired: ${amzDate} is now earlier than the allowed window.` };
  }
  // host and x-amz-date must be signed, and so must a session token that is sent.
  const mustSign = ['host', 'x-amz-date', ...(token !== undefined ? ['x-amz-security-token'] : [])];
  if (mustSign.some((h) => !auth.signedHeaders.includes(h))) return SIGNATURE_MISMATCH;
  const payloadHash = sha256Hex(rec.body);
  const claimed = rec.headers['x-amz-content-sha256'];
  if (claimed !== undefined && claimed !== payloadHash && claimed !== 'UNSIGNED-PAYLOAD') return SIGNATURE_MISMATCH;
  const { signature } = sigV4({
    method: rec.method,
    path: rec.path,
    query: rawQuery,
    headers: headerPairs(rec.headers),
    signedHeaders: auth.signedHeaders,
    payloadHash,
    amzDate,
    region: auth.region,
    service: auth.service,
    secretAccessKey: opts.secretAccessKey,
  });
  const expected = Buffer.from(signature);
  const given = Buffer.from(auth.signature);
  return expected.length === given.length && timingSafeEqual(expected, given) ? null : SIGNATURE_MISMATCH;
}

/* ------------------------------------------------------------------------------------------------------------ */

interface Folders {
  invoke: CaseFolder;
  errors: CaseFolder;
}

function loadFolders(): Folders {
  const load = (name: string) => loadCaseFolder(new URL(`${name}/`, FIXTURES));
  return { invoke: load('invoke'), errors: load('errors') };
}

let requestSeq = 0;
const nextRequestId = () => `0b5e1a2c-0000-4000-8000-${String(++requestSeq).padStart(12, '0')}`;

function refuse(res: http.ServerResponse, rec: MockRequest, r: Refusal) {
  return sendBody(
    res,
    rec,
    r.status,
    { 'content-type': JSON_TYPE, 'x-amzn-requestid': nextRequestId(), 'x-amzn-errortype': `${r.type}:http://internal.amazon.com/coral/com.amazon.bedrock/` },
    JSON.stringify({ message: r.message }),
  );
}

function answerFixture(res: http.ServerResponse, rec: MockRequest, c: { status: number; headers: Record<string, string>; body: unknown; cut: boolean }, model: string) {
  const headers = { 'content-type': JSON_TYPE, 'x-amzn-requestid': nextRequestId(), ...c.headers };
  return sendBody(res, rec, c.status, headers, fillModel(JSON.stringify(c.body), model), c.cut);
}

const validation = (detail: string): Refusal => ({
  status: 400,
  type: 'ValidationException',
  message: `Malformed input request: #: ${detail}, please reformat your input and try again.`,
});

/** Bedrock's schema check of a Claude body; null when acceptable. */
function invalidBody(rec: MockRequest, body: Record<string, unknown> | null = rec.json): Refusal | null {
  const type = String(rec.headers['content-type'] ?? '');
  if (!type.startsWith(JSON_TYPE)) return { status: 400, type: 'ValidationException', message: 'The provided content type is not supported.' };
  const json = body;
  if (!json) return { status: 400, type: 'ValidationException', message: 'Malformed input request, please reformat your input and try again.' };
  for (const extraneous of ['model', 'stream']) if (extraneous in json) return validation(`extraneous key [${extraneous}] is not permitted`);
  for (const required of ['anthropic_version', 'max_tokens', 'messages']) if (!(required in json)) return validation(`required key [${required}] not found`);
  if (json.anthropic_version !== ANTHROPIC_VERSION) return validation(`subject must be one of [${ANTHROPIC_VERSION}] (anthropic_version)`);
  if (!Number.isInteger(json.max_tokens) || (json.max_tokens as number) < 1) return validation('max_tokens: expected integer >= 1');
  if (!Array.isArray(json.messages) || json.messages.length === 0) return validation('messages: expected a non-empty array');
  if ('anthropic_beta' in json && (!Array.isArray(json.anthropic_beta) || json.anthropic_beta.some((b) => typeof b !== 'string'))) {
    return validation('anthropic_beta: expected type: JSONArray of strings');
  }
  if (Array.isArray(json.anthropic_beta) && json.anthropic_beta.some((b) => !BEDROCK_BETAS.has(b as string))) {
    return { status: 400, type: 'ValidationException', message: 'invalid beta flag' };
  }
  return null;
}

/** The Anthropic name Bedrock reports for an id: `us.anthropic.claude-sonnet-4-20250514-v1:0` → claude-sonnet-4-20250514. */
export function anthropicModelName(modelId: string): string {
  const at = modelId.lastIndexOf('anthropic.');
  const bare = at < 0 ? modelId : modelId.slice(at + 'anthropic.'.length);
  return bare.replace(/-v\d+(:\d+)?$/, '');
}

/* ---- event stream ---- */

const codec = new EventStreamCodec(toUtf8, fromUtf8);
const str = (value: string) => ({ type: 'string' as const, value });

interface SseBlock {
  event: string;
  data: string;
}

function parseBlock(block: string): SseBlock {
  let event = '';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  return { event, data: data.join('\n') };
}

/** Bedrock's invocation metrics from the stream's own usage (message_start's input side, message_delta's output). */
function invocationMetrics(blocks: SseBlock[]): Record<string, number> | null {
  let usage: Record<string, unknown> = {};
  for (const b of blocks) {
    try {
      const e = JSON.parse(b.data) as { type?: string; message?: { usage?: object }; usage?: object };
      if (e.type === 'message_start' && e.message?.usage) usage = { ...usage, ...e.message.usage };
      if (e.type === 'message_delta' && e.usage) usage = { ...usage, ...e.usage };
    } catch {
      // not an event the metrics come from
    }
  }
  const n = (k: string) => (typeof usage[k] === 'number' ? (usage[k] as number) : undefined);
  if (n('input_tokens') === undefined && n('output_tokens') === undefined) return null;
  const metrics: Record<string, number> = {
    inputTokenCount: n('input_tokens') ?? 0,
    outputTokenCount: n('output_tokens') ?? 0,
    invocationLatency: 812,
    firstByteLatency: 296,
  };
  if (n('cache_read_input_tokens')) metrics.cacheReadInputTokenCount = n('cache_read_input_tokens')!;
  if (n('cache_creation_input_tokens')) metrics.cacheWriteInputTokenCount = n('cache_creation_input_tokens')!;
  return metrics;
}

function frame(headers: MessageHeaders, payload: unknown): Buffer {
  return Buffer.from(codec.encode({ headers, body: fromUtf8(JSON.stringify(payload)) }));
}

/** The event stream frames of one fixture stream. */
export function bedrockFrames(events: string[], model: string): Buffer[] {
  const blocks = events.map((e) => parseBlock(fillModel(e, model)));
  const metrics = invocationMetrics(blocks);
  const lastChunk = blocks.map((b) => !b.event.endsWith('Exception')).lastIndexOf(true);
  return blocks.map((b, i) => {
    if (b.event.endsWith('Exception')) {
      const headers = { ':exception-type': str(b.event), ':content-type': str(JSON_TYPE), ':message-type': str('exception') };
      return frame(headers, JSON.parse(b.data));
    }
    let json = b.data;
    const event = JSON.parse(b.data) as Record<string, unknown>;
    if (i === lastChunk && event.type === 'message_stop' && metrics) json = JSON.stringify({ ...event, 'amazon-bedrock-invocationMetrics': metrics });
    const payload = { bytes: Buffer.from(json, 'utf8').toString('base64'), p: PADDING.slice(0, 1 + (i * 7) % PADDING.length) };
    return frame({ ':event-type': str('chunk'), ':content-type': str(JSON_TYPE), ':message-type': str('event') }, payload);
  });
}

function sendEventStream(res: http.ServerResponse, rec: MockRequest, frames: Buffer[], cut: boolean, delayMs: number) {
  const headers = { 'content-type': EVENT_STREAM_TYPE, 'x-amzn-requestid': nextRequestId(), 'x-amzn-bedrock-content-type': JSON_TYPE };
  return sendStream(res, rec, headers, frames, { cut, delayMs });
}

/* ---- requests ---- */

const OPERATION = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream|count-tokens)$/;

/** What CountTokens answers for any InvokeModel body it accepts. */
export const BEDROCK_MOCK_INPUT_TOKENS = 2323;

/** CountTokens: an InvokeModel body, base64 in input.invokeModel.body; foundation-model ids only. */
function countTokens(res: http.ServerResponse, rec: MockRequest, modelId: string) {
  if (/^(?:us|us-gov|eu|apac|jp|au|global)\./.test(modelId)) return refuse(res, rec, validation("The provided model doesn't support counting tokens."));
  const encoded = (rec.json?.input as { invokeModel?: { body?: unknown } } | undefined)?.invokeModel?.body;
  let body: Record<string, unknown> | null = null;
  try {
    body = typeof encoded === 'string' ? (JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')) as Record<string, unknown>) : null;
  } catch {
    body = null;
  }
  const invalid = invalidBody(rec, body);
  if (invalid) return refuse(res, rec, invalid);
  rec.case = 'count-tokens';
  return sendBody(res, rec, 200, { 'content-type': JSON_TYPE, 'x-amzn-requestid': nextRequestId() }, JSON.stringify({ inputTokens: BEDROCK_MOCK_INPUT_TOKENS }));
}

async function handle(mock: BedrockMock, folders: Folders, rec: MockRequest, res: http.ServerResponse): Promise<void> {
  const rawQuery = new URLSearchParams(rec.query).toString();
  const auth = checkSignature(rec, rawQuery, mock.options);
  if (auth === SIGNATURE_MISMATCH) {
    rec.case = 'invalid-signature';
    return answerFixture(res, rec, folders.errors.get('invalid-signature')!.answer!, '');
  }
  if (auth) return refuse(res, rec, auth);

  const op = rec.method === 'POST' ? OPERATION.exec(rec.path) : null;
  if (!op) return refuse(res, rec, { status: 404, type: 'UnknownOperationException', message: 'Unknown operation' });
  let modelId: string;
  try {
    modelId = decodeURIComponent(op[1]);
  } catch {
    return refuse(res, rec, { status: 400, type: 'ValidationException', message: 'The provided model identifier is invalid.' });
  }
  if (op[2] === 'count-tokens') return countTokens(res, rec, modelId);
  const invalid = invalidBody(rec);
  if (invalid) return refuse(res, rec, invalid);
  const { script } = mock.options;
  if (script && op[2] === 'invoke-with-response-stream') {
    rec.case = 'script';
    return sendEventStream(res, rec, bedrockFrames(script(rec), anthropicModelName(modelId)), false, mock.options.eventDelayMs ?? 0);
  }

  const c = findCase(caseOfModel(modelId), [folders.invoke, folders.errors]);
  if (!c) return refuse(res, rec, { status: 400, type: 'ValidationException', message: 'The provided model identifier is invalid.' });
  rec.case = c.name;
  const model = anthropicModelName(modelId);
  if (op[2] === 'invoke-with-response-stream' && c.events) {
    return sendEventStream(res, rec, bedrockFrames(c.events, model), c.answer?.cut === true, mock.options.eventDelayMs ?? 0);
  }
  if (!c.answer) return refuse(res, rec, { status: 500, type: 'InternalServerException', message: `fixture ${c.name} has no JSON answer` });
  return answerFixture(res, rec, c.answer, model);
}

export async function startBedrockMock(options: BedrockMockOptions): Promise<BedrockMock> {
  const folders = loadFolders();
  return serveMock<BedrockMock>({ options }, (mock) => startFixtureServer((rec, res) => handle(mock, folders, rec, res)));
}
