// Switchyard relay benchmark: one command, from the repository root, after `npm run build`.
//   node bench/run.mjs            (or: npm run bench)
// Options:
//   --quick            shorter runs (3 s measured, 1 s warm-up, smaller counts); results are printed, not written
//   --only LIST        comma list of targets to run (direct,minimal,switchyard); not written to RESULTS.md
//   --profile          start Switchyard and the minimal relay with --cpu-prof (profiles in bench/profiles/, summarize
//                      with `node bench/profile-top.mjs FILE`); not written to RESULTS.md
//   --modes LIST       nonstream,stream (default both); a single mode is not written to RESULTS.md
//   --server FILE      another build's main.js to run as Switchyard (A/B experiments); not written to RESULTS.md
//   --cpu-only         only the CPU-per-request runs (after a warm-up); not written to RESULTS.md
//   --server-node-options="..."  NODE_OPTIONS for Switchyard only (e.g. =--max-semi-space-size=4); not written
//   --server-node-flags="..."    node command-line flags for Switchyard, after the start script's own; not written
//   --cpu-reps N       interleaved CPU rounds per mode (default 7)
//   --first-delay-ms N fixed delay of the mock before the first stream chunk (default 0)
//
// Starts a mock OpenAI upstream, a minimal Node relay and Switchyard (server/dist/main.js) on 127.0.0.1, sets
// Switchyard up through its console API, then measures each target for non-stream and stream chat completions:
// throughput and latency with autocannon at 1 and 50 connections, precise sequential latency and time to first
// byte with undici, CPU time per request of the process under test (/proc/<pid>/stat), and its peak RSS (VmHWM).
// Writes bench/RESULTS.md (full standard runs only). Every child process is stopped at the end, on error and on
// SIGINT/SIGTERM.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, request } from 'undici';
import autocannon from 'autocannon';
import {
  BENCH, CHAT_BODIES, CHAT_PATH, CLK_TCK, HOST, PINNED, ROOT, UPSTREAM_KEY, cpuTicks, fail, foreignLoadMeter, listeningPort, logTail,
  machine, makeTmpDir, memKB, pinNote, pinSelf, setupSwitchyard, startChild, startCommand, startSwitchyard, stopChildrenOnExit,
  runBench, writeResults,
} from './lib/harness.mjs';

const MAIN_JS = args_server() || path.join(ROOT, 'server/dist/main.js');
const RELAY_JS = path.join(path.dirname(MAIN_JS), 'relay/routes/index.js');
function args_server() {
  const i = process.argv.indexOf('--server');
  return i > 0 && process.argv[i + 1] ? path.resolve(process.argv[i + 1]) : '';
}
const START = startCommand();
/** CPU per call at most this many times the minimal relay's: what anything new on the relay path must keep. */
const CPU_TARGET = 1.3;
const NOISY_PCT = 25; // other processes' CPU (% of one core) above which latency verdicts are flagged
const RUN_DEADLINE_MS = 9 * 60_000; // hard cap on the whole run, whatever happens

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string', default: '' },
    profile: { type: 'boolean', default: false },
    'first-delay-ms': { type: 'string', default: '0' },
    modes: { type: 'string', default: 'nonstream,stream' },
    server: { type: 'string', default: '' },
    'cpu-only': { type: 'boolean', default: false },
    'server-node-options': { type: 'string', default: '' },
    'server-node-flags': { type: 'string', default: '' },
    'cpu-reps': { type: 'string', default: '7' },
  },
});
const QUICK = args.quick;
const CFG = {
  warmupS: QUICK ? 1 : 2,
  durationS: QUICK ? 3 : 10,
  seqWarmup: QUICK ? 50 : 200,
  seqCount: QUICK ? 300 : 2000,
  seqMaxMs: QUICK ? 3000 : 8000,
  seqRounds: QUICK ? 3 : 5,
  cpuCount: { nonstream: QUICK ? 3000 : 8000, stream: QUICK ? 2000 : 4000 },
  cpuReps: Math.max(1, Number(args['cpu-reps']) || 7),
  cpuMaxS: 60,
  highConnections: 50,
};
const ALL_TARGETS = ['direct', 'minimal', 'switchyard'];
const TARGETS = args.only ? args.only.split(',').map((s) => s.trim()).filter(Boolean) : ALL_TARGETS;
for (const t of TARGETS) if (!ALL_TARGETS.includes(t)) fail(`unknown target ${t} (known: ${ALL_TARGETS.join(', ')})`);
const MODES = args.modes.split(',').map((s) => s.trim()).filter(Boolean);
for (const m of MODES) if (m !== 'nonstream' && m !== 'stream') fail(`unknown mode ${m} (known: nonstream, stream)`);
const WRITE_RESULTS =
  !QUICK && !args.only && !args.profile && MODES.length === 2 && !args.server && !args['cpu-only'] && !args['server-node-options'] && !args['server-node-flags'];
