// A minimal OpenAI chat-completions upstream for benchmarks: as cheap as possible so it is never the bottleneck.
//   node bench/mock-upstream.mjs [--port 0] [--host 127.0.0.1] [--first-delay-ms 0] [--slow-stream-ms 0]
//                                [--tls-cert FILE --tls-key FILE]
// Prints one JSON line {"listening": <port>} on stdout once it accepts connections.
//
// POST /v1/chat/completions
//   non-stream: one JSON answer with usage.
//   stream: SSE, 20 small content chunks, a usage chunk when stream_options.include_usage is true, then [DONE];
//           written back-to-back (optionally after a fixed delay before the first chunk); with --slow-stream-ms, the
//           first chunk at once and the rest spread evenly over that many ms (a model that takes its time).
// POST /v1/messages (Anthropic's Messages API, for channels of the Claude type): the same answer, as one message or as
//   Claude's SSE events (message_start, a text block of 20 deltas, message_delta with usage, message_stop).
// POST /v1/responses (OpenAI's Responses API): the same answer as one response object or as Responses SSE events
//   (response.created ... response.completed with usage).
// A call that asks for thinking (Claude: thinking enabled or adaptive; chat: reasoning_effort; Responses: reasoning)
//   gets a short thought first: a signed thinking block, reasoning_content deltas, a reasoning item with a summary
//   (and encrypted_content when include asks for it); a chat stream only without --first-delay-ms and
//   --slow-stream-ms. Such answers report usage from the request's size (a token per 4 bytes, 90% of it read from the
//   prompt cache), as a long prompt would be billed.
// GET /stats: {open, maxOpen, connections, h2Sessions} (streams open now and at most since the last reset, TCP
//   connections accepted, HTTP/2 sessions); POST /stats/reset zeroes the counters.
// With --tls-cert and --tls-key it serves HTTPS with HTTP/2 and HTTP/1.1 (ALPN), else plain HTTP/1.1. Its HTTP/2
// sessions allow --h2-max-streams streams at once (128, as nginx's default; providers' fronts allow 100-256).
// Anything else: 404 in OpenAI's error shape. The key is not checked.
import fs from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    'first-delay-ms': { type: 'string', default: process.env.MOCK_FIRST_DELAY_MS ?? '0' },
    'slow-stream-ms': { type: 'string', default: '0' },
    'tls-cert': { type: 'string', default: '' },
    'tls-key': { type: 'string', default: '' },
    'h2-max-streams': { type: 'string', default: '128' },
  },
});
const firstDelayMs = Math.max(0, Number(args['first-delay-ms']) || 0);
const slowStreamMs = Math.max(0, Number(args['slow-stream-ms']) || 0);
const stats = { open: 0, maxOpen: 0, connections: 0, h2Sessions: 0 };

const CHUNKS = 20;
const USAGE = { prompt_tokens: 9, completion_tokens: CHUNKS, total_tokens: 9 + CHUNKS };
const WORDS = ['Hello', ' there', ',', ' this', ' is', ' a', ' small', ' streamed', ' answer', ' from', ' the', ' bench', ' mock', ' upstream', ' that', ' never', ' waits', ' between', ' chunks', '.'];

// Answers depend only on the model name and the stream/usage flags: build them once per model and reuse the bytes.
const cache = new Map();
function answersFor(model) {
  let a = cache.get(model);
  if (a) return a;
  const id = 'chatcmpl-bench';
  const created = Math.floor(Date.now() / 1000);
  const json = Buffer.from(
    JSON.stringify({
      id,
      object: 'chat.completion',
      created,
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: WORDS.join(''), refusal: null }, logprobs: null, finish_reason: 'stop' }],
      usage: USAGE,
    }),
  );
  const events = [];
  for (let i = 0; i < CHUNKS; i++) {
    const delta = i === 0 ? { role: 'assistant', content: WORDS[i] } : { content: WORDS[i] };
    const choice = { index: 0, delta, logprobs: null, finish_reason: i === CHUNKS - 1 ? 'stop' : null };
    events.push(Buffer.from(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [choice] })}\n\n`));
  }
  const usageEvent = Buffer.from(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: USAGE })}\n\n`);
  a = { json, events, usageEvent };
  if (cache.size < 16) cache.set(model, a);
  return a;
}
const DONE = Buffer.from('data: [DONE]\n\n');

