// Many slow streams at once through one process: does anything between the client and the upstream cap or queue them?
//   node bench/streams.mjs [--n 5000] [--stream-ms 20000] [--ramp-ms 10000] [--no-http2] [--server FILE] [--profile]
// (--profile: Switchyard runs with --cpu-prof into bench/profiles/; summarize with bench/profile-top.mjs.
//  --server-node-flags="...": node flags for Switchyard, e.g. --trace-gc; --keep-logs copies its log to bench/profiles/.)
// (npm run bench:streams). After `npm run build`.
//   node bench/streams.mjs --workers 2 --n 10000 --stream-ms 40000   one node with that many workers (not pinned; RSS and CPU summed
//   over the primary and its workers), against direct only; writes the "Concurrent streams on one node" section.
//   --pin-node keeps the node on core 0, as the one-process run (on 2 cores, workers that float onto the client's
//   and mock's core slow the client down too: its first-byte figures then measure the machine, not the relay).
//
// A mock OpenAI upstream streams each answer slowly (first chunk at once, the rest over --stream-ms). N streaming
// calls are opened evenly within --ramp-ms (by default 500 new streams a second, as 5,000 streams of 10 s would
// arrive in steady traffic) and held to the end, so all N are open together for a while, once straight to the mock (direct), once through the
// minimal Node relay (no connection cap) and once through Switchyard as `npm start` runs it. For each: the most
// streams the upstream had open at once, time to first byte (percentiles; the added time is against direct),
// errors (any call that did not end with [DONE]), peak RSS of the relay and CPU it used. Then, against an HTTPS
// stand-in that speaks HTTP/2 and HTTP/1.1, Switchyard with UPSTREAM_HTTP2 on and off: CPU, memory, first byte and
// connections to the upstream. Writes the "Concurrent streams" section of bench/RESULTS.md on a standard run.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import {
  BENCH, CLK_TCK, HOST, MODEL, PINNED, ROOT, UPSTREAM_KEY, runBench, cpuTicks, fail, listeningPort, logTail, machine,
  makeTmpDir, memKB, pinNote, pinSelf, processTree, setupSwitchyard, startChild, startSwitchyard, stopChildrenOnExit, tmpDir,
  writeResultsSection,
} from './lib/harness.mjs';

const { values: args } = parseArgs({
  options: {
    n: { type: 'string', default: '5000' },
    'stream-ms': { type: 'string', default: '20000' },
    'ramp-ms': { type: 'string', default: '10000' },
    'no-http2': { type: 'boolean', default: false },
    server: { type: 'string', default: '' },
    profile: { type: 'boolean', default: false },
    'server-node-flags': { type: 'string', default: '' },
    'keep-logs': { type: 'boolean', default: false },
    workers: { type: 'string', default: '1' },
    'pin-node': { type: 'boolean', default: false },
  },
});
const WORKERS = Math.max(1, Number(args.workers) || 1);
/** One node with several workers: Switchyard against direct only, its figures summed over its processes. */
const NODE = WORKERS > 1;
const N = Math.max(1, Number(args.n) || 5000);
const STREAM_MS = Math.max(1000, Number(args['stream-ms']) || 20_000);
const RAMP_MS = Math.max(0, Number(args['ramp-ms']) || 0);
const MAIN_JS = args.server ? path.resolve(args.server) : path.join(ROOT, 'server/dist/main.js');
const PLAIN = RAMP_MS === 10_000 && !args.server && !args.profile && !args['server-node-flags'];
// The node run's streams last 40 s: on a 2-core machine the client and the mock share the cores with the node, first
// bytes come late under 10,000 streams, and 20 s streams would end before the last ones open.
const WRITE = NODE ? PLAIN && N === 10_000 && STREAM_MS === 40_000 && !args['pin-node'] : PLAIN && STREAM_MS === 20_000 && N === 5000 && !args['no-http2'];
const startedAt = Date.now();
const log = (...a) => console.log(`[${((Date.now() - startedAt) / 1000).toFixed(1).padStart(5)}s]`, ...a);

