// What the benchmarks share: the machine, child processes (pinned to cores), /proc readings, the console API and
// Switchyard's start and setup.
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import readline from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { startCommand as readStartCommand } from '../../scripts/start-command.mjs';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const BENCH = path.join(ROOT, 'bench');
export const HOST = '127.0.0.1';
export const MODEL = 'gpt-4o-mini';
export const UPSTREAM_KEY = 'sk-bench-upstream-key';
/** The chat call every relay benchmark sends, whole and streamed (with usage asked for). */
export const CHAT_PATH = '/v1/chat/completions';
export const CHAT_BODIES = {
  nonstream: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Say hello in one short sentence.' }], max_tokens: 64 }),
  stream: JSON.stringify({
    model: MODEL,
    messages: [{ role: 'user', content: 'Say hello in one short sentence.' }],
    max_tokens: 64,
    stream: true,
    stream_options: { include_usage: true },
  }),
};

/** How `npm start` runs the server: the benchmark starts Switchyard the same way, so it measures what is shipped. */
export function startCommand() {
  const start = readStartCommand();
  if (!start) fail("cannot read how package.json's start script runs the server");
  return start;
}

export function fail(message) {
  console.error(`bench: ${message}`);
  process.exit(1);
}

export function which(cmd) {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}
export const NPROC = os.availableParallelism?.() ?? os.cpus().length;
export const HAVE_TASKSET = which('taskset');
export const PINNED = HAVE_TASKSET && NPROC >= 2;
export const pinNote = !HAVE_TASKSET
  ? 'taskset not found: every process ran unpinned, sharing all cores.'
  : NPROC < 2
    ? 'fewer than 2 cores: every process ran unpinned.'
    : 'server under test and minimal relay pinned to core 0 (taskset -c 0); load generator (this script) and mock upstream pinned to core 1 (taskset -c 1).';
/** Pins this process (the load generator) to core 1, next to the mock upstream. */
export function pinSelf() {
  if (PINNED) execFileSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
}
export const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

export function machine() {
  let cpuModel = 'unknown';
  try {
    const m = fs.readFileSync('/proc/cpuinfo', 'utf8').match(/^model name\s*:\s*(.+)$/m);
    if (m) cpuModel = m[1].trim();
  } catch {
    /* not fatal */
  }
  return { nproc: NPROC, cpuModel, node: process.version, kernel: os.release(), memGB: (os.totalmem() / 2 ** 30).toFixed(1) };
}

// ---------------------------------------------------------------------------------------------- child processes
export const children = [];
/** A scratch directory removed by cleanup(). */
export let tmpDir = '';
export function makeTmpDir() {
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-bench-'));
  return tmpDir;
}

