import type http from 'node:http';
import { caseOfRequest, fixtureFiles, type PlainRequest, type RecordingServer, sendHalfJson, sendJson, sendSse, serveMock, sleep, startRecordingServer } from './local-server.js';

/*
 * A local server that behaves like Alibaba DashScope: chat in the OpenAI-compatible mode
 * (POST /compatible-mode/v1/chat/completions), native text embedding, and wanx text-to-image as an async task
 * (POST .../image-synthesis, then GET /api/v1/tasks/{id}), with the generated images served at /images/<name>.png
 * (no key needed, like DashScope's signed result URLs). Answers come from fixtures/dashscope/<route>/<case>.
 *
 * What it checks, as DashScope does: the bearer key (401 in the route's own error shape otherwise), a streamed chat
 * asked with X-DashScope-SSE: enable, top_p inside (0, 1), an image task submitted with X-DashScope-Async: enable
 * (DashScope refuses synchronous calls to wanx), the native bodies' required fields.
 *
 * The case comes from the model name ("...mock-<case>") or an `x-mock-case` header, else `good`:
 *   chat        good, tool-call, no-usage, cut (stream cut mid-way / half a JSON body), 400, 429, arrearage (400)
 *   embeddings  good, no-usage, 400, 429
 *   images      good (RUNNING for `pollsBeforeDone` reads, then SUCCEEDED), partial (the last image failed),
 *               failed (DataInspectionFailed), crashed (InternalError), unknown, slow (never finishes), 400
 * A streamed chat sends its usage chunk only when stream_options.include_usage is true, as DashScope does.
 */

export interface DashScopeMock extends RecordingServer {
  key: string;
  /** Reads of a task answered RUNNING before it is done. */
  pollsBeforeDone: number;
  /** The tasks submitted, by id. */
  tasks: Map<string, MockTask>;
}

export interface MockTask {
  id: string;
  case: string;
  n: number;
  prompt: string;
  polls: number;
}

/** The bytes every generated image has (a PNG signature and a few bytes). */
export const MOCK_IMAGE = Buffer.from('89504e470d0a1a0a0000000d49484452dashscope-mock-image', 'utf8');

const FIXTURES = new URL('../fixtures/dashscope/', import.meta.url);
const fixture = fixtureFiles(FIXTURES);

const CHAT = '/compatible-mode/v1/chat/completions';
const EMBEDDINGS = '/api/v1/services/embeddings/text-embedding/text-embedding';
const IMAGES = '/api/v1/services/aigc/text2image/image-synthesis';
const TASKS = /^\/api\/v1\/tasks\/([^/]+)$/;

const text = (route: string, file: string) => fixture(route, file)?.toString('utf8') ?? null;
const fill = (body: string, values: Record<string, string | number>) =>
  Object.entries(values).reduce((out, [k, v]) => out.split(`{{${k}}}`).join(String(v)), body);

const compatError = (res: http.ServerResponse, status: number, code: string, message: string) =>
  sendJson(res, status, JSON.stringify({ error: { code, param: null, message, type: 'invalid_request_error' }, request_id: 'mock-request' }));
const nativeError = (res: http.ServerResponse, status: number, code: string, message: string) =>
  sendJson(res, status, JSON.stringify({ code, message, request_id: 'mock-request' }));

function chatProblem(json: Record<string, unknown>): string | null {
  if (typeof json.model !== 'string' || json.model === '') return 'model is required';
  if (!Array.isArray(json.messages) || json.messages.length === 0) return 'messages must not be empty';
  const topP = json.top_p;
  if (topP !== undefined && topP !== null && (typeof topP !== 'number' || topP <= 0 || topP >= 1)) {
    return `<400> InternalError.Algo.InvalidParameter: Range of top_p should be (0.0, 1.0), got ${JSON.stringify(topP)}`;
  }
  return null;
}

async function chat(req: PlainRequest, res: http.ServerResponse): Promise<void> {
  const json = req.json;
  if (!json) return compatError(res, 400, 'invalid_parameter_error', 'the request body is not JSON');
  const problem = chatProblem(json);
  if (problem) return compatError(res, 400, 'invalid_parameter_error', problem);
  const model = String(json.model);
  const name = caseOfRequest(req, model.replace(/^.*?(mock-)/, '$1'));
  if (/^\d{3}$/.test(name) || name === 'arrearage') {
    const body = text('chat', `${name}.json`);
    if (body) return sendJson(res, name === 'arrearage' ? 400 : Number(name), body);
  }
  if (json.stream === true) {
    if (req.headers['x-dashscope-sse'] !== 'enable') return compatError(res, 400, 'invalid_parameter_error', 'streaming requires the header X-DashScope-SSE: enable');
    const sse = text('chat', name === 'good' ? 'stream.sse' : `${name}.sse`);
    if (sse === null) return compatError(res, 404, 'model_not_found', `The model \`${model}\` does not exist`);
    const options = json.stream_options as { include_usage?: unknown } | undefined;
    const events = fill(sse, { model })
      .split(/(?<=\n\n)/)
      .filter((e) => options?.include_usage === true || !e.includes('"choices":[]'));
    return sendSse(res, events.join(''), { cut: name === 'cut', pause: () => sleep(1) });
  }
  if (name === 'cut') return sendHalfJson(res, Buffer.from(fill(text('chat', 'good.json')!, { model })));
  const body = text('chat', `${name}.json`);
  if (body === null) return compatError(res, 404, 'model_not_found', `The model \`${model}\` does not exist`);
  return sendJson(res, 200, fill(body, { model }));
}

