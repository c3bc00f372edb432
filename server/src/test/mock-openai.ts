import type http from 'node:http';
import {
  dropConnection,
  type PlainRequest,
  type RecordingServer,
  sendHalfJson,
  sendJson,
  serveMock,
  sleep,
  stallConnection,
  startRecordingServer,
  waitUnlessGone,
} from './mocks/local-server.js';

/*
 * A local server that speaks OpenAI's wire format: it checks the bearer key (or Azure's api-key header), requires
 * the fields OpenAI requires, answers with OpenAI's JSON and SSE shapes, and fails on demand the way OpenAI fails.
 * Tests script it per call with `fail`, `cutAfter`, `omitUsage`, `delayMs`, and the faults of the fault matrix:
 * `headDelayMs`, `stallAfter`, `malformed`, `fail.retryAfter`.
 */

export type MockRequest = PlainRequest;

export interface MockBehaviour {
  /** Answer with this status and OpenAI error body instead of success. */
  fail?: { status: number; message?: string; type?: string; code?: string; retryAfter?: string };
  /** Drop the connection: streams after this many content chunks, whole chat answers half-way through the body. */
  cutAfter?: number;
  /** Leave usage out of the answer (and out of the stream even when asked). */
  omitUsage?: boolean;
  /** Wait before answering (ms), and between stream chunks. */
  delayMs?: number;
  /** Content chunks of a streamed answer. */
  chunks?: string[];
  /** Fail this share of calls (0..1) with a 500, at random. */
  failRate?: number;
  /** Wait this long before the status line, streams included (a first byte that comes late or never). */
  headDelayMs?: number;
  /** Go silent with the connection open: streams after this many content chunks, other answers half-way through. */
  stallAfter?: number;
  /** Answer 200 with JSON that does not parse; streams: one broken event after the first content chunk. */
  malformed?: boolean;
}

export interface MockOpenAI extends RecordingServer {
  key: string;
  /** Further keys it accepts (a channel holding several keys of one account). */
  otherKeys?: string[];
  /** Per key: the account's hard limit in USD its billing calls report (else $120; $20 is always spent). */
  hardLimits?: Record<string, number>;
  /** Behaviour for every call until changed. */
  behaviour: MockBehaviour;
  /** Behaviours for the next calls, in order (then `behaviour`). */
  queue: MockBehaviour[];
}

export const MOCK_USAGE = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 };
export const DEFAULT_CHUNKS = ['Hello', ' from', ' the', ' mock', ' upstream', '.'];

const send = (res: http.ServerResponse, status: number, body: unknown) => sendJson(res, status, JSON.stringify(body));

