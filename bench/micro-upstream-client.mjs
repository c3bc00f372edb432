// CPU per call of the upstream client alone, for the ways a relay can call the upstream: undici request() as
// server/src/relay/upstream.ts does it (AbortSignal, body read as a stream), variations of it, undici stream(), a raw
// undici dispatch() handler, and node:http with a keep-alive Agent (what bench/minimal-relay.mjs uses).
//   node bench/micro-upstream-client.mjs [--mode nonstream|stream] [--calls 20000] [--concurrency 50]
// Starts bench/mock-upstream.mjs itself (on core 1 when taskset exists; this process on core 0).
import { spawn, execFileSync } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { Agent, request, stream } from 'undici';
import { Writable } from 'node:stream';

const { values: args } = parseArgs({
  options: {
    mode: { type: 'string', default: 'nonstream' },
    calls: { type: 'string', default: '20000' },
    concurrency: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '3' },
  },
});
const CALLS = Number(args.calls);
const CONC = Number(args.concurrency);
const ROUNDS = Number(args.rounds);
let pinned = false;
try {
  execFileSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
  pinned = true;
} catch {
  /* unpinned */
}
const mockArgs = [path.join(import.meta.dirname, 'mock-upstream.mjs'), '--port', '0'];
const mock = pinned ? spawn('taskset', ['-c', '1', process.execPath, ...mockArgs]) : spawn(process.execPath, mockArgs);
process.on('exit', () => mock.kill('SIGKILL'));
const port = await new Promise((resolve, reject) => {
  const t = setTimeout(() => reject(new Error('mock did not start')), 10_000);
  readline.createInterface({ input: mock.stdout }).on('line', (l) => {
    clearTimeout(t);
    resolve(JSON.parse(l).listening);
  });
});
const origin = `http://127.0.0.1:${port}`;
const body = JSON.stringify({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'Say hello in one short sentence.' }],
  ...(args.mode === 'stream' ? { stream: true, stream_options: { include_usage: true } } : {}),
});
const headers = { authorization: 'Bearer sk-upstream', 'content-type': 'application/json' };
const agent = new Agent({ keepAliveTimeout: 30_000, connections: 512, pipelining: 1 });
const nodeAgent = new http.Agent({ keepAlive: true, maxSockets: 512 });
const url = `${origin}/v1/chat/completions`;

const clients = {
  async 'undici request() + AbortSignal + for-await body (as upstream.ts + respond.ts)'() {
    const ac = new AbortController();
    const res = await request(url, { method: 'POST', headers, body, dispatcher: agent, signal: ac.signal });
    if (args.mode === 'stream') for await (const chunk of res.body) void chunk;
    else Buffer.from(await res.body.arrayBuffer());
  },
  async 'undici request(), no signal'() {
    const res = await request(url, { method: 'POST', headers, body, dispatcher: agent });
    if (args.mode === 'stream') for await (const chunk of res.body) void chunk;
    else Buffer.from(await res.body.arrayBuffer());
  },
  async 'undici stream() into a Writable'() {
    await stream(url, { method: 'POST', headers, body, dispatcher: agent }, () => new Writable({ write: (c, e, cb) => cb() }));
  },
  'undici dispatch() with a raw handler'() {
    return new Promise((resolve, reject) => {
      agent.dispatch(
        { origin, path: '/v1/chat/completions', method: 'POST', headers, body },
        {
          onConnect() {},
          onHeaders() {
            return true;
          },
          onData() {
            return true;
          },
          onComplete: () => resolve(),
          onError: reject,
        },
      );
    });
  },
  'node:http request + keep-alive Agent (as minimal-relay)'() {
    return new Promise((resolve, reject) => {
      const req = http.request(url, { method: 'POST', headers, agent: nodeAgent }, (res) => {
        res.on('data', () => {});
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end(body);
    });
  },
};

async function run(fn, n) {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONC }, async () => {
      while (next < n) {
        next++;
        await fn();
      }
    }),
  );
}
console.log(`${args.mode}: ${CALLS} calls at concurrency ${CONC}, best of ${ROUNDS}; CPU µs per call of this process (client side only)${pinned ? '' : ' [unpinned]'}`);
for (const [name, fn] of Object.entries(clients)) {
  await run(fn, 2000);
  let best = Infinity;
  for (let r = 0; r < ROUNDS; r++) {
    const c0 = process.cpuUsage();
    await run(fn, CALLS);
    const c = process.cpuUsage(c0);
    best = Math.min(best, (c.user + c.system) / CALLS);
  }
  console.log(`${best.toFixed(1).padStart(7)} µs  ${name}`);
}
await agent.close();
nodeAgent.destroy();
mock.kill('SIGTERM');
process.exit(0);
