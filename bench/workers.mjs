// One worker against one worker per core, on SQLite and on PostgreSQL + Redis: does a node's throughput grow with
// its cores, and what does each call cost it?
//   node bench/workers.mjs [--pg postgres://root@127.0.0.1:5432/postgres] [--redis redis://127.0.0.1:6379]
//                          [--duration 5] [--rounds 5] [--connections 64] [--client wrk|autocannon]
//                          [--upstream lean|mock]
//                          (npm run bench:workers). After `npm run build`.
//
// For each database (SQLite, and PostgreSQL + Redis when --pg and --redis are given; a database of its own is created
// on the PostgreSQL server and dropped at the end) Switchyard starts as `npm start` runs it, once with WORKERS=1 and
// once with one worker per core, not pinned; both run side by side and are loaded in turn, --rounds times. The client
// sends non-stream chat completions at --connections connections for --duration s per run, to the upstream through
// the node. Reported: requests per second,
// latency, errors, and CPU per call summed over the node's processes (primary and workers).
// The client and the upstream share the machine's cores with the node, so every cycle they spend is one the node
// cannot: by default the client is wrk (C; `apt-get install wrk`, else autocannon in this process, several times
// dearer per call) and the upstream is bench/lean-upstream.mjs (raw TCP, one canned answer). The capacity line (cores
// over CPU per call) says what the node would serve with the cores to itself. Writes the "Workers" section of
// bench/RESULTS.md on a standard run (the defaults, with PostgreSQL and Redis).
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawn } from 'node:child_process';
import { request } from 'undici';
import autocannon from 'autocannon';
import pg from 'pg';
import {
  CLK_TCK, HOST, MODEL, NPROC, ROOT, BENCH, cleanup, cpuTicks, fail, listeningPort, machine, makeTmpDir, processTree, setupSwitchyard, startChild,
  startSwitchyard, stopChildrenOnExit, which, writeResultsSection,
} from './lib/harness.mjs';

const { values: args } = parseArgs({
  options: {
    pg: { type: 'string', default: '' },
    redis: { type: 'string', default: '' },
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '64' },
    client: { type: 'string', default: '' },
    upstream: { type: 'string', default: 'lean' },
  },
});
const HAVE_WRK = which('wrk');
const CLIENT = args.client || (HAVE_WRK ? 'wrk' : 'autocannon');
if (!['wrk', 'autocannon'].includes(CLIENT)) fail(`--client is wrk or autocannon, not ${CLIENT}`);
if (CLIENT === 'wrk' && !HAVE_WRK) fail('wrk is not installed (apt-get install wrk), or use --client autocannon');
if (!['lean', 'mock'].includes(args.upstream)) fail(`--upstream is lean or mock, not ${args.upstream}`);
const UPSTREAM_SCRIPT = args.upstream === 'lean' ? 'lean-upstream.mjs' : 'mock-upstream.mjs';
const DURATION_S = Math.max(2, Number(args.duration) || 5);
const ROUNDS = Math.max(1, Number(args.rounds) || 5);
const CONNECTIONS = Math.max(1, Number(args.connections) || 64);
const WRITE = DURATION_S === 5 && ROUNDS === 5 && CONNECTIONS === 64 && Boolean(args.pg && args.redis) && !args.client && args.upstream === 'lean';
const TARGET_RATIO = NPROC === 2 ? 1.7 : 0.85 * NPROC;
const MAIN_JS = path.join(ROOT, 'server/dist/main.js');
const startedAt = Date.now();
const log = (...a) => console.log(`[${((Date.now() - startedAt) / 1000).toFixed(1).padStart(5)}s]`, ...a);

if (!fs.existsSync(MAIN_JS)) fail('server/dist/main.js does not exist: run `npm run build` first.');
if (process.platform !== 'linux') fail('needs Linux (/proc for CPU figures)');
// Four node starts and 2 x 5 runs of ~5 s per database: a run still going after this has hung.
const RUN_DEADLINE_MS = 15 * 60_000;
stopChildrenOnExit(RUN_DEADLINE_MS);

const BODY = JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Say hello in one short sentence.' }], max_tokens: 64 });
const PATH = '/v1/chat/completions';

const treeTicks = (pids) => pids.reduce((n, p) => n + (cpuTicks(p) || 0), 0);

/** One load run: {total, durationS, p50, p99 (ms), bad (errors, timeouts and non-2xx answers)}. */
function load(url, key, durationS) {
  return CLIENT === 'wrk' ? wrk(url, key, durationS) : cannon(url, key, durationS);
}

