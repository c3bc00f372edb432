// The cheapest upstream that still answers as OpenAI does, for throughput runs where the benchmark's own processes
// share the machine's cores with the node under test (bench/workers.mjs): every CPU cycle it saves goes to the node.
//   node bench/lean-upstream.mjs [--port 0] [--host 127.0.0.1]
// Prints one JSON line {"listening": <port>} on stdout once it accepts connections.
//
// Raw TCP, HTTP/1.1 keep-alive: each request (head up to the blank line, then content-length bytes of body, unread)
// is answered with the same non-stream chat completion with usage, written as one pre-built buffer. No routing, no
// streams, no key check: point only non-stream chat completions at it. A head it cannot read closes the connection.
import net from 'node:net';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({ options: { port: { type: 'string', default: '0' }, host: { type: 'string', default: '127.0.0.1' } } });

const body = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: Math.floor(Date.now() / 1000),
  model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello there, this is a small answer from the lean bench upstream.', refusal: null }, logprobs: null, finish_reason: 'stop' }],
  usage: { prompt_tokens: 9, completion_tokens: 20, total_tokens: 29 },
});
const ANSWER = Buffer.from(
  `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: keep-alive\r\n\r\n${body}`,
);
const HEAD_END = Buffer.from('\r\n\r\n');
const MAX_HEAD = 64 * 1024;

/** Content-length of a request head (latin1 text), 0 when absent, -1 when unreadable. */
function contentLength(head) {
  const at = head.search(/\r\ncontent-length:/i);
  if (at < 0) return /\r\ntransfer-encoding:/i.test(head) ? -1 : 0;
  const value = Number.parseInt(head.slice(at + 17, head.indexOf('\r\n', at + 2)).trim(), 10);
  return Number.isFinite(value) && value >= 0 ? value : -1;
}

const server = net.createServer((socket) => {
  socket.setNoDelay(true);
  let pending = Buffer.alloc(0);
  let skip = 0;
  socket.on('error', () => {});
  socket.on('data', (chunk) => {
    let buf = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
    let answers = 0;
    for (;;) {
      if (skip > 0) {
        const n = Math.min(skip, buf.length);
        skip -= n;
        buf = buf.subarray(n);
        if (skip > 0) break;
      }
      const end = buf.indexOf(HEAD_END);
      if (end < 0) {
        if (buf.length > MAX_HEAD) return socket.destroy();
        break;
      }
      const length = contentLength(buf.toString('latin1', 0, end));
      if (length < 0) return socket.destroy();
      buf = buf.subarray(end + 4);
      skip = length;
      answers++;
    }
    pending = buf.length > 0 ? Buffer.from(buf) : Buffer.alloc(0);
    if (answers === 1) socket.write(ANSWER);
    else if (answers > 1) socket.write(Buffer.concat(Array(answers).fill(ANSWER)));
  });
});
server.listen(Number(args.port) || 0, args.host, () => {
  process.stdout.write(JSON.stringify({ listening: server.address().port }) + '\n');
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0));
