// One worker against one worker per core, on SQLite and on PostgreSQL + Redis: does a node's throughput grow with
// its cores, and what does each call cost it?
//   node bench/workers.mjs [--pg postgres://root@127.0.0.1:5432/postgres] [--redis redis://127.0.0.1:6379]
//                          [--duration 10] [--connections 64]       (npm run bench:workers). After `npm run build`.
//
// For each database (SQLite, and PostgreSQL + Redis when --pg and --redis are given; a database of its own is created
// on the PostgreSQL server and dropped at the end) Switchyard starts as `npm start` runs it, once with WORKERS=1 and
// once with one worker per core, not pinned. autocannon (in this process) sends non-stream chat completions at
// --connections connections for --duration s after a warm-up, to the mock upstream through the node. Reported:
// requests per second, latency, errors, and CPU per call summed over the node's processes (primary and workers).
// The client and the mock share the machine's cores with the node: on 2 cores, the all-workers run leaves them less
// room than the one-worker run did, which bounds the measured ratio; the capacity line (cores over CPU per call) says
// what the node would serve with the cores to itself. Writes the "Workers" section of bench/RESULTS.md on a
// standard run (the defaults, with PostgreSQL and Redis).
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import autocannon from 'autocannon';
import pg from 'pg';
import {
  CLK_TCK, HOST, MODEL, NPROC, ROOT, BENCH, cleanup, cpuTicks, fail, listeningPort, machine, makeTmpDir, processTree, setupSwitchyard, startChild,
  startSwitchyard, stopChildrenOnExit, writeResultsSection,
} from './lib/harness.mjs';

const { values: args } = parseArgs({
  options: {
    pg: { type: 'string', default: '' },
    redis: { type: 'string', default: '' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '64' },
  },
});
const DURATION_S = Math.max(2, Number(args.duration) || 10);
const CONNECTIONS = Math.max(1, Number(args.connections) || 64);
const WRITE = DURATION_S === 10 && CONNECTIONS === 64 && Boolean(args.pg && args.redis);
const TARGET_RATIO = NPROC === 2 ? 1.7 : 0.85 * NPROC;
const MAIN_JS = path.join(ROOT, 'server/dist/main.js');
const startedAt = Date.now();
const log = (...a) => console.log(`[${((Date.now() - startedAt) / 1000).toFixed(1).padStart(5)}s]`, ...a);

if (!fs.existsSync(MAIN_JS)) fail('server/dist/main.js does not exist: run `npm run build` first.');
if (process.platform !== 'linux') fail('needs Linux (/proc for CPU figures)');
// Four node starts and runs of ~15 s each: a run still going after this has hung.
const RUN_DEADLINE_MS = 15 * 60_000;
stopChildrenOnExit(RUN_DEADLINE_MS);

const BODY = JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Say hello in one short sentence.' }], max_tokens: 64 });
const PATH = '/v1/chat/completions';

const treeTicks = (pids) => pids.reduce((n, p) => n + (cpuTicks(p) || 0), 0);

function cannon(url, key, durationS) {
  return new Promise((resolve, reject) => {
    const inst = autocannon(
      { url: url + PATH, method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: BODY, connections: CONNECTIONS, duration: durationS, timeout: 10 },
      (err, result) => (err ? reject(err) : resolve(result)),
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

async function measure(database, workers, mockUrl, env) {
  const name = `switchyard-${database.replace(/\W+/g, '-')}-${workers}w`;
  const { base, entry } = await startSwitchyard(MAIN_JS, { name, cpu: null, env: { WORKERS: String(workers), ...env } });
  try {
    const { key } = await setupSwitchyard(base, mockUrl);
    await firstCallThrough(base, key);
    const pids = processTree(entry.child.pid);
    if (pids.length !== (workers > 1 ? workers + 1 : 1)) throw new Error(`expected ${workers} workers, found processes ${pids.join(', ')}`);
    await cannon(base, key, 3);
    const before = treeTicks(pids);
    const r = await cannon(base, key, DURATION_S);
    const ticks = treeTicks(pids) - before;
    const row = {
      database,
      workers,
      rps: r.requests.total / r.duration,
      p50: r.latency.p50,
      p99: r.latency.p99,
      bad: r.errors + r.timeouts + r.non2xx,
      cpuMsPerCall: ((ticks / CLK_TCK) * 1000) / Math.max(1, r.requests.total),
    };
    log(`${database}, ${workers} worker(s): ${row.rps.toFixed(0)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, ${row.bad} errors, ${row.cpuMsPerCall.toFixed(3)} ms CPU per call`);
    return row;
  } finally {
    entry.child.kill('SIGTERM');
    if (!entry.exited) await once(entry.child, 'exit');
  }
}

async function main() {
  const mach = machine();
  log(`machine: ${mach.nproc} cores, ${mach.cpuModel}, node ${mach.node}`);
  makeTmpDir();
  const mock = startChild('mock', [path.join(BENCH, 'mock-upstream.mjs'), '--host', HOST, '--port', '0'], { cpu: null });
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
  for (const { database, open } of databases) {
    for (const workers of [1, NPROC]) {
      // A database of its own per run: the second start must not find the first one's channel and token.
      const db = await open();
      try {
        rows.push(await measure(database, workers, mockUrl, db.env));
      } finally {
        await db.drop();
      }
    }
  }

  const lines = [
    `## Workers (\`node bench/workers.mjs --pg … --redis …\`)`,
    '',
    `${new Date().toISOString().slice(0, 10)}, ${mach.nproc} cores (${mach.cpuModel}), node ${mach.node}. Non-stream chat completions at ${CONNECTIONS} connections for ${DURATION_S} s after a 3 s warm-up, through one node started as \`npm start\` runs it (not pinned); the client (autocannon) and the mock upstream run on the same cores. CPU per call is summed over the node's processes.`,
    '',
    '| database | workers | req/s | p50 ms | p99 ms | errors | CPU ms per call |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.database} | ${r.workers} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.bad} | ${r.cpuMsPerCall.toFixed(3)} |`),
    '',
  ];
  for (const { database } of databases) {
    const [one, all] = rows.filter((r) => r.database === database);
    const ratio = all.rps / one.rps;
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
