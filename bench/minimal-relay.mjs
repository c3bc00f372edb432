// The floor for "a Node process in the path": forwards every request to the upstream over keep-alive connections
// and pipes the answer back. No auth, no parsing, no accounting.
//   node bench/minimal-relay.mjs --upstream http://127.0.0.1:PORT [--port 0] [--host 127.0.0.1] [--max-sockets 512]
// (--max-sockets 0: no cap on connections to the upstream, for many concurrent streams.)
// Prints one JSON line {"listening": <port>} on stdout once it accepts connections.
import http from 'node:http';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    upstream: { type: 'string' },
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    'max-sockets': { type: 'string', default: '512' },
  },
});
if (!args.upstream) {
  console.error('--upstream is required');
  process.exit(2);
}
const upstream = new URL(args.upstream);
const maxSockets = Number(args['max-sockets']) > 0 ? Number(args['max-sockets']) : Infinity;
const agent = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: 512, keepAliveMsecs: 30_000 });

// Hop-by-hop headers are not forwarded (RFC 9110 7.6.1).
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'host']);
function forwardHeaders(raw) {
  const out = {};
  for (const [k, v] of Object.entries(raw)) if (!HOP.has(k)) out[k] = v;
  return out;
}

const server = http.createServer((req, res) => {
  const up = http.request(
    {
      host: upstream.hostname,
      port: upstream.port,
      method: req.method,
      path: req.url,
      headers: forwardHeaders(req.headers),
      agent,
    },
    (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, forwardHeaders(upRes.headers));
      upRes.pipe(res);
    },
  );
  up.on('error', () => {
    if (!res.headersSent) {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"upstream unreachable","type":"bad_gateway"}}');
    } else res.destroy();
  });
  res.on('close', () => {
    if (!res.writableFinished) up.destroy();
  });
  req.pipe(up);
});
server.keepAliveTimeout = 120_000;
server.headersTimeout = 130_000;

server.listen({ port: Number(args.port), host: args.host, backlog: 4096 }, () => {
  process.stdout.write(JSON.stringify({ listening: server.address().port }) + '\n');
});

const stop = () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 1000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