const claudeCache = new Map();
function claudeAnswersFor(model) {
  let a = claudeCache.get(model);
  if (a) return a;
  const id = 'msg_bench';
  const usage = { input_tokens: USAGE.prompt_tokens, output_tokens: USAGE.completion_tokens };
  const json = Buffer.from(
    JSON.stringify({ id, type: 'message', role: 'assistant', model, content: [{ type: 'text', text: WORDS.join('') }], stop_reason: 'end_turn', stop_sequence: null, usage }),
  );
  const ev = (name, data) => Buffer.from(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  const events = [
    ev('message_start', { type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: usage.input_tokens, output_tokens: 1 } } }),
    ev('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    ...WORDS.map((w) => ev('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: w } })),
    ev('content_block_stop', { type: 'content_block_stop', index: 0 }),
    ev('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: usage.output_tokens } }),
    ev('message_stop', { type: 'message_stop' }),
  ];
  a = { json, events };
  if (claudeCache.size < 16) claudeCache.set(model, a);
  return a;
}

function claudeStream(res, a) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const e of a.events) res.write(e);
  res.end();
}

// ------------------------------------------------------------------ answers with a thought, usage from the request
const THOUGHT = ['The', ' request', ' asks', ' for', ' a', ' short', ' reply', ';', ' answer', ' in', ' one', ' line', '.'];
const SIGNATURE = Buffer.from('bench-signature:'.repeat(24)).toString('base64');
const ENCRYPTED = `gAAAAAB${Buffer.from('bench-reasoning:'.repeat(48)).toString('base64')}`;

/** Usage of a long prompt of `bytes` bytes: a token per 4 bytes, 90% of it read from the cache. */
function promptUsage(bytes) {
  const total = Math.max(1, Math.ceil(bytes / 4));
  const cached = Math.floor(total * 0.9);
  return { total, cached, output: THOUGHT.length + CHUNKS, reasoning: THOUGHT.length };
}
const sse = (name, data) => Buffer.from(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);

