import { readFileSync } from 'node:fs';
import type http from 'node:http';
import { type PlainRequest, type RecordingServer, sendJson, startRecordingServer } from './local-server.js';

/*
 * One local server standing in for the OpenAI-compatible upstreams that differ from OpenAI, each under its own path
 * prefix (a channel's base URL is `${url}/${flavor}`): Mistral (refuses fields outside its schema and tool call ids
 * not of nine letters and digits, reports stream usage unasked), DeepSeek (cache hits as prompt_cache_hit_tokens,
 * reasoning_content, FIM under /beta), VolcEngine Ark (/api/v3, bots, images), Qianfan v2 (/v2), xAI (reasoning left
 * out of completion_tokens), OpenRouter (reasoning), Perplexity (citations, no version segment). It checks the
 * Bearer key and records every request; the balance endpoints answer the documented bodies in fixtures/balances.
 */

export const COMPAT_KEY = 'sk-compat-key';
/** Qianfan v2 keys look like this; the channel key adds |AppID. */
export const QIANFAN_KEY = 'bce-v3/ALTAK-compat/secret';

export type Flavor = 'mistral' | 'deepseek' | 'volcengine' | 'qianfan' | 'xai' | 'openrouter' | 'perplexity';

const balance = (name: string) => readFileSync(new URL(`../fixtures/balances/${name}.json`, import.meta.url));

/** Balance endpoints: path under the server → fixture. */
const BALANCES: Record<string, string> = {
  '/openrouter/v1/credits': 'openrouter',
  '/deepseek/user/balance': 'deepseek-cny',
  '/deepseek-usd/user/balance': 'deepseek-usd',
  '/api2gpt/dashboard/billing/credit_grants': 'api2gpt',
  '/aigc2d/dashboard/billing/credit_grants': 'aigc2d',
  '/moonshot/v1/users/me/balance': 'moonshot',
  '/siliconflow/v1/user/info': 'siliconflow',
  '/openai/v1/dashboard/billing/subscription': 'openai-subscription',
  '/openai/v1/dashboard/billing/usage': 'openai-usage',
};

/** Mistral's chat request schema: any other field is a 422. */
const MISTRAL_FIELDS = new Set([
  'model', 'messages', 'temperature', 'top_p', 'max_tokens', 'stream', 'stop', 'random_seed', 'response_format', 'tools', 'tool_choice',
  'presence_penalty', 'frequency_penalty', 'n', 'prediction', 'parallel_tool_calls', 'safe_prompt', 'prompt_mode',
]);
const MISTRAL_MESSAGE_FIELDS = new Set(['role', 'content', 'tool_calls', 'tool_call_id', 'name', 'prefix']);
const MISTRAL_ID = /^[a-zA-Z0-9]{9}$/;

/** Usage each flavor reports, in its own shape. */
export const COMPAT_USAGE: Record<Flavor, Record<string, unknown>> = {
  mistral: { prompt_tokens: 12, completion_tokens: 9, total_tokens: 21 },
  deepseek: {
    prompt_tokens: 100,
    completion_tokens: 20,
    total_tokens: 120,
    prompt_cache_hit_tokens: 64,
    prompt_cache_miss_tokens: 36,
    completion_tokens_details: { reasoning_tokens: 8 },
  },
  volcengine: { prompt_tokens: 15, completion_tokens: 5, total_tokens: 20, prompt_tokens_details: { cached_tokens: 0 } },
  qianfan: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 },
  // xAI: reasoning tokens are in total_tokens and the details, not in completion_tokens.
  xai: {
    prompt_tokens: 30,
    completion_tokens: 10,
    total_tokens: 90,
    prompt_tokens_details: { cached_tokens: 6, text_tokens: 30 },
    completion_tokens_details: { reasoning_tokens: 50 },
  },
  openrouter: { prompt_tokens: 14, completion_tokens: 6, total_tokens: 20 },
  perplexity: { prompt_tokens: 9, completion_tokens: 11, total_tokens: 20, citation_tokens: 120, num_search_queries: 1, search_context_size: 'low' },
};

export const CITATIONS = ['https://example.org/a', 'https://example.org/b'];

type Json = Record<string, unknown>;

const error = (res: http.ServerResponse, status: number, message: string, type = 'invalid_request_error') =>
  sendJson(res, status, JSON.stringify({ error: { message, type, param: null, code: null } }));

/** Mistral's 422 for the first field outside its schema or a tool call id it does not accept; null when the body passes. */
function mistralRefusal(json: Json): string | null {
  for (const key of Object.keys(json)) if (!MISTRAL_FIELDS.has(key)) return `body.${key}: Extra inputs are not permitted`;
  for (const m of (json.messages ?? []) as Json[]) {
    for (const key of Object.keys(m)) if (!MISTRAL_MESSAGE_FIELDS.has(key)) return `body.messages.${key}: Extra inputs are not permitted`;
    const ids = [...((m.tool_calls as Json[] | undefined) ?? []).map((c) => c.id), ...(m.tool_call_id === undefined ? [] : [m.tool_call_id])];
    for (const id of ids) if (typeof id !== 'string' || !MISTRAL_ID.test(id)) return `Tool call id was ${String(id)} but must be a-z, A-Z, 0-9, with a length of 9.`;
  }
  return null;
}

function message(flavor: Flavor, model: string): Json {
  const m: Json = { role: 'assistant', content: `Hello from ${flavor}.` };
  if (flavor === 'deepseek' && model.includes('reasoner')) m.reasoning_content = 'Thinking it over.';
  if (flavor === 'xai') m.reasoning_content = 'Grok thinks.';
  if (flavor === 'openrouter') m.reasoning = 'Routed thought.';
  return m;
}