function errorBody(status: number, f: Omit<NonNullable<MockBehaviour['fail']>, 'status'>) {
  return {
    error: {
      message: f.message ?? `mock failure ${status}`,
      type: f.type ?? (status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error'),
      param: null,
      code: f.code ?? null,
    },
  };
}

async function streamChat(res: http.ServerResponse, model: string, b: MockBehaviour, includeUsage: boolean, legacy: boolean): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const id = 'chatcmpl-mock';
  const created = Math.floor(Date.now() / 1000);
  const object = legacy ? 'text_completion' : 'chat.completion.chunk';
  const event = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
  const chunks = b.chunks ?? DEFAULT_CHUNKS;
  if (!legacy) event({ id, object, created, model, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
  for (let i = 0; i < chunks.length; i++) {
    if (b.cutAfter !== undefined && i >= b.cutAfter) return dropConnection(res);
    if (b.stallAfter !== undefined && i >= b.stallAfter) return stallConnection(res);
    if (b.malformed && i === 1) res.write(`data: {"id":"${id}","object":"${object}","choices":[{"index":0,"delta":{"content":"brok\n\n`);
    if (b.delayMs) await sleep(b.delayMs);
    if (legacy) event({ id, object, created, model, choices: [{ index: 0, text: chunks[i], finish_reason: null }] });
    else event({ id, object, created, model, choices: [{ index: 0, delta: { content: chunks[i] }, finish_reason: null }] });
  }
  if (legacy) event({ id, object, created, model, choices: [{ index: 0, text: '', finish_reason: 'stop' }] });
  else event({ id, object, created, model, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
  if (includeUsage && !b.omitUsage) event({ id, object, created, model, choices: [], usage: MOCK_USAGE });
  res.write('data: [DONE]\n\n');
  res.end();
}

/** The first half of a whole answer, then silence with the connection open. */
function stallHalfWay(res: http.ServerResponse, body: unknown): Promise<void> {
  const bytes = Buffer.from(JSON.stringify(body));
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': bytes.length });
  res.write(bytes.subarray(0, bytes.length >> 1));
  return stallConnection(res);
}

function requireFields(json: Record<string, unknown> | null, fields: string[]): string | null {
  if (!json) return 'We could not parse the JSON body of your request.';
  for (const f of fields) if (json[f] === undefined || json[f] === null) return `you must provide a ${f} parameter`;
  return null;
}

async function handle(mock: MockOpenAI, req: MockRequest, res: http.ServerResponse): Promise<void> {
  const azure = req.path.startsWith('/openai/deployments/');
  const presented = azure ? req.headers['api-key'] : req.headers.authorization?.replace(/^Bearer /, '');
  if (presented !== mock.key && !mock.otherKeys?.includes(String(presented))) {
    send(res, 401, errorBody(401, { message: 'Incorrect API key provided: sk-****.', type: 'invalid_request_error', code: 'invalid_api_key' }));
    return;
  }
  const b = mock.queue.shift() ?? mock.behaviour;
  if (b.delayMs && !req.json?.stream) await sleep(b.delayMs);
  if (b.headDelayMs) await waitUnlessGone(res, b.headDelayMs);
  if (res.destroyed) return;
  const fail = b.fail ?? (b.failRate && Math.random() < b.failRate ? { status: 500 } : undefined);
  if (fail) {
    sendJson(res, fail.status, JSON.stringify(errorBody(fail.status, fail)), fail.retryAfter ? { 'retry-after': fail.retryAfter } : {});
    return;
  }
  const task = azure ? req.path.replace(/^\/openai\/deployments\/[^/]+\//, '/v1/') : req.path;
  const model = String(req.json?.model ?? (azure ? req.path.split('/')[3] : ''));
  const usage = b.omitUsage ? undefined : MOCK_USAGE;
  const created = Math.floor(Date.now() / 1000);
  switch (task) {
    case '/v1/chat/completions': {
      const missing = requireFields(req.json, azure ? ['messages'] : ['model', 'messages']);
      if (missing) return send(res, 400, errorBody(400, { message: missing }));
      const streamOptions = req.json!.stream_options as { include_usage?: boolean } | undefined;
      if (req.json!.stream === true) return streamChat(res, model, b, streamOptions?.include_usage === true, false);
      const content = (b.chunks ?? DEFAULT_CHUNKS).join('');
      if (b.malformed) return sendJson(res, 200, `{"id":"chatcmpl-mock","object":"chat.completion","created":${created},"choices":[{"index":0,"message":{"role":"assistant","content":"${content}`);
      const answer = {
        id: 'chatcmpl-mock',
        object: 'chat.completion',
        created,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
        usage,
      };
      if (b.stallAfter !== undefined) return stallHalfWay(res, answer);
      if (b.cutAfter !== undefined) return sendHalfJson(res, Buffer.from(JSON.stringify(answer)));
      return send(res, 200, answer);
    }
    case '/v1/completions': {
      const missing = requireFields(req.json, ['model', 'prompt']);
      if (missing) return send(res, 400, errorBody(400, { message: missing }));
      const streamOptions = req.json!.stream_options as { include_usage?: boolean } | undefined;
      if (req.json!.stream === true) return streamChat(res, model, b, streamOptions?.include_usage === true, true);
      return send(res, 200, {
        id: 'cmpl-mock',
        object: 'text_completion',
        created,
        model,
        choices: [{ index: 0, text: (b.chunks ?? DEFAULT_CHUNKS).join(''), logprobs: null, finish_reason: 'stop' }],
        usage,
      });
    }
    case '/v1/embeddings': {
      const missing = requireFields(req.json, ['model', 'input']);
      if (missing) return send(res, 400, errorBody(400, { message: missing }));
      const inputs = Array.isArray(req.json!.input) ? (req.json!.input as unknown[]) : [req.json!.input];
      return send(res, 200, {
        object: 'list',
        data: inputs.map((_, index) => ({ object: 'embedding', index, embedding: [0.1, -0.2, 0.3] })),
        model,
        usage: usage ? { prompt_tokens: usage.prompt_tokens, total_tokens: usage.prompt_tokens } : undefined,
      });
    }
    case '/v1/moderations':
      return send(res, 200, {
        id: 'modr-mock',
        model,
        results: [{ flagged: false, categories: { hate: false }, category_scores: { hate: 0.0001 } }],
      });
    case '/v1/images/generations': {
      const missing = requireFields(req.json, ['prompt']);
      if (missing) return send(res, 400, errorBody(400, { message: missing }));
      const n = (req.json!.n ?? 1) as number;
      if (!Number.isInteger(n) || n < 1 || n > 10) return send(res, 400, errorBody(400, { message: "Invalid 'n': expected an integer from 1 to 10." }));
      return send(res, 200, { created, data: Array.from({ length: n }, () => ({ url: 'https://images.example/mock.png', revised_prompt: 'a mock' })) });
    }
    case '/v1/audio/speech': {
      const missing = requireFields(req.json, ['model', 'input', 'voice']);
      if (missing) return send(res, 400, errorBody(400, { message: missing }));
      const audio = Buffer.from('ID3mock-mp3-bytes');
      res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': audio.length });
      res.end(audio);
      return;
    }
    case '/v1/audio/transcriptions':
    case '/v1/audio/translations': {
      const ct = String(req.headers['content-type'] ?? '');
      if (!ct.startsWith('multipart/form-data') || !req.body.includes('name="file"') || !req.body.includes('name="model"')) {
        return send(res, 400, errorBody(400, { message: 'file and model are required (multipart/form-data)' }));
      }
      return send(res, 200, { text: 'hello from the mock transcription', duration: 12.4, usage: usage && { type: 'duration', seconds: 13 } });
    }
    case '/v1/rerank': {
      const missing = requireFields(req.json, ['query', 'documents']);
      if (missing) return send(res, 400, errorBody(400, { message: missing }));
      const docs = req.json!.documents as unknown[];
      return send(res, 200, {
        results: docs.map((_, index) => ({ index, relevance_score: 1 - index / docs.length })),
        usage: usage ? { prompt_tokens: usage.prompt_tokens, total_tokens: usage.prompt_tokens } : undefined,
      });
    }
    case '/v1/models':
      return send(res, 200, { object: 'list', data: ['gpt-4o-mini', 'gpt-4o', 'text-embedding-3-small'].map((id) => ({ id, object: 'model', created, owned_by: 'openai' })) });
    // OpenAI's legacy billing calls: a $120 limit of which $20 (2000 cents) is spent.
    case '/v1/dashboard/billing/subscription': {
      const limit = mock.hardLimits?.[String(presented)] ?? 120;
      return send(res, 200, { object: 'billing_subscription', has_payment_method: true, soft_limit_usd: limit, hard_limit_usd: limit, system_hard_limit_usd: limit, access_until: 0 });
    }
    case '/v1/dashboard/billing/usage':
      return send(res, 200, { object: 'list', total_usage: 2000 });
    default:
      return send(res, 404, errorBody(404, { message: `Invalid URL (${req.method} ${req.path})`, code: 'unknown_url' }));
  }
}

export async function startMockOpenAI(key = 'sk-upstream-test-key'): Promise<MockOpenAI> {
  return serveMock<MockOpenAI>({ key, behaviour: {}, queue: [] }, (mock) => startRecordingServer((req, res) => handle(mock, req, res)));
}