export function startChild(name, nodeArgs, { cpu, env = {}, logFile } = {}) {
  // cpu null: not pinned (a node's workers spread over every core).
  const pin = PINNED && cpu !== null;
  const cmd = pin ? 'taskset' : process.execPath;
  const argv = pin ? ['-c', String(cpu), process.execPath, ...nodeArgs] : nodeArgs;
  const child = spawn(cmd, argv, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const entry = { name, child, exited: false, logFile };
  child.on('exit', (code, signal) => {
    entry.exited = true;
    entry.exit = { code, signal };
  });
  if (logFile) {
    const out = fs.createWriteStream(logFile);
    child.stdout.pipe(out);
    child.stderr.pipe(out);
  } else {
    child.stderr.on('data', (d) => process.stderr.write(`[${name}] ${d}`));
  }
  children.push(entry);
  return entry;
}

/** Waits for the child's {"listening": port} line (bounded). */
export function listeningPort(entry, timeoutMs = 10_000) {
  return new Promise((resolve, reject) => {
    const rl = readline.createInterface({ input: entry.child.stdout });
    const timer = setTimeout(() => reject(new Error(`${entry.name} did not start within ${timeoutMs} ms`)), timeoutMs);
    entry.child.once('exit', () => reject(new Error(`${entry.name} exited before listening`)));
    rl.on('line', (line) => {
      try {
        const msg = JSON.parse(line);
        if (typeof msg.listening === 'number') {
          clearTimeout(timer);
          rl.close();
          entry.child.stdout.resume();
          resolve(msg.listening);
        }
      } catch {
        /* other output */
      }
    });
  });
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, HOST, () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

let cleaningUp = null;
export async function cleanup() {
  if (cleaningUp) return cleaningUp;
  cleaningUp = (async () => {
    for (const e of children) if (!e.exited) e.child.kill('SIGTERM');
    // Switchyard drains and flushes on SIGTERM (and writes its CPU profile); give everything a bounded time.
    for (let i = 0; i < 100 && children.some((e) => !e.exited); i++) await sleep(100);
    for (const e of children) if (!e.exited) e.child.kill('SIGKILL');
    for (let i = 0; i < 20 && children.some((e) => !e.exited); i++) await sleep(50);
    if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
  })();
  return cleaningUp;
}
/**
 * Runs a benchmark's main (which resolves to the exit code), then stops every child and exits with that code; a
 * failure is printed and exits 1. `afterRun` runs before the cleanup of a run that finished.
 */
export function runBench(main, afterRun = () => {}) {
  main()
    .then(async (code) => {
      afterRun();
      await cleanup();
      process.exit(code);
    })
    .catch(async (err) => {
      console.error(`bench: ${err.stack ?? err}`);
      await cleanup();
      process.exit(1);
    });
}

/** Stops every child on exit, on signals and when the run exceeds `deadlineMs`. */
export function stopChildrenOnExit(deadlineMs) {
  process.on('exit', () => {
    for (const e of children) if (!e.exited) e.child.kill('SIGKILL');
  });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(sig, () => {
      console.error(`\nbench: ${sig}, stopping children`);
      void cleanup().finally(() => process.exit(130));
    });
  }
  const deadline = setTimeout(() => {
    console.error(`bench: the run exceeded ${deadlineMs / 60_000} minutes, aborting`);
    void cleanup().finally(() => process.exit(1));
  }, deadlineMs);
  deadline.unref();
}

// ---------------------------------------------------------------------------------------------- /proc readings
/** The process and its children (a node's primary and workers). */
export function processTree(pid) {
  try {
    return [pid, ...execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number)];
  } catch {
    return [pid];
  }
}

export function cpuTicks(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may contain spaces) start at the last ')'.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(rest[11]) + Number(rest[12]); // utime (14) + stime (15), counted from field 3
}
export function memKB(pid, field) {
  const m = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
  return m ? Number(m[1]) : NaN;
}

/** Busy jiffies of the whole machine (all cores) from /proc/stat. */
export function machineBusyTicks() {
  const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal
  return f[0] + f[1] + f[2] + f[5] + f[6] + (f[7] ?? 0);
}
export function ourTicks() {
  let t = Math.round(((process.cpuUsage().user + process.cpuUsage().system) / 1e6) * CLK_TCK);
  for (const e of children) {
    if (e.exited) continue;
    try {
      t += cpuTicks(e.child.pid);
    } catch {
      /* gone */
    }
  }
  return t;
}
/** CPU used by processes other than this benchmark's, as a % of one core, over a window. */
export function foreignLoadMeter() {
  const b0 = machineBusyTicks();
  const o0 = ourTicks();
  const t0 = Date.now();
  return () => {
    const busy = machineBusyTicks() - b0;
    const ours = ourTicks() - o0;
    const wallTicks = ((Date.now() - t0) / 1000) * CLK_TCK;
    return wallTicks > 0 ? Math.max(0, ((busy - ours) / wallTicks) * 100) : 0;
  };
}

// ---------------------------------------------------------------------------------------------- HTTP helpers
export async function api(base, session, method, url, body) {
  const headers = { 'content-type': 'application/json' };
  if (session) Object.assign(headers, session.headers);
  const res = await request(base + url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), headersTimeout: 10_000, bodyTimeout: 10_000 });
  const text = await res.body.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.statusCode, headers: res.headers, json, text };
}

export async function waitHttp(base, url, entry, timeoutMs) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (entry.exited) throw new Error(`${entry.name} exited (${JSON.stringify(entry.exit)}); see its log`);
    try {
      const r = await api(base, null, 'GET', url);
      if (r.status === 200) return;
    } catch {
      /* not yet */
    }
    await sleep(100);
  }
  throw new Error(`${entry.name} did not answer ${url} within ${timeoutMs} ms`);
}