function extras(flavor: Flavor): Json {
  if (flavor === 'perplexity') return { citations: CITATIONS, search_results: CITATIONS.map((url, i) => ({ title: `Source ${i + 1}`, url })) };
  if (flavor === 'openrouter') return { provider: 'OpenAI' };
  return {};
}

async function streamAnswer(res: http.ServerResponse, flavor: Flavor, model: string, includeUsage: boolean): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const base = { id: `${flavor}-stream`, object: 'chat.completion.chunk', created: 1_700_000_000, model, ...extras(flavor) };
  const event = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
  const whole = message(flavor, model);
  event({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
  for (const field of ['reasoning_content', 'reasoning']) {
    if (typeof whole[field] === 'string') event({ ...base, choices: [{ index: 0, delta: { [field]: whole[field] }, finish_reason: null }] });
  }
  for (const piece of String(whole.content).split(/(?= )/)) event({ ...base, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
  const usage = COMPAT_USAGE[flavor];
  // Mistral and Perplexity report usage on the chunk that finishes, asked or not; the others on a last chunk when asked.
  const usageOnFinish = flavor === 'mistral' || flavor === 'perplexity';
  event({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], ...(usageOnFinish ? { usage } : {}) });
  if (!usageOnFinish && includeUsage) event({ ...base, choices: [], usage });
  res.end('data: [DONE]\n\n');
}

async function handle(req: PlainRequest, res: http.ServerResponse): Promise<void> {
  const fixture = BALANCES[req.path] ?? (req.path === '/aiproxy/api/report/getUserOverview' ? 'aiproxy' : null);
  if (req.method === 'GET' && fixture) {
    const presented = fixture === 'aiproxy' ? req.headers['api-key'] : req.headers.authorization;
    if (presented !== (fixture === 'aiproxy' ? COMPAT_KEY : `Bearer ${COMPAT_KEY}`)) return error(res, 401, 'Invalid API key');
    return sendJson(res, 200, balance(fixture));
  }
  if (req.method === 'GET' && req.path === '/qianfan/v2/models') {
    if (req.headers.authorization !== `Bearer ${QIANFAN_KEY}`) return error(res, 401, 'Invalid API key');
    return sendJson(res, 200, JSON.stringify({ object: 'list', data: [{ id: 'ernie-4.5-turbo-128k', object: 'model' }, { id: 'ernie-x1-turbo-32k', object: 'model' }] }));
  }
  const [, flavorName, ...rest] = req.path.split('/');
  const flavor = flavorName as Flavor;
  if (!(flavor in COMPAT_USAGE)) return error(res, 404, `no route ${req.path}`);
  const expectedKey = flavor === 'qianfan' ? QIANFAN_KEY : COMPAT_KEY;
  if (req.headers.authorization !== `Bearer ${expectedKey}`) return error(res, 401, 'Incorrect API key provided', 'authentication_error');
  const path = `/${rest.join('/')}`;
  const json = req.json;
  if (!json) return error(res, 400, 'body is not JSON');
  const model = String(json.model ?? '');
  const routes: Record<Flavor, string[]> = {
    mistral: ['/v1/chat/completions', '/v1/embeddings'],
    deepseek: ['/v1/chat/completions', '/beta/completions'],
    volcengine: ['/api/v3/chat/completions', '/api/v3/bots/chat/completions', '/api/v3/images/generations', '/api/v3/embeddings'],
    qianfan: ['/v2/chat/completions', '/v2/embeddings'],
    xai: ['/v1/chat/completions', '/v1/images/generations'],
    openrouter: ['/v1/chat/completions', '/v1/completions', '/v1/embeddings'],
    perplexity: ['/chat/completions'],
  };
  if (!routes[flavor].includes(path)) return error(res, 404, `no route ${path} on ${flavor}`);
  if (flavor === 'mistral' && path.endsWith('/chat/completions')) {
    const refusal = mistralRefusal(json);
    if (refusal) return error(res, 422, refusal);
  }
  if (flavor === 'perplexity' && json.tools) return error(res, 400, 'tools are not supported');
  if (path.endsWith('/bots/chat/completions') && !model.startsWith('bot-')) return error(res, 404, 'bot not found');
  const usage = COMPAT_USAGE[flavor];
  if (path.endsWith('/images/generations')) {
    return sendJson(res, 200, JSON.stringify({ model, created: 1_700_000_000, data: [{ url: `https://images.example/${flavor}.png` }], usage: { generated_images: 1 } }));
  }
  if (path.endsWith('/embeddings')) {
    return sendJson(res, 200, JSON.stringify({ object: 'list', model, data: [{ object: 'embedding', index: 0, embedding: [0.1, 0.2] }], usage: { prompt_tokens: 4, total_tokens: 4 } }));
  }
  if (path === '/beta/completions') {
    if (typeof json.prompt !== 'string') return error(res, 400, 'prompt is required');
    const text = `/* filled between ${JSON.stringify(json.prompt)} and ${JSON.stringify(json.suffix ?? '')} */`;
    return sendJson(res, 200, JSON.stringify({ id: 'fim-1', object: 'text_completion', created: 1_700_000_000, model, choices: [{ index: 0, text, logprobs: null, finish_reason: 'stop' }], usage }));
  }
  if (json.stream === true) {
    const options = json.stream_options as { include_usage?: boolean } | undefined;
    return streamAnswer(res, flavor, model, options?.include_usage === true);
  }
  const answer = {
    id: `${flavor}-1`,
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, message: message(flavor, model), logprobs: null, finish_reason: 'stop' }],
    usage,
    ...extras(flavor),
  };
  return sendJson(res, 200, JSON.stringify(answer));
}

export type CompatibleMock = RecordingServer;

export function startCompatibleMock(): Promise<CompatibleMock> {
  return startRecordingServer((req, res) => handle(req, res));
}