const startedAt = Date.now();
const loadStart = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

const log = (...a) => console.log(`[${((Date.now() - startedAt) / 1000).toFixed(1).padStart(5)}s]`, ...a);

// ---------------------------------------------------------------------------------------------- preconditions
if (!fs.existsSync(MAIN_JS)) fail(`${path.relative(ROOT, MAIN_JS)} does not exist: run \`npm run build\` first (this script builds nothing).`);
if (!fs.existsSync(RELAY_JS)) fail(`${path.relative(ROOT, RELAY_JS)} does not exist: server/dist is stale, run \`npm run build\` first.`);
if (process.platform !== 'linux') fail('needs Linux (/proc for CPU and memory figures)');
pinSelf();
stopChildrenOnExit(RUN_DEADLINE_MS);

const BODIES = CHAT_BODIES;
const PATH = CHAT_PATH;

function headersFor(target) {
  return { 'content-type': 'application/json', authorization: `Bearer ${target.key}` };
}

/** One call, checked: the answer must be what the mock sends (through any relay). */
async function verify(target, mode) {
  const res = await request(target.url + PATH, { method: 'POST', headers: headersFor(target), body: BODIES[mode], headersTimeout: 10_000, bodyTimeout: 10_000 });
  const text = await res.body.text();
  if (res.statusCode !== 200) return `HTTP ${res.statusCode}: ${text.slice(0, 300)}`;
  if (mode === 'nonstream') {
    let j;
    try {
      j = JSON.parse(text);
    } catch {
      return `not JSON: ${text.slice(0, 200)}`;
    }
    if (!j.choices?.[0]?.message?.content || !j.usage?.total_tokens) return `unexpected answer: ${text.slice(0, 300)}`;
    return null;
  }
  const events = text.split('\n\n').filter((e) => e.startsWith('data: '));
  const content = events.filter((e) => e.includes('"delta"')).length;
  const usage = events.filter((e) => e.includes('"usage"')).length;
  const done = events.filter((e) => e === 'data: [DONE]').length;
  if (content !== 20 || usage !== 1 || done !== 1) return `unexpected stream: ${content} content chunks, ${usage} usage, ${done} [DONE]`;
  return null;
}