function wrk(url, key, durationS) {
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', ['-t1', `-c${CONNECTIONS}`, `-d${durationS}s`, '--timeout', '10s', '-s', path.join(BENCH, 'lib/wrk-post.lua'), url + PATH], {
      env: { ...process.env, BENCH_BODY: BODY, BENCH_KEY: key },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (code !== 0 || !line) return reject(new Error(`wrk exited ${code}: ${out.slice(-300)}`));
      const r = JSON.parse(line);
      resolve({
        total: r.requests,
        durationS: r.duration_us / 1e6,
        p50: Math.round(r.p50_us / 100) / 10,
        p99: Math.round(r.p99_us / 100) / 10,
        bad: r.connect + r.read + r.write + r.status + r.timeout,
      });
    });
  });
}

function cannon(url, key, durationS) {
  return new Promise((resolve, reject) => {
    const inst = autocannon(
      { url: url + PATH, method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: BODY, connections: CONNECTIONS, duration: durationS, timeout: 10 },
      (err, r) =>
        err
          ? reject(err)
          : resolve({ total: r.requests.total, durationS: r.duration, p50: r.latency.p50, p99: r.latency.p99, bad: r.errors + r.timeouts + r.non2xx }),
    );
    const guard = setTimeout(() => inst.stop(), (durationS + 15) * 1000);
    inst.on('done', () => clearTimeout(guard));
  });
}

async function firstCallThrough(url, key) {
  let last = '';
  for (let i = 0; i < 50; i++) {
    const res = await request(url + PATH, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: BODY });
    const text = await res.body.text();
    if (res.statusCode === 200) return;
    last = `HTTP ${res.statusCode}: ${text.slice(0, 200)}`;
    await sleep(200);
  }
  throw new Error(`no call went through: ${last}`);
}

