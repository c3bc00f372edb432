// CPU per call of several server builds side by side, against the minimal relay, in one run (A/B experiments):
//   node bench/ab.mjs BUILD [BUILD...] [--rounds 7] [--count 8000] [--mode nonstream|stream] [--strace] [--perf]
// BUILD is a server's main.js, optionally with environment settings after semicolons
// ("server/dist/main.js;SETTLEMENT_JOURNAL_DIR=/dev/shm/j"). Every build gets its own Switchyard on core 0 (one
// process, SQLite), the mock upstream and this script share core 1; each round measures every target in turn
// (the order turning), so a slow spell of the machine falls on all of them. Prints each target's median and the
// median of its per-round ratio to the minimal relay. --strace counts system calls (strace -c, /tmp/w/strace-*),
// --perf records the first round with perf (cpu-clock). Writes nothing to RESULTS.md.
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawn } from 'node:child_process';
import autocannon from 'autocannon';
import { BENCH, CHAT_BODIES, CHAT_PATH, CLK_TCK, HOST, UPSTREAM_KEY, cpuTicks, listeningPort, makeTmpDir, pinSelf, setupSwitchyard, startChild, startSwitchyard, cleanup } from './lib/harness.mjs';
import os from 'node:os';
const argv = process.argv.slice(2);
const opt = (n, d) => { const i = argv.indexOf(n); if (i < 0) return d; const v = argv[i + 1]; argv.splice(i, 2); return v; };
const ROUNDS = Number(opt('--rounds', 7)); const COUNT = Number(opt('--count', 8000)); const MODE = opt('--mode', 'nonstream');
const STRACE = argv.includes('--strace'); const PERF = argv.includes('--perf'); const mains = argv.filter((a) => !a.startsWith('--'));
pinSelf();
makeTmpDir();
const OUT = os.tmpdir();
const BODY = CHAT_BODIES[MODE];
if (!BODY) throw new Error(`unknown mode ${MODE} (nonstream, stream)`);
const mock = startChild('mock', [path.join(BENCH, 'mock-upstream.mjs'), '--host', HOST, '--port', '0'], { cpu: 1 });
const mockUrl = `http://${HOST}:${await listeningPort(mock)}`;
const minimal = startChild('minimal', [path.join(BENCH, 'minimal-relay.mjs'), '--host', HOST, '--port', '0', '--upstream', mockUrl], { cpu: 0 });
const targets = [{ name: 'minimal', url: `http://${HOST}:${await listeningPort(minimal)}`, key: UPSTREAM_KEY, pid: minimal.child.pid }];
let n = 0;
for (const spec of mains) {
  const [m, ...envs] = spec.split(';');
  const env = Object.fromEntries(envs.map((e) => e.split('=')));
  const s = await startSwitchyard(path.resolve(m), { name: `sy${n++}`, env });
  const { key } = await setupSwitchyard(s.base, mockUrl);
  targets.push({ name: path.basename(m) + (envs.length ? '+' + envs.join(',').slice(-20) : ''), url: s.base, key, pid: s.entry.child.pid });
}
await sleep(1500);
const cannon = (t, amount) => new Promise((res, rej) => autocannon({ url: t.url + CHAT_PATH, method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${t.key}` }, body: BODY, connections: 50, amount, timeout: 10 }, (e, r) => (e ? rej(e) : res(r))));
for (const t of targets) { const r = await cannon(t, 3000); if (r.non2xx) throw new Error(`${t.name} non2xx ${r.non2xx}`); }
const per = new Map(targets.map((t) => [t.name, []]));
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 ? [...targets].reverse() : targets;
  for (const t of order) {
    let st;
    if (STRACE) { st = spawn('strace', ['-c', '-f', '-p', String(t.pid), '-o', path.join(OUT, `strace-${t.name}.txt`)]); await sleep(500); }
    if (PERF && r === 0 && t.name !== 'minimal') { st = spawn('perf', ['record', '-e', 'cpu-clock', '-F', '1999', '-g', '-p', String(t.pid), '-o', path.join(OUT, `perf-${t.name}.data`)], { stdio: 'ignore' }); await sleep(500); }
    const c0 = cpuTicks(t.pid); await sleep(300);
    const res = await cannon(t, COUNT); await sleep(300);
    const c1 = cpuTicks(t.pid);
    if (st) { st.kill('SIGINT'); await sleep(500); }
    per.get(t.name).push(((c1 - c0) / CLK_TCK) * 1e6 / res.requests.total);
  }
}
const med = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
const base = per.get('minimal');
for (const t of targets) {
  const v = per.get(t.name);
  const ratios = v.map((x, i) => x / base[i]);
  console.log(`${t.name.padEnd(28)} median ${med(v).toFixed(1)} µs  min ${Math.min(...v).toFixed(1)}  paired ratio median ${med(ratios).toFixed(3)}  [${v.map((x) => x.toFixed(0)).join(' ')}]`);
}
await cleanup();
// autocannon's agents and the children's pipes keep the loop alive after the children are gone.
process.exit(0);