function pct(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Sequential calls on one keep-alive connection: total time and time to the first body chunk, in µs (unsorted). */
async function sequential(target, mode, { warmup, count, maxMs }) {
  const client = new Client(target.url, { pipelining: 1, keepAliveTimeout: 60_000, headersTimeout: 10_000, bodyTimeout: 10_000 });
  const total = [];
  const ttfb = [];
  const headers = headersFor(target);
  const body = BODIES[mode];
  const until = Date.now() + maxMs;
  try {
    for (let i = 0; i < warmup + count && Date.now() < until; i++) {
      const t0 = process.hrtime.bigint();
      const res = await client.request({ path: PATH, method: 'POST', headers, body });
      let first = 0n;
      for await (const chunk of res.body) {
        if (!first && chunk.length > 0) first = process.hrtime.bigint();
      }
      const t1 = process.hrtime.bigint();
      if (res.statusCode !== 200) throw new Error(`${target.name} ${mode}: HTTP ${res.statusCode}`);
      if (i >= warmup) {
        total.push(Number(t1 - t0) / 1000);
        ttfb.push(Number(first - t0) / 1000);
      }
    }
  } finally {
    await client.close();
  }
  return { total, ttfb };
}

function cannon(target, mode, opts) {
  return new Promise((resolve, reject) => {
    const options = { url: target.url + PATH, method: 'POST', headers: headersFor(target), body: BODIES[mode], pipelining: 1, timeout: 10 };
    for (const [k, v] of Object.entries(opts)) if (v !== undefined) options[k] = v;
    const inst = autocannon(
      options,
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    // Bounded in time whatever the options say.
    const guard = setTimeout(() => inst.stop(), ((opts.duration ?? CFG.cpuMaxS) + 15) * 1000);
    inst.on('done', () => clearTimeout(guard));
  });
}

function summarize(r) {
  return {
    rps: r.requests.total / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    mean: r.latency.average,
    total: r.requests.total,
    bad: r.errors + r.timeouts + r.non2xx,
  };
}

/** Samples VmRSS of pid while fn runs. */
/** pid -> the composition of its highest sampled VmRSS. */
const peakDetail = new Map();
async function withRss(pid, fn) {
  let max = 0;
  const t = pid
    ? setInterval(() => {
        try {
          const rss = memKB(pid, 'VmRSS');
          if (rss > max) {
            max = rss;
            if (rss > (peakDetail.get(pid)?.rss ?? 0)) {
              const kinds = ['RssAnon', 'RssFile', 'RssShmem'].map((f) => `${f.slice(3)} ${(memKB(pid, f) / 1024).toFixed(0)}`);
              peakDetail.set(pid, { rss, text: `peak VmRSS ${(rss / 1024).toFixed(0)} MB = ${kinds.join(' + ')} MB` });
            }
          }
        } catch {
          /* gone */
        }
      }, 200)
    : null;
  try {
    return [await fn(), max];
  } finally {
    if (t) clearInterval(t);
  }
}

async function measure(target, mode) {
  const out = { target: target.name, mode };
  const foreign = foreignLoadMeter();
  const problem = await verify(target, mode);
  if (problem) throw new Error(`${target.name} ${mode}: ${problem}`);
  let rssMax = 0;
  if (args['cpu-only']) {
    out.seq = { p50: NaN, p99: NaN, ttfbP50: NaN, ttfbP99: NaN };
    await cannon(target, mode, { connections: CFG.highConnections, duration: CFG.warmupS });
  } else {
    out.seq = { p50: NaN, p99: NaN, ttfbP50: NaN, ttfbP99: NaN }; // measured later, in interleaved rounds
  }
  for (const connections of args['cpu-only'] ? [] : [1, CFG.highConnections]) {
    log(`${target.name} ${mode}: autocannon c=${connections} (${CFG.warmupS} s warm-up + ${CFG.durationS} s)`);
    await cannon(target, mode, { connections, duration: CFG.warmupS });
    const [r, rss] = await withRss(target.pid, () => cannon(target, mode, { connections, duration: CFG.durationS }));
    rssMax = Math.max(rssMax, rss);
    out[`c${connections}`] = summarize(r);
  }
  out.rssMaxMB = rssMax / 1024;
  out.foreignPct = foreign();
  return out;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Sequential latency of every target (direct included, the baseline of "added"), in interleaved rounds: each round
 * times a block of sequential calls on each target back to back, the order turning every round, so the machine's
 * slow spells fall on all of them. Per round: each relay's added p50 (its p50 minus direct's in the same round) and
 * Switchyard's ratio to the minimal relay's; the verdict uses the median of those ratios. The table shows the
 * percentiles of all rounds' calls pooled.
 */
async function measureLatency(targets, mode, results) {
  const rounds = CFG.seqRounds;
  const count = Math.ceil(CFG.seqCount / rounds);
  log(`${mode}: sequential latency / TTFB, ${rounds} interleaved rounds x ${count} calls (${targets.map((t) => t.name).join(', ')})`);
  const pooled = new Map(targets.map((t) => [t.name, { total: [], ttfb: [] }]));
  const added = { total: [], ttfb: [] };
  for (let round = 0; round < rounds; round++) {
    const order = targets.slice(round % targets.length).concat(targets.slice(0, round % targets.length));
    const p50 = new Map();
    for (const target of order) {
      const r = await sequential(target, mode, { warmup: CFG.seqWarmup, count, maxMs: CFG.seqMaxMs });
      pooled.get(target.name).total.push(...r.total);
      pooled.get(target.name).ttfb.push(...r.ttfb);
      p50.set(target.name, { total: median(r.total), ttfb: median(r.ttfb) });
    }
    const d = p50.get('direct');
    const sy = p50.get('switchyard');
    const min = p50.get('minimal');
    if (d && sy && min) {
      added.total.push((sy.total - d.total) / (min.total - d.total));
      added.ttfb.push((sy.ttfb - d.ttfb) / (min.ttfb - d.ttfb));
    }
  }
  for (const [name, { total, ttfb }] of pooled) {
    total.sort((a, b) => a - b);
    ttfb.sort((a, b) => a - b);
    results.find((x) => x.target === name && x.mode === mode).seq = {
      n: total.length,
      p50: pct(total, 50),
      p99: pct(total, 99),
      ttfbP50: pct(ttfb, 50),
      ttfbP99: pct(ttfb, 99),
      pairedRatio: added.total.length ? median(added.total) : NaN,
      pairedTtfbRatio: added.ttfb.length ? median(added.ttfb) : NaN,
    };
  }
}

/**
 * CPU per request of each relay, measured in interleaved rounds: every repetition runs the same fixed-count load
 * against each relay back to back (the order alternates), so a slow spell of the machine falls on both alike.
 * Per target: the minimum and median over repetitions; per pair of targets: the median of the per-round ratios.
 */
async function measureCpu(relays, mode, results) {
  const count = CFG.cpuCount[mode];
  log(`${mode}: CPU per request, ${CFG.cpuReps} interleaved rounds x ${count} calls at c=${CFG.highConnections} (${relays.map((t) => t.name).join(', ')})`);
  const runs = new Map(relays.map((t) => [t.name, []]));
  for (const t of relays) await cannon(t, mode, { connections: CFG.highConnections, amount: Math.min(count, 2000), duration: undefined });
  for (let rep = 0; rep < CFG.cpuReps; rep++) {
    const order = rep % 2 === 0 ? relays : [...relays].reverse();
    for (const target of order) {
      await sleep(300); // let batched settlement of earlier calls land before the window opens
      const before = cpuTicks(target.pid);
      const t0 = Date.now();
      const [r, rss] = await withRss(target.pid, () => cannon(target, mode, { connections: CFG.highConnections, amount: count, duration: undefined }));
      await sleep(300); // ... and this window's settlement inside it (settler interval is 100 ms)
      const ticks = cpuTicks(target.pid) - before;
      const row = results.find((x) => x.target === target.name && x.mode === mode);
      row.rssMaxMB = Math.max(row.rssMaxMB ?? 0, rss / 1024);
      runs.get(target.name).push({ requests: r.requests.total, bad: r.errors + r.timeouts + r.non2xx, usPerReq: ((ticks / CLK_TCK) * 1e6) / r.requests.total, wallS: (Date.now() - t0) / 1000, ticks });
    }
  }
  for (const [name, reps] of runs) {
    const sorted = reps.map((x) => x.usPerReq).sort((a, b) => a - b);
    results.find((x) => x.target === name && x.mode === mode).cpu = {
      // The minimum: interference from other processes only ever adds CPU time (cache misses, migrations).
      usPerReq: sorted[0],
      median: sorted[Math.floor(sorted.length / 2)],
      all: reps.map((x) => x.usPerReq),
      requests: reps.reduce((a, x) => a + x.requests, 0),
      bad: reps.reduce((a, x) => a + x.bad, 0),
    };
  }
  const sy = runs.get('switchyard');
  const min = runs.get('minimal');
  if (sy && min) {
    const paired = sy.map((x, i) => x.usPerReq / min[i].usPerReq).sort((a, b) => a - b);
    results.find((x) => x.target === 'switchyard' && x.mode === mode).cpu.pairedRatio = paired[Math.floor(paired.length / 2)];
  }
}

// ---------------------------------------------------------------------------------------------- report
const f0 = (n) => (Number.isFinite(n) ? n.toFixed(0) : '–');
const f1 = (n) => (Number.isFinite(n) ? n.toFixed(1) : '–');
const f2 = (n) => (Number.isFinite(n) ? n.toFixed(2) : '–');
const ms = (n) => (Number.isFinite(n) ? `${n}` : '–');

function table(results, direct) {
  const head = [
    'target',
    'mode',
    'req/s c=1',
    'p50/p99 ms c=1',
    'req/s c=50',
    'p50/p99 ms c=50',
    'seq p50/p99 µs',
    'added p50 µs',
    'TTFB p50 µs',
    'added TTFB µs',
    'CPU µs/req min (median)',
    'peak RSS MB',
    'other load %',
  ];
  const rows = results.map((r) => {
    const d = direct[r.mode];
    const bad = (r.c1?.bad ?? 0) + (r.c50?.bad ?? 0) + (r.cpu?.bad ?? 0);
    return [
      r.target + (bad ? ` (${bad} errors!)` : ''),
      r.mode,
      f0(r.c1?.rps),
      `${ms(r.c1?.p50)} / ${ms(r.c1?.p99)}`,
      f0(r.c50?.rps),
      `${ms(r.c50?.p50)} / ${ms(r.c50?.p99)}`,
      `${f0(r.seq.p50)} / ${f0(r.seq.p99)}`,
      r.target === 'direct' || !d ? '–' : f0(r.seq.p50 - d.seq.p50),
      r.mode === 'stream' ? f0(r.seq.ttfbP50) : '–',
      r.mode === 'stream' && r.target !== 'direct' && d ? f0(r.seq.ttfbP50 - d.seq.ttfbP50) : '–',
      r.cpu ? `${f0(r.cpu.usPerReq)} (med ${f0(r.cpu.median)})` : 'n/a',
      r.target === 'direct' ? 'n/a' : f1(r.peakMB),
      f0(r.foreignPct),
    ];
  });
  return { head, rows };
}

function markdownTable({ head, rows }) {
  return [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}
function textTable({ head, rows }) {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => String(c).padEnd(w[i])).join('  ');
  return [line(head), line(w.map((n) => '-'.repeat(n))), ...rows.map(line)].join('\n');
}

function ratios(results, direct) {
  const get = (t, m) => results.find((r) => r.target === t && r.mode === m);
  const out = [];
  for (const mode of ['nonstream', 'stream']) {
    const s = get('switchyard', mode);
    const m = get('minimal', mode);
    const d = direct[mode];
    if (!s || !m) continue;
    // The verdict is the median of the per-round ratios (rounds run back to back, so both relays see the same
    // machine); the ratio of the two minimums is shown beside it.
    out.push({ what: `CPU per request, ${mode} (median of paired rounds)`, sy: s.cpu.median, min: m.cpu.median, unit: 'µs', ratio: s.cpu.pairedRatio, target: CPU_TARGET });
    out.push({ what: `CPU per request, ${mode} (minimum of rounds, info)`, sy: s.cpu.usPerReq, min: m.cpu.usPerReq, unit: 'µs', ratio: s.cpu.usPerReq / m.cpu.usPerReq, target: NaN });
    if (!d || args['cpu-only']) continue;
    const addS = s.seq.p50 - d.seq.p50;
    const addM = m.seq.p50 - d.seq.p50;
    // As for CPU, the verdict is the median of the per-round ratios (all targets timed back to back each round).
    const paired = s.seq.pairedRatio;
    // Latency is what other processes disturb most: flag a verdict taken while the machine was shared.
    const noisy = Math.max(s.foreignPct, m.foreignPct, d.foreignPct) > NOISY_PCT ? Math.max(s.foreignPct, m.foreignPct, d.foreignPct) : 0;
    out.push({ what: `added latency p50 (c=1), ${mode} (median of paired rounds)`, sy: addS, min: addM, unit: 'µs', ratio: Number.isFinite(paired) ? paired : addS / addM, target: 1.5, noisy });
    if (mode === 'stream') {
      const tS = s.seq.ttfbP50 - d.seq.ttfbP50;
      const tM = m.seq.ttfbP50 - d.seq.ttfbP50;
      out.push({ what: 'added TTFB p50 (c=1), stream (median of paired rounds, info)', sy: tS, min: tM, unit: 'µs', ratio: Number.isFinite(s.seq.pairedTtfbRatio) ? s.seq.pairedTtfbRatio : tS / tM, target: NaN, noisy });
    }
  }
  const peaks = results.filter((r) => r.target === 'switchyard').map((r) => r.peakMB);
  if (peaks.length) out.push({ what: 'Switchyard peak RSS under load (VmHWM)', sy: Math.max(...peaks), min: NaN, unit: 'MB', ratio: NaN, target: 150, absolute: true });
  return out;
}
function ratioLines(rs) {
  return rs.map((r) => {
    if (r.absolute) {
      const ok = r.sy <= r.target;
      return `| ${r.what} | ${f1(r.sy)} ${r.unit} | – | – | ≤ ${r.target} ${r.unit} | ${ok ? 'PASS' : 'MISS'} |`;
    }
    let verdict = Number.isFinite(r.target) ? (r.ratio <= r.target ? 'PASS' : 'MISS') : 'info';
    if (r.noisy) verdict += ` (unreliable: other load ${r.noisy.toFixed(0)}% of a core; re-run on a quiet machine)`;
    return `| ${r.what} | ${f1(r.sy)} ${r.unit} | ${f1(r.min)} ${r.unit} | ${f2(r.ratio)}x | ${Number.isFinite(r.target) ? `≤ ${r.target}x` : '–'} | ${verdict} |`;
  });
}

/** --profile: V8 CPU profile of a relay process, written when it exits (bench/profiles/<name>-<modes>.cpuprofile). */
function profileArgs(name) {
  if (!args.profile) return [];
  const dir = path.join(BENCH, 'profiles');
  fs.mkdirSync(dir, { recursive: true });
  return ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${name}-${MODES.join('+')}${args['cpu-only'] ? '-c50' : ''}.cpuprofile`];
}

// ---------------------------------------------------------------------------------------------- main
async function main() {
  const mach = machine();
  log(`machine: ${mach.nproc} cores, ${mach.cpuModel}, node ${mach.node}, load average ${loadStart}`);
  if (!PINNED) log(`WARNING: ${pinNote}`);
  makeTmpDir();

  const mock = startChild('mock', [path.join(BENCH, 'mock-upstream.mjs'), '--host', HOST, '--port', '0', '--first-delay-ms', String(Number(args['first-delay-ms']) || 0)], { cpu: 1 });
  const mockPort = await listeningPort(mock);
  const mockUrl = `http://${HOST}:${mockPort}`;
  log(`mock upstream on ${mockUrl} (pid ${mock.child.pid})`);

  const targets = [{ name: 'direct', url: mockUrl, key: UPSTREAM_KEY, pid: mock.child.pid, pidIsMock: true }];

  if (TARGETS.includes('minimal')) {
    const minimal = startChild('minimal', [...profileArgs('minimal'), path.join(BENCH, 'minimal-relay.mjs'), '--host', HOST, '--port', '0', '--upstream', mockUrl], { cpu: 0 });
    const port = await listeningPort(minimal);
    targets.push({ name: 'minimal', url: `http://${HOST}:${port}`, key: UPSTREAM_KEY, pid: minimal.child.pid });
    log(`minimal relay on port ${port} (pid ${minimal.child.pid})`);
  }

  let switchyardProblem = '';
  if (TARGETS.includes('switchyard')) {
    const nodeArgs = [...profileArgs('switchyard'), ...args['server-node-flags'].split(' ').filter(Boolean)];
    let logFile = '';
    try {
      const started = await startSwitchyard(MAIN_JS, { nodeArgs, env: args['server-node-options'] ? { NODE_OPTIONS: args['server-node-options'] } : {} });
      logFile = started.logFile;
      const { base, entry: sy } = started;
      log(`switchyard on ${base} (pid ${sy.child.pid})`);
      const { key } = await setupSwitchyard(base, mockUrl);
      const target = { name: 'switchyard', url: base, key, pid: sy.child.pid };
      // The new channel reaches the routing table through the bus: wait (bounded) until a call goes through.
      let problem = 'not tried';
      for (let i = 0; i < 50 && problem; i++) {
        problem = await verify(target, 'nonstream');
        if (problem) await sleep(200);
      }
      if (problem) throw new Error(`a call through Switchyard does not work: ${problem}`);
      targets.push(target);
    } catch (err) {
      if (!err.channelApiMissing && logFile) console.error(`--- tail of the Switchyard log:\n${logTail(logFile)}`);
      switchyardProblem = err.message;
      log(`SWITCHYARD NOT MEASURED: ${err.message}`);
    }
  }

  const results = [];
  const memNotes = [];
  const measured = targets.filter((t) => TARGETS.includes(t.name));
  for (const target of measured) {
    for (const mode of MODES) {
      results.push(await measure(target, mode));
    }
  }
  // Every target has now run under load (warm); sequential latency next, all targets interleaved.
  if (!args['cpu-only']) for (const mode of MODES) await measureLatency(measured, mode, results);
  // The mock shares core 1 with the load generator: it is no server under test, so no CPU figures for it.
  const relays = measured.filter((t) => t.pid && !t.pidIsMock);
  if (relays.length) for (const mode of MODES) await measureCpu(relays, mode, results);
  for (const target of measured) {
    if (target.pid && !target.pidIsMock) {
      const hwm = memKB(target.pid, 'VmHWM') / 1024;
      for (const r of results) if (r.target === target.name) r.peakMB = Math.max(hwm, r.rssMaxMB ?? 0);
      const d = peakDetail.get(target.pid);
      memNotes.push(`${target.name}: VmHWM ${hwm.toFixed(0)} MB; ${d ? d.text : 'no sample'}; at the end VmRSS ${(memKB(target.pid, 'VmRSS') / 1024).toFixed(0)} MB`);
    }
  }

  // Direct figures are the baseline for "added" (absent under --only without direct).
  const direct = {};
  for (const r of results) if (r.target === 'direct') direct[r.mode] = r;
  const tbl = table(results, direct);
  const rs = ratios(results, direct);

  console.log('\n' + textTable(tbl) + '\n');
  if (rs.length) {
    console.log('Switchyard vs the minimal relay:');
    for (const r of ratioLines(rs)) console.log('  ' + r.replace(/^\| | \|$/g, '').replaceAll(' | ', '  |  '));
  }
  if (memNotes.length) console.log(`\nMemory: ${memNotes.join('\n        ')}`);
  if (switchyardProblem) console.log(`\nSwitchyard not measured: ${switchyardProblem}`);
  if (!PINNED) console.log(`\nNOTE: ${pinNote}`);

  const elapsed = (Date.now() - startedAt) / 1000;
  if (WRITE_RESULTS) {
    const md = renderMarkdown(mach, tbl, rs, results, switchyardProblem, elapsed, memNotes);
    writeResults(md);
    log(`wrote bench/RESULTS.md (${elapsed.toFixed(0)} s in all)`);
  } else {
    log(`done in ${elapsed.toFixed(0)} s (not written to RESULTS.md: --quick, --only or --profile)`);
  }
  return switchyardProblem ? 1 : 0;
}

function renderMarkdown(mach, tbl, rs, results, switchyardProblem, elapsed, memNotes) {
  const cpuRuns = results
    .filter((r) => r.cpu)
    .map((r) => `${r.target} ${r.mode}: ${r.cpu.all.map((v) => v.toFixed(0)).join(' / ')} µs`)
    .join('; ');
  return `# Relay benchmark results

Generated by \`node bench/run.mjs\` (\`npm run bench\`) on ${new Date().toISOString()}; the run took ${elapsed.toFixed(0)} s.
Overwritten by every full run.

## Machine

- cores (nproc): ${mach.nproc}
- CPU: ${mach.cpuModel}
- memory: ${mach.memGB} GiB, kernel ${mach.kernel}
- node: ${mach.node}
- pinning: ${pinNote}

## Method

- **Upstream**: \`bench/mock-upstream.mjs\` (node:http, keep-alive). Non-stream: one JSON chat completion with usage.
  Stream: SSE, 20 small content chunks, a usage chunk (the client asks for \`stream_options.include_usage\`), \`[DONE]\`,
  written back-to-back with no delay. Every target gets the same request bytes and returns the same answer bytes.
- **Targets**: *direct* = the mock itself; *minimal* = \`bench/minimal-relay.mjs\`, a plain node:http server piping
  each request to the mock over a keep-alive \`http.Agent\` (the floor for "a Node process in the path");
  *switchyard* = the server as \`npm start\` runs it (\`${START.text}\`; SQLite in a temp dir, LOG_LEVEL=warn), set up through its console API
  (login as root, an unlimited token, one OpenAI channel pointing at the mock): token auth, pricing, batched
  settlement and consume logs are all on, as in production. The quota reservation is skipped, as in production for
  a balance over 100 times the call's estimate (root's); a caller near its limit also pays one small write
  transaction per call before going upstream.
- **Throughput and latency**: autocannon, ${CFG.warmupS} s warm-up then ${CFG.durationS} s measured, at 1 and
  ${CFG.highConnections} connections (pipelining 1). autocannon's latency histogram has 1 ms resolution, so the c=1
  percentiles are coarse; the added-latency figures come from the sequential run below.
- **Sequential latency / TTFB**: after every target has run under load (so all are warm), undici on one keep-alive
  connection, ${CFG.seqRounds} interleaved rounds: each round times ${CFG.seqWarmup} warm-up then
  ${Math.ceil(CFG.seqCount / CFG.seqRounds)} sequential calls (bounded to ${CFG.seqMaxMs / 1000} s) on each target back
  to back, in a turning order, with \`process.hrtime\`: total time and time from the start of the request to the first
  body chunk. *Added* = target p50 − direct p50 (the table: all rounds pooled); the verdict uses the median over
  rounds of Switchyard's added p50 divided by the minimal relay's, each round's figures taken seconds apart.
- **CPU per request**: utime+stime of the process under test from \`/proc/<pid>/stat\` (CLK_TCK=${CLK_TCK}) around a
  fixed-count autocannon run at c=${CFG.highConnections} (${CFG.cpuCount.nonstream} non-stream /
  ${CFG.cpuCount.stream} stream calls; 300 ms before and after so batched settlement lands inside the window),
  divided by the calls answered. ${CFG.cpuReps} rounds, interleaved: each round measures the minimal relay and
  Switchyard back to back (alternating which goes first), so a slow spell of this shared machine falls on both.
  The table shows each relay's minimum (interference only adds CPU time) and median; the target verdict uses the
  median of the per-round ratios. Each round: ${cpuRuns}.
- **Peak RSS**: VmHWM from \`/proc/<pid>/status\` after all load on that process (also sampled VmRSS every 200 ms).
- **Other load %**: CPU used during that row's measurements by processes that are not part of this benchmark
  (busy time from \`/proc/stat\` minus this script's and its children's), in % of one core. Anything well above
  a few % means the machine was shared and latency/throughput figures are disturbed; CPU per request is the
  figure least affected. Load average at start: ${loadStart}; at end: ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}.
- Everything on 127.0.0.1. The server under test and the minimal relay run on core 0; the load generator and the mock
  share core 1, so *direct* figures at c=50 are bounded by that core, not by the mock alone.

## Results

${markdownTable(tbl)}

Memory (Anon = heap and native allocations, File = mapped code and files, Shmem = shared memory):
${memNotes.map((m) => `- ${m}`).join('\n')}

${switchyardProblem ? `**Switchyard was not measured**: ${switchyardProblem}\n` : ''}
## Switchyard vs the minimal relay (targets)

| measure | Switchyard | minimal | ratio | target | verdict |
| --- | --- | --- | --- | --- | --- |
${ratioLines(rs).join('\n')}
`;
}

runBench(main);