if (!fs.existsSync(MAIN_JS)) fail(`${path.relative(ROOT, MAIN_JS)} does not exist: run \`npm run build\` first.`);
if (process.platform !== 'linux') fail('needs Linux (/proc for CPU and memory figures)');
pinSelf();
stopChildrenOnExit(15 * 60_000);

const BODY = JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Say hello.' }], max_tokens: 64, stream: true, stream_options: { include_usage: true } });

/** One streaming call, timed to its first body byte; `ok` when it ended with [DONE]. */
function streamCall(target) {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.request(`${target.url}/v1/chat/completions`, {
      method: 'POST',
      agent: false,
      headers: { authorization: `Bearer ${target.key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY) },
    });
    req.setTimeout(STREAM_MS + 60_000, () => req.destroy(new Error('timeout')));
    req.on('error', (err) => resolve({ ok: false, firstByteMs: NaN, error: err.code ?? err.message }));
    req.on('response', (res) => {
      let firstByteMs = NaN;
      let tail = '';
      res.on('data', (d) => {
        if (Number.isNaN(firstByteMs)) firstByteMs = performance.now() - started;
        tail = (tail + d.toString('latin1')).slice(-32);
      });
      res.on('error', (err) => resolve({ ok: false, firstByteMs, error: err.code ?? err.message }));
      res.on('end', () => {
        const ok = res.statusCode === 200 && tail.endsWith('data: [DONE]\n\n');
        resolve({ ok, firstByteMs, error: ok ? null : `HTTP ${res.statusCode}` });
      });
    });
    req.end(BODY);
  });
}

/** Reads the mock's counters (its HTTPS variant has a self-signed certificate). */
const statsAgent = new Agent({ connect: { rejectUnauthorized: false } });
async function mockStats(mockUrl, reset = false) {
  const res = await request(`${mockUrl}/stats`, { method: reset ? 'POST' : 'GET', dispatcher: statsAgent });
  return res.body.json();
}

const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);

const sum = (pids, read) => pids.reduce((n, p) => n + (read(p) || 0), 0);

/** Opens N streams within the ramp, holds them to the end, and reads what the upstream and the relay saw. */
async function wave(target, mockUrl) {
  await mockStats(mockUrl, true);
  const pid = target.pid;
  const pids = pid ? processTree(pid) : [];
  const rssBefore = pid ? sum(pids, (p) => memKB(p, 'VmRSS')) : NaN;
  const cpuBefore = pid ? sum(pids, cpuTicks) : 0;
  let rssPeak = rssBefore;
  const sampler = pid ? setInterval(() => (rssPeak = Math.max(rssPeak, sum(pids, (p) => memKB(p, 'VmRSS')))), 100) : null;
  const began = performance.now();
  const calls = [];
  for (let i = 0; i < N; i++) {
    const due = (RAMP_MS * i) / N;
    const wait = due - (performance.now() - began);
    if (wait > 1) await sleep(wait);
    calls.push(streamCall(target));
  }
  const results = await Promise.all(calls);
  if (sampler) clearInterval(sampler);
  const stats = await mockStats(mockUrl);
  const first = results.map((r) => r.firstByteMs).filter(Number.isFinite).sort((a, b) => a - b);
  const errors = results.filter((r) => !r.ok);
  const kinds = {};
  for (const e of errors) kinds[e.error] = (kinds[e.error] ?? 0) + 1;
  return {
    target: target.name,
    maxOpen: stats.maxOpen,
    connections: stats.connections,
    h2Sessions: stats.h2Sessions,
    p50: pct(first, 50),
    p90: pct(first, 90),
    p99: pct(first, 99),
    max: first.at(-1) ?? NaN,
    errors: errors.length,
    errorKinds: kinds,
    wallS: (performance.now() - began) / 1000,
    rssBeforeMB: rssBefore / 1024,
    rssPeakMB: rssPeak / 1024,
    cpuS: pid ? (sum(pids, cpuTicks) - cpuBefore) / CLK_TCK : NaN,
  };
}

const logFiles = [];

async function switchyardTarget(name, upstreamUrl, env) {
  const nodeArgs = args.profile ? ['--cpu-prof', '--cpu-prof-dir', path.join(BENCH, 'profiles'), '--cpu-prof-name', `${name}.cpuprofile`] : [];
  nodeArgs.push(...args['server-node-flags'].split(' ').filter(Boolean));
  const sy = await startSwitchyard(MAIN_JS, { name, env: { ...env, WORKERS: String(WORKERS) }, nodeArgs, cpu: NODE && !args['pin-node'] ? null : 0 });
  logFiles.push(sy.logFile);
  try {
    const { key } = await setupSwitchyard(sy.base, upstreamUrl);
    const target = { name, url: sy.base, key, pid: sy.entry.child.pid };
    // The new channel reaches the routing table through the bus: wait (bounded) until one call goes through.
    for (let i = 0; i < 50; i++) {
      const r = await streamCallQuick(target);
      if (r) {
        // Then every worker answers a few calls (each on a connection of its own, handed out in turn): the first
        // call of a process loads its tokenizer, a pause the measured wave must not include.
        for (let w = 0; w < 4 * WORKERS; w++) await streamCallQuick(target);
        return target;
      }
      await sleep(200);
    }
    throw new Error('a call through Switchyard does not work');
  } catch (err) {
    console.error(`--- tail of the ${name} log:\n${logTail(sy.logFile)}`);
    throw err;
  }
}

async function streamCallQuick(target) {
  const res = await request(`${target.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }], max_tokens: 8 }),
    reset: true,
  });
  await res.body.text();
  return res.statusCode === 200;
}