/** A database of its own on the PostgreSQL server, dropped by the returned function. */
async function scratchPostgres(serverUrl) {
  const name = `switchyard_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** A node with `workers` workers, set up and warmed: {workers, base, key, pids, stop}. */
async function startNode(database, workers, mockUrl, env) {
  const name = `switchyard-${database.replace(/\W+/g, '-')}-${workers}w`;
  const { base, entry } = await startSwitchyard(MAIN_JS, { name, cpu: null, env: { WORKERS: String(workers), ...env } });
  const stop = async () => {
    entry.child.kill('SIGTERM');
    if (!entry.exited) await once(entry.child, 'exit');
  };
  try {
    const { key } = await setupSwitchyard(base, mockUrl);
    await firstCallThrough(base, key);
    const pids = processTree(entry.child.pid);
    if (pids.length !== (workers > 1 ? workers + 1 : 1)) throw new Error(`expected ${workers} workers, found processes ${pids.join(', ')}`);
    await load(base, key, 3);
    return { workers, base, key, pids, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** One measured run through a node: throughput, latency, errors and CPU per call over its processes. */
async function run(node) {
  const before = treeTicks(node.pids);
  const r = await load(node.base, node.key, DURATION_S);
  const ticks = treeTicks(node.pids) - before;
  return { rps: r.total / r.durationS, p50: r.p50, p99: r.p99, bad: r.bad, cpuMsPerCall: ((ticks / CLK_TCK) * 1000) / Math.max(1, r.total) };
}

const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

/**
 * Both nodes run side by side (the idle one costs nothing) and are loaded in turn, ROUNDS times, alternating which
 * goes first, so a slow spell of a shared machine falls on both: the ratio is the median of the rounds' ratios.
 */
async function measure(database, open, mockUrl) {
  const dbs = [];
  const nodes = [];
  try {
    for (const workers of [1, NPROC]) {
      // A database of its own per node: the second must not find the first one's channel and token.
      const db = await open();
      dbs.push(db);
      nodes.push(await startNode(database, workers, mockUrl, db.env));
    }
    const runs = nodes.map(() => []);
    for (let i = 0; i < ROUNDS; i++) {
      const order = i % 2 === 0 ? [0, 1] : [1, 0];
      for (const n of order) runs[n].push(await run(nodes[n]));
      const [one, all] = [runs[0][i], runs[1][i]];
      log(`${database}, round ${i + 1}: 1 worker ${one.rps.toFixed(0)} req/s (${one.cpuMsPerCall.toFixed(3)} ms CPU per call), ${NPROC} workers ${all.rps.toFixed(0)} req/s (${all.cpuMsPerCall.toFixed(3)}): ${(all.rps / one.rps).toFixed(2)}x`);
    }
    const rows = nodes.map((node, n) => ({
      database,
      workers: node.workers,
      rps: median(runs[n].map((r) => r.rps)),
      p50: median(runs[n].map((r) => r.p50)),
      p99: median(runs[n].map((r) => r.p99)),
      bad: runs[n].reduce((sum, r) => sum + r.bad, 0),
      cpuMsPerCall: median(runs[n].map((r) => r.cpuMsPerCall)),
    }));
    const ratio = median(runs[1].map((r, i) => r.rps / runs[0][i].rps));
    return { rows, ratio };
  } finally {
    for (const node of nodes) await node.stop();
    for (const db of dbs) await db.drop();
  }
}

async function main() {
  const mach = machine();
  log(`machine: ${mach.nproc} cores, ${mach.cpuModel}, node ${mach.node}`);
  makeTmpDir();
  log(`client: ${CLIENT}; upstream: ${UPSTREAM_SCRIPT}`);
  const mock = startChild('upstream', [path.join(BENCH, UPSTREAM_SCRIPT), '--host', HOST, '--port', '0'], { cpu: null });
  const mockUrl = `http://${HOST}:${await listeningPort(mock)}`;

  const databases = [{ database: 'SQLite', open: async () => ({ env: {}, drop: async () => {} }) }];
  if (args.pg && args.redis) {
    databases.push({
      database: 'PostgreSQL + Redis',
      open: async () => {
        const scratch = await scratchPostgres(args.pg);
        return { env: { SQL_DSN: scratch.url, REDIS_CONN_STRING: args.redis }, drop: scratch.drop };
      },
    });
  }
  const rows = [];
  const ratios = new Map();
  for (const { database, open } of databases) {
    const measured = await measure(database, open, mockUrl);
    rows.push(...measured.rows);
    ratios.set(database, measured.ratio);
  }

  const lines = [
    `## Workers (\`node bench/workers.mjs --pg … --redis …\`)`,
    '',
    `${new Date().toISOString().slice(0, 10)}, ${mach.nproc} cores (${mach.cpuModel}), node ${mach.node}. Non-stream chat completions at ${CONNECTIONS} connections for ${DURATION_S} s per run after a 3 s warm-up, ${ROUNDS} rounds, through nodes started as \`npm start\` runs them (not pinned), the one-worker and the all-workers node loaded in turn in each round; the client (${CLIENT === 'wrk' ? 'wrk, one thread' : 'autocannon'}) and the upstream (\`bench/${UPSTREAM_SCRIPT}\`) run on the same cores. CPU per call is summed over the node's processes. Figures are medians over the rounds; the ratio is the median of the rounds' ratios.`,
    '',
    '| database | workers | req/s | p50 ms | p99 ms | errors | CPU ms per call |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.database} | ${r.workers} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.bad} | ${r.cpuMsPerCall.toFixed(3)} |`),
    '',
  ];
  for (const { database } of databases) {
    const [one, all] = rows.filter((r) => r.database === database);
    const ratio = ratios.get(database);
    // What the node would serve with the cores to itself: each worker's core divided by the CPU a call costs.
    const capacity = (one.cpuMsPerCall * all.workers) / all.cpuMsPerCall;
    lines.push(
      `${ratio >= TARGET_RATIO ? 'PASS' : 'BELOW TARGET'}: ${database}, ${all.workers} workers ${ratio.toFixed(2)}x the throughput of one (target ≥ ${TARGET_RATIO}x); ` +
        `by CPU per call, ${all.workers} workers with the cores to themselves would serve ${capacity.toFixed(2)}x what one does with its core.`,
    );
  }
  const sqlite = rows.find((r) => r.database === 'SQLite' && r.workers === NPROC);
  const pgRow = rows.find((r) => r.database !== 'SQLite' && r.workers === NPROC);
  if (sqlite && pgRow) lines.push(`PostgreSQL + Redis against SQLite, ${NPROC} workers: ${(pgRow.rps / sqlite.rps).toFixed(2)}x the throughput, ${(pgRow.cpuMsPerCall / sqlite.cpuMsPerCall).toFixed(2)}x the CPU per call.`);
  console.log(`\n${lines.join('\n')}`);
  if (WRITE) {
    writeResultsSection('workers', lines.join('\n'));
    log('written to bench/RESULTS.md');
  } else log('not written to bench/RESULTS.md (not a standard run)');
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => cleanup());