async function embeddings(req: PlainRequest, res: http.ServerResponse): Promise<void> {
  const json = req.json;
  const texts = (json?.input as { texts?: unknown } | undefined)?.texts;
  if (!json || typeof json.model !== 'string') return nativeError(res, 400, 'InvalidParameter', 'Model not exist.');
  if (!Array.isArray(texts) || texts.length === 0 || !texts.every((t) => typeof t === 'string')) {
    return nativeError(res, 400, 'InvalidParameter', 'Input should be a valid dictionary or instance of Input: input.texts');
  }
  const name = caseOfRequest(req, json.model.replace(/^.*?(mock-)/, '$1'));
  const body = text('embeddings', `${name}.json`);
  if (body === null) return nativeError(res, 404, 'ModelNotFound', 'Model not found');
  if (/^\d{3}$/.test(name)) return sendJson(res, Number(name), body);
  if (texts.length > 10) return sendJson(res, 400, text('embeddings', '400.json')!);
  // One vector per text sent, taken in turn from the fixture's.
  const answer = JSON.parse(body) as { output: { embeddings: Array<{ embedding: number[] }> } };
  const vectors = answer.output.embeddings;
  answer.output.embeddings = texts.map((_, i) => ({ text_index: i, embedding: vectors[i % vectors.length].embedding }));
  return sendJson(res, 200, JSON.stringify(answer));
}

async function submitImages(mock: DashScopeMock, req: PlainRequest, res: http.ServerResponse): Promise<void> {
  if (req.headers['x-dashscope-async'] !== 'enable') return sendJson(res, 403, text('image-synthesis', 'sync.json')!);
  const json = req.json;
  const input = json?.input as { prompt?: unknown } | undefined;
  if (!json || typeof json.model !== 'string') return nativeError(res, 400, 'InvalidParameter', 'Model not exist.');
  if (typeof input?.prompt !== 'string' || input.prompt === '') return nativeError(res, 400, 'InvalidParameter', 'input.prompt is required');
  const name = caseOfRequest(req, json.model.replace(/^.*?(mock-)/, '$1'));
  if (/^\d{3}$/.test(name)) return sendJson(res, Number(name), text('image-synthesis', `${name}.json`)!);
  const n = (json.parameters as { n?: unknown } | undefined)?.n ?? 1;
  if (typeof n !== 'number' || n < 1 || n > 4) return sendJson(res, 400, text('image-synthesis', '400.json')!);
  const id = `${Math.random().toString(16).slice(2, 10)}-mock-task-${mock.tasks.size + 1}`;
  mock.tasks.set(id, { id, case: name, n, prompt: input.prompt, polls: 0 });
  return sendJson(res, 200, fill(text('image-synthesis', 'good.json')!, { task_id: id }));
}

function readTask(mock: DashScopeMock, id: string, res: http.ServerResponse): void {
  const task = mock.tasks.get(id);
  if (!task) return sendJson(res, 200, fill(text('tasks', 'unknown.json')!, { task_id: id }));
  task.polls++;
  const values = { task_id: id, n: task.n };
  if (task.case === 'slow' || task.polls <= mock.pollsBeforeDone) return sendJson(res, 200, fill(text('tasks', 'running.json')!, values));
  const body = text('tasks', `${task.case}.json`);
  if (body === null) return sendJson(res, 200, fill(text('tasks', 'unknown.json')!, values));
  const failed = task.case === 'partial' ? 1 : 0;
  const results = Array.from({ length: task.n }, (_, i) =>
    i >= task.n - failed
      ? { code: 'DataInspectionFailed', message: 'Output data may contain inappropriate content.' }
      : { orig_prompt: task.prompt, actual_prompt: `${task.prompt}, detailed`, url: `${mock.url}/images/${id}-${i}.png?Expires=1736409850&Signature=mock` },
  );
  return sendJson(res, 200, fill(body, { ...values, results: JSON.stringify(results), succeeded: task.n - failed, failed }));
}

async function handle(mock: DashScopeMock, req: PlainRequest, res: http.ServerResponse): Promise<void> {
  if (req.method === 'GET' && req.path.startsWith('/images/')) {
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': MOCK_IMAGE.length });
    return void res.end(MOCK_IMAGE);
  }
  const task = TASKS.exec(req.path);
  const route = req.path === CHAT ? 'chat' : req.path === EMBEDDINGS ? 'embeddings' : req.path === IMAGES ? 'image-synthesis' : task ? 'tasks' : null;
  if (!route) return nativeError(res, 404, 'NotFound', `Not found: ${req.method} ${req.path}`);
  const auth = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''));
  if (auth?.[1] !== mock.key) return sendJson(res, 401, text(route === 'chat' ? 'chat' : 'embeddings', '401.json')!);
  if (route === 'tasks') {
    if (req.method !== 'GET') return nativeError(res, 405, 'MethodNotAllowed', 'method not allowed');
    return readTask(mock, decodeURIComponent(task![1]), res);
  }
  if (req.method !== 'POST') return nativeError(res, 405, 'MethodNotAllowed', 'method not allowed');
  if (route === 'chat') return chat(req, res);
  if (route === 'embeddings') return embeddings(req, res);
  return submitImages(mock, req, res);
}

export async function startDashScopeMock(opts: { key?: string; pollsBeforeDone?: number } = {}): Promise<DashScopeMock> {
  const fields = { key: opts.key ?? 'sk-dashscope-test', pollsBeforeDone: opts.pollsBeforeDone ?? 2, tasks: new Map<string, MockTask>() };
  return serveMock<DashScopeMock>(fields, (mock) => startRecordingServer((req, res) => handle(mock, req, res)));
}