function claudeThinkingStream(res, model, bytes) {
  const u = promptUsage(bytes);
  const id = 'msg_bench';
  const usage = { input_tokens: 4, cache_creation_input_tokens: Math.max(0, u.total - u.cached - 4), cache_read_input_tokens: u.cached };
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const delta = (index, d) => sse('content_block_delta', { type: 'content_block_delta', index, delta: d });
  res.write(sse('message_start', { type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } }));
  res.write(sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }));
  for (const w of THOUGHT) res.write(delta(0, { type: 'thinking_delta', thinking: w }));
  res.write(delta(0, { type: 'signature_delta', signature: SIGNATURE }));
  res.write(sse('content_block_stop', { type: 'content_block_stop', index: 0 }));
  res.write(sse('content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }));
  for (const w of WORDS) res.write(delta(1, { type: 'text_delta', text: w }));
  res.write(sse('content_block_stop', { type: 'content_block_stop', index: 1 }));
  res.write(sse('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { ...usage, output_tokens: u.output } }));
  res.end(sse('message_stop', { type: 'message_stop' }));
}

function chatReasoningStream(res, model, bytes, includeUsage) {
  const u = promptUsage(bytes);
  const id = 'chatcmpl-bench';
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta, finish = null) => Buffer.from(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  THOUGHT.forEach((w, i) => res.write(chunk(i === 0 ? { role: 'assistant', content: '', reasoning_content: w } : { reasoning_content: w })));
  WORDS.forEach((w, i) => res.write(chunk({ content: w }, i === CHUNKS - 1 ? 'stop' : null)));
  if (includeUsage) {
    const usage = { prompt_tokens: u.total, completion_tokens: u.output, total_tokens: u.total + u.output, prompt_tokens_details: { cached_tokens: u.cached }, completion_tokens_details: { reasoning_tokens: u.reasoning } };
    res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage })}\n\n`);
  }
  res.end(DONE);
}

/** A Responses answer: the response object (completed) and its SSE events. */
function responsesAnswer(body, bytes) {
  const model = typeof body.model === 'string' ? body.model : 'gpt-5';
  const thinking = !!body.reasoning;
  const u = thinking ? promptUsage(bytes) : { total: USAGE.prompt_tokens, cached: 0, output: CHUNKS, reasoning: 0 };
  const text = WORDS.join('');
  const reasoning = { id: 'rs_bench', type: 'reasoning', summary: [{ type: 'summary_text', text: THOUGHT.join('') }] };
  if (thinking && Array.isArray(body.include) && body.include.includes('reasoning.encrypted_content')) reasoning.encrypted_content = ENCRYPTED;
  const message = { id: 'msg_bench', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', annotations: [], logprobs: [], text }] };
  const usage = { input_tokens: u.total, input_tokens_details: { cached_tokens: u.cached }, output_tokens: u.output, output_tokens_details: { reasoning_tokens: u.reasoning }, total_tokens: u.total + u.output };
  const response = (status, output, withUsage) => ({
    id: 'resp_bench', object: 'response', created_at: Math.floor(Date.now() / 1000), status, error: null, incomplete_details: null, model, output,
    parallel_tool_calls: body.parallel_tool_calls ?? true, store: body.store ?? true, tool_choice: body.tool_choice ?? 'auto', usage: withUsage ? usage : null,
  });
  let seq = 0;
  const ev = (name, data) => sse(name, { type: name, sequence_number: seq++, ...data });
  const events = [ev('response.created', { response: response('in_progress', [], false) }), ev('response.in_progress', { response: response('in_progress', [], false) })];
  const output = [];
  if (thinking) {
    const at = { item_id: reasoning.id, output_index: 0, summary_index: 0 };
    events.push(ev('response.output_item.added', { output_index: 0, item: { id: reasoning.id, type: 'reasoning', summary: [] } }));
    events.push(ev('response.reasoning_summary_part.added', { ...at, part: { type: 'summary_text', text: '' } }));
    for (const w of THOUGHT) events.push(ev('response.reasoning_summary_text.delta', { ...at, delta: w }));
    events.push(ev('response.reasoning_summary_text.done', { ...at, text: THOUGHT.join('') }));
    events.push(ev('response.reasoning_summary_part.done', { ...at, part: reasoning.summary[0] }));
    events.push(ev('response.output_item.done', { output_index: 0, item: reasoning }));
    output.push(reasoning);
  }
  const at = { item_id: message.id, output_index: output.length, content_index: 0 };
  events.push(ev('response.output_item.added', { output_index: at.output_index, item: { ...message, status: 'in_progress', content: [] } }));
  events.push(ev('response.content_part.added', { ...at, part: { type: 'output_text', annotations: [], logprobs: [], text: '' } }));
  for (const w of WORDS) events.push(ev('response.output_text.delta', { ...at, delta: w, logprobs: [] }));
  events.push(ev('response.output_text.done', { ...at, text, logprobs: [] }));
  events.push(ev('response.content_part.done', { ...at, part: message.content[0] }));
  events.push(ev('response.output_item.done', { output_index: at.output_index, item: message }));
  output.push(message);
  events.push(ev('response.completed', { response: response('completed', output, true) }));
  return { json: response('completed', output, true), events };
}

function sendJson(res, status, body) {
  const text = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function stream(res, a, includeUsage) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  if (slowStreamMs > 0) return slowStream(res, a, includeUsage);
  for (const e of a.events) res.write(e);
  if (includeUsage) res.write(a.usageEvent);
  res.end(DONE);
}

function slowStream(res, a, includeUsage) {
  let i = 0;
  res.write(a.events[i++]);
  const timer = setInterval(() => {
    res.write(a.events[i++]);
    if (i < a.events.length) return;
    clearInterval(timer);
    if (includeUsage) res.write(a.usageEvent);
    res.end(DONE);
  }, slowStreamMs / (a.events.length - 1));
  res.on('close', () => clearInterval(timer));
}

function countOpen(res) {
  stats.open++;
  stats.maxOpen = Math.max(stats.maxOpen, stats.open);
  res.on('close', () => stats.open--);
}

function handle(req, res) {
  if (req.url === '/stats') {
    if (req.method === 'POST') Object.assign(stats, { maxOpen: stats.open, connections: 0, h2Sessions: 0 });
    sendJson(res, 200, stats);
    return;
  }
  const parts = [];
  req.on('data', (c) => parts.push(c));
  req.on('end', () => {
    const route = req.url.split('?')[0];
    if (req.method !== 'POST' || (route !== '/v1/chat/completions' && route !== '/v1/messages' && route !== '/v1/responses')) {
      sendJson(res, 404, { error: { message: `Invalid URL (${req.method} ${req.url})`, type: 'invalid_request_error', param: null, code: 'unknown_url' } });
      return;
    }
    let body;
    const raw = Buffer.concat(parts);
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      sendJson(res, 400, { error: { message: 'We could not parse the JSON body of your request.', type: 'invalid_request_error', param: null, code: null } });
      return;
    }
    if (route === '/v1/responses') {
      const r = responsesAnswer(body, raw.length);
      if (body.stream !== true) return sendJson(res, 200, r.json);
      countOpen(res);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const e of r.events) res.write(e);
      res.end();
      return;
    }
    if (route === '/v1/messages') {
      const model = typeof body.model === 'string' ? body.model : 'claude-sonnet-4';
      if (body.stream === true && (body.thinking?.type === 'enabled' || body.thinking?.type === 'adaptive')) {
        countOpen(res);
        claudeThinkingStream(res, model, raw.length);
        return;
      }
      const c = claudeAnswersFor(model);
      if (body.stream === true) {
        countOpen(res);
        claudeStream(res, c);
      } else sendJson(res, 200, c.json);
      return;
    }
    const a = answersFor(typeof body.model === 'string' ? body.model : 'gpt-4o-mini');
    if (body.stream === true && typeof body.reasoning_effort === 'string' && firstDelayMs === 0 && slowStreamMs === 0) {
      countOpen(res);
      chatReasoningStream(res, body.model ?? 'gpt-4o-mini', raw.length, body.stream_options?.include_usage === true);
      return;
    }
    if (body.stream === true) {
      countOpen(res);
      const includeUsage = body.stream_options?.include_usage === true;
      if (firstDelayMs > 0) setTimeout(() => stream(res, a, includeUsage), firstDelayMs);
      else stream(res, a, includeUsage);
    } else {
      sendJson(res, 200, a.json);
    }
  });
}

const tls = args['tls-cert'] && args['tls-key'];
const server = tls
  ? http2.createSecureServer({ cert: fs.readFileSync(args['tls-cert']), key: fs.readFileSync(args['tls-key']), allowHTTP1: true, settings: { maxConcurrentStreams: Number(args['h2-max-streams']) || 128 } }, handle)
  : http.createServer(handle);
server.on('connection', () => stats.connections++);
server.on('session', () => stats.h2Sessions++);
if (!tls) {
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 130_000;
  server.maxRequestsPerSocket = 0;
}

server.listen({ port: Number(args.port), host: args.host, backlog: 4096 }, () => {
  process.stdout.write(JSON.stringify({ listening: server.address().port }) + '\n');
});

const stop = () => {
  server.closeAllConnections?.();
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 1000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