// ---------------------------------------------------------------------------------------------- Switchyard setup
export async function setupSwitchyard(base, mockUrl) {
  const login = await api(base, null, 'POST', '/api/user/login', { username: 'root', password: '123456' });
  if (!login.json?.success) throw new Error(`login failed: ${login.status} ${login.text.slice(0, 200)}`);
  const setCookie = login.headers['set-cookie'];
  const cookie = (Array.isArray(setCookie) ? setCookie : [setCookie])
    .filter(Boolean)
    .map((c) => c.split(';')[0])
    .join('; ');
  const session = { headers: { cookie, 'new-api-user': String(login.json.data.id) } };

  const tok = await api(base, session, 'POST', '/api/token/', { name: 'bench', unlimited_quota: true, remain_quota: 0, expired_time: -1 });
  if (!tok.json?.success) throw new Error(`token create failed: ${tok.status} ${tok.text.slice(0, 200)}`);
  const key = `sk-${tok.json.data.key}`;

  const ch = await api(base, session, 'POST', '/api/channel/', { type: 1, name: 'bench-mock', key: UPSTREAM_KEY, base_url: mockUrl, models: MODEL, group: 'default' });
  if (ch.status === 404) {
    const err = new Error('POST /api/channel/ answers 404: the channel admin API is not registered in this build (server/src/console/index.ts); rebuild once it is');
    err.channelApiMissing = true;
    throw err;
  }
  if (!ch.json?.success) throw new Error(`channel create failed: ${ch.status} ${ch.text.slice(0, 300)}`);
  return { key, session };
}

/**
 * Starts Switchyard (`mainJs`) as `npm start` does, on a fresh SQLite file in the scratch directory, pinned to core 0,
 * and waits for its status page. Its output goes to `switchyard.log` there.
 */
export async function startSwitchyard(mainJs, { nodeArgs = [], env = {}, name = 'switchyard', cpu = 0 } = {}) {
  const start = startCommand();
  const port = await freePort();
  const base = `http://${HOST}:${port}`;
  const logFile = path.join(tmpDir, `${name}.log`);
  const entry = startChild(name, [...start.flags, ...nodeArgs, mainJs], {
    cpu,
    logFile,
    env: {
      PORT: String(port),
      HOST,
      SQLITE_PATH: path.join(tmpDir, `${name}.db`),
      SQL_DSN: process.env.BENCH_SQL_DSN ?? '',
      REDIS_CONN_STRING: process.env.BENCH_REDIS ?? '',
      LOG_LEVEL: 'warn',
      SESSION_SECRET: 'bench-session-secret-bench-session-secret',
      ROOT_INITIAL_QUOTA: '10000000000',
      NODE_ENV: 'production',
      // One process: the CPU figures compare it with the one-process minimal relay (the default is one per core).
      WORKERS: '1',
      ...start.env,
      ...env,
    },
  });
  await waitHttp(base, '/api/status', entry, 30_000);
  return { base, entry, logFile };
}

/** The last lines of a child's log, for a failure report. */
export function logTail(logFile, lines = 30) {
  try {
    return fs.readFileSync(logFile, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

// ---------------------------------------------------------------------------------------------- RESULTS.md
// The main benchmark writes the file; other scenarios own a marked section of it, which the main one keeps.
const RESULTS = path.join(BENCH, 'RESULTS.md');
const SECTIONS = /<!-- section:([\w-]+) -->[\s\S]*?<!-- \/section:\1 -->\n?/g;

const readResults = () => (fs.existsSync(RESULTS) ? fs.readFileSync(RESULTS, 'utf8') : '');

/** Writes the main results, keeping the scenarios' sections. */
export function writeResults(markdown) {
  const kept = readResults().match(SECTIONS) ?? [];
  fs.writeFileSync(RESULTS, kept.length ? `${markdown.trimEnd()}\n\n${kept.join('\n')}` : markdown);
}

/** Writes (or replaces) one scenario's section of the results. */
export function writeResultsSection(name, markdown) {
  const block = `<!-- section:${name} -->\n${markdown.trim()}\n<!-- /section:${name} -->\n`;
  const current = readResults();
  const own = new RegExp(`<!-- section:${name} -->[\\s\\S]*?<!-- /section:${name} -->\\n?`);
  fs.writeFileSync(RESULTS, own.test(current) ? current.replace(own, block) : `${current.trimEnd()}\n\n${block}`);
}