function selfSignedCert(dir) {
  const cert = path.join(dir, 'upstream.crt');
  const key = path.join(dir, 'upstream.key');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1', '-subj', `/CN=${HOST}`, '-addext', `subjectAltName=IP:${HOST}`, '-keyout', key, '-out', cert], { stdio: 'ignore' });
  return { cert, key };
}

const f0 = (n) => (Number.isFinite(n) ? n.toFixed(0) : '–');
const f1 = (n) => (Number.isFinite(n) ? n.toFixed(1) : '–');

function rows(results, direct) {
  return results.map((r) => [
    r.target,
    `${r.maxOpen} / ${N}`,
    f0(r.p50),
    f0(r.p90),
    f0(r.p99),
    f0(r.max),
    direct ? f0(r.p99 - direct.p99) : '–',
    `${r.errors}${r.errors ? ` (${Object.entries(r.errorKinds).map(([k, v]) => `${k}: ${v}`).join(', ')})` : ''}`,
    r.target === 'direct' ? '–' : `${f0(r.rssBeforeMB)} → ${f0(r.rssPeakMB)}`,
    r.target === 'direct' ? '–' : f1(((r.rssPeakMB - r.rssBeforeMB) * 1024) / N),
    r.target === 'direct' ? '–' : f1(r.cpuS),
  ]);
}
const HEAD = ['target', 'most open at once', 'first byte p50 ms', 'p90', 'p99', 'max', 'p99 added vs direct', 'errors', 'RSS MB idle → peak', 'KB per stream', 'CPU s'];

function h2Rows(results) {
  return results.map((r) => [r.target, `${r.maxOpen} / ${N}`, f0(r.p50), f0(r.p99), f0(r.max), String(r.errors), `${r.connections} (${r.h2Sessions} HTTP/2)`, `${f0(r.rssBeforeMB)} → ${f0(r.rssPeakMB)}`, f1(r.cpuS)]);
}
const H2_HEAD = ['Switchyard', 'most open at once', 'first byte p50 ms', 'p99', 'max', 'errors', 'connections to the upstream', 'RSS MB idle → peak', 'CPU s'];

const md = (head, body) => [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...body.map((r) => `| ${r.join(' | ')} |`)].join('\n');
const text = (head, body) => [head, ...body].map((r) => r.map((c, i) => String(c).padEnd(i === 0 ? 22 : 14)).join(' ')).join('\n');

/** N streams through one node of WORKERS workers, against direct: the most open at once, errors, memory. */
async function nodeRun(mach, mockUrl) {
  const switchyard = await switchyardTarget(`switchyard (${WORKERS} workers)`, mockUrl, {});
  const results = [];
  for (const target of [{ name: 'direct', url: mockUrl, key: UPSTREAM_KEY, pid: 0 }, switchyard]) {
    log(`${target.name}: ${N} streams...`);
    const r = await wave(target, mockUrl);
    log(`  most open ${r.maxOpen}, first byte p50 ${f0(r.p50)} p99 ${f0(r.p99)} max ${f0(r.max)} ms, errors ${r.errors}, RSS ${f0(r.rssBeforeMB)} → ${f0(r.rssPeakMB)} MB`);
    results.push(r);
  }
  const [direct, sy] = results;
  console.log('\n' + text(HEAD, rows(results, direct)) + '\n');
  const verdict =
    sy.maxOpen === N && sy.errors === 0 && sy.rssPeakMB < 1500
      ? `PASS: ${N} streams open at once through one node of ${WORKERS} workers, no errors, peak RSS ${f0(sy.rssPeakMB)} MB (all processes).`
      : `FAIL: target is ${N} open at once (got ${sy.maxOpen}), 0 errors (got ${sy.errors}), RSS under 1,500 MB (got ${f0(sy.rssPeakMB)} MB).`;
  console.log(verdict);
  if (WRITE) {
    const section = [
      `## Concurrent streams on one node (\`node bench/streams.mjs --workers ${WORKERS} --n ${N}\`)`,
      '',
      `${new Date().toISOString().slice(0, 10)}, ${mach.nproc} cores (${mach.cpuModel}), node ${mach.node}. ${N} streaming calls opened within ${RAMP_MS / 1000} s, each answered over ${STREAM_MS / 1000} s, all held open together, through one node: a primary and ${WORKERS} workers sharing the port (not pinned; RSS and CPU are the sums over the node's processes, the client and mock share the same cores).`,
      '',
      md(HEAD, rows(results, direct)),
      '',
      verdict,
    ].join('\n');
    writeResultsSection('node-streams', section);
    log('wrote the node-streams section of bench/RESULTS.md');
  }
  return verdict.startsWith('PASS') ? 0 : 1;
}

async function main() {
  const mach = machine();
  log(`machine: ${mach.nproc} cores, ${mach.cpuModel}, node ${mach.node}; ${N} streams of ${STREAM_MS} ms opened within ${RAMP_MS} ms`);
  if (!PINNED) log(`WARNING: ${pinNote}`);
  makeTmpDir();

  const mock = startChild('mock', [path.join(BENCH, 'mock-upstream.mjs'), '--host', HOST, '--port', '0', '--slow-stream-ms', String(STREAM_MS)], { cpu: 1 });
  const mockUrl = `http://${HOST}:${await listeningPort(mock)}`;
  if (NODE) return nodeRun(mach, mockUrl);
  const minimal = startChild('minimal', [path.join(BENCH, 'minimal-relay.mjs'), '--host', HOST, '--port', '0', '--upstream', mockUrl, '--max-sockets', '0'], { cpu: 0 });
  const minimalUrl = `http://${HOST}:${await listeningPort(minimal)}`;
  const switchyard = await switchyardTarget('switchyard', mockUrl, {});

  const targets = [
    { name: 'direct', url: mockUrl, key: UPSTREAM_KEY, pid: 0 },
    { name: 'minimal relay', url: minimalUrl, key: UPSTREAM_KEY, pid: minimal.child.pid },
    switchyard,
  ];
  const results = [];
  for (const target of targets) {
    log(`${target.name}: ${N} streams...`);
    const r = await wave(target, mockUrl);
    log(`  most open ${r.maxOpen}, first byte p50 ${f0(r.p50)} p99 ${f0(r.p99)} max ${f0(r.max)} ms, errors ${r.errors}, RSS ${f0(r.rssBeforeMB)} → ${f0(r.rssPeakMB)} MB`);
    results.push(r);
  }
  const direct = results[0];
  console.log('\n' + text(HEAD, rows(results, direct)) + '\n');

  const h2 = [];
  if (!args['no-http2']) {
    const { cert, key } = selfSignedCert(tmpDir);
    const tlsMock = startChild('tls-mock', [path.join(BENCH, 'mock-upstream.mjs'), '--host', HOST, '--port', '0', '--slow-stream-ms', String(STREAM_MS), '--tls-cert', cert, '--tls-key', key], { cpu: 1 });
    const tlsUrl = `https://${HOST}:${await listeningPort(tlsMock)}`;
    for (const on of [false, true]) {
      const name = `UPSTREAM_HTTP2=${on}`;
      const target = await switchyardTarget(`switchyard-h2-${on}`, tlsUrl, { UPSTREAM_HTTP2: String(on), NODE_EXTRA_CA_CERTS: cert });
      log(`${name} (HTTPS upstream): ${N} streams...`);
      const r = await wave(target, tlsUrl);
      r.target = name;
      log(`  most open ${r.maxOpen}, connections ${r.connections} (${r.h2Sessions} HTTP/2), p99 ${f0(r.p99)} ms, errors ${r.errors}, RSS ${f0(r.rssBeforeMB)} → ${f0(r.rssPeakMB)} MB, CPU ${f1(r.cpuS)} s`);
      h2.push(r);
    }
    console.log('\n' + text(H2_HEAD, h2Rows(h2)) + '\n');
  }

  const sy = results[2];
  const verdict =
    sy.maxOpen === N && sy.errors === 0 && sy.p99 - direct.p99 <= 50 && sy.rssPeakMB < 800
      ? `PASS: ${N} streams open at once through one Switchyard process, no errors, first byte p99 ${f0(sy.p99 - direct.p99)} ms over direct, peak RSS ${f0(sy.rssPeakMB)} MB.`
      : `FAIL: target is ${N} open at once (got ${sy.maxOpen}), 0 errors (got ${sy.errors}), p99 within 50 ms of direct (got +${f0(sy.p99 - direct.p99)} ms), RSS under 800 MB (got ${f0(sy.rssPeakMB)} MB).`;
  console.log(verdict);
  if (WRITE) {
    const section = [
      '## Concurrent streams (`npm run bench:streams`)',
      '',
      `${new Date().toISOString().slice(0, 10)}, ${mach.nproc} cores (${mach.cpuModel}), node ${mach.node}. ${N} streaming calls opened within ${RAMP_MS / 1000} s, each answered over ${STREAM_MS / 1000} s by a mock upstream (first chunk at once), all held open together; ${PINNED ? 'relays pinned to core 0, client and mock to core 1' : pinNote}. *most open at once* is counted by the upstream; *errors* are calls that did not end with \`[DONE]\`; first byte is measured by the client from its request.`,
      '',
      md(HEAD, rows(results, direct)),
      '',
      verdict,
      '',
      ...(h2.length
        ? ['HTTP/2 to the upstream (HTTPS stand-in that offers h2 and http/1.1 by ALPN; same calls through Switchyard):', '', md(H2_HEAD, h2Rows(h2)), '']
        : []),
    ].join('\n');
    writeResultsSection('streams', section);
    log('wrote the concurrent-streams section of bench/RESULTS.md');
  }
  return verdict.startsWith('PASS') ? 0 : 1;
}

function keepLogs() {
  if (!args['keep-logs']) return;
  fs.mkdirSync(path.join(BENCH, 'profiles'), { recursive: true });
  for (const f of logFiles) fs.copyFileSync(f, path.join(BENCH, 'profiles', path.basename(f)));
}

runBench(main, keepLogs);
