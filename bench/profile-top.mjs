// Summarizes a V8 .cpuprofile (from `node bench/run.mjs --profile`, written to bench/profiles/):
//   node bench/profile-top.mjs [file.cpuprofile] [--top 40] [--filter relay] [--from SECONDS]
// Prints self time and inclusive ("total") time per function, in % of all samples (idle excluded and shown apart),
// and the same aggregated per source file / package.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    top: { type: 'string', default: '40' },
    filter: { type: 'string', default: '' },
    // seconds after the profile's start before which samples are ignored (start-up and module loading)
    from: { type: 'string', default: '0' },
  },
});
const dir = path.resolve(import.meta.dirname, 'profiles');
let file = positionals[0];
if (!file) {
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')) : [];
  if (files.length === 0) {
    console.error('no profile given and none in bench/profiles/');
    process.exit(1);
  }
  files.sort((a, b) => fs.statSync(path.join(dir, b)).mtimeMs - fs.statSync(path.join(dir, a)).mtimeMs);
  file = path.join(dir, files[0]);
}
const prof = JSON.parse(fs.readFileSync(file, 'utf8'));
const TOP = Number(args.top) || 40;
const root = process.cwd();

const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

function short(url) {
  if (!url) return '';
  let u = url.replace(/^file:\/\//, '');
  const nm = u.lastIndexOf('node_modules/');
  if (nm >= 0) return u.slice(nm + 'node_modules/'.length);
  if (u.startsWith(root)) u = u.slice(root.length + 1);
  return u;
}
function keyOf(n) {
  const cf = n.callFrame;
  const name = cf.functionName || '(anonymous)';
  if (!cf.url) return name;
  return `${name}  ${short(cf.url)}:${cf.lineNumber + 1}`;
}
function fileOf(n) {
  const u = short(n.callFrame.url);
  if (!u) return n.callFrame.functionName || '(native)';
  if (u.startsWith('node:')) return u;
  if (!u.startsWith('server/') && !u.startsWith('packages/')) {
    // a package: its name (scoped or not)
    const parts = u.split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  return u;
}

/**
 * The layer a sample belongs to: walking up from the leaf, the first frame that is not Node's own code (node:*,
 * natives, builtins): a package, or a server source file. Node core work (sockets, streams, events) is so charged to
 * whoever asked for it. Async continuations start at the microtask that resumed them, so e.g. kysely's await
 * chains count as kysely.
 */
function layerOf(n) {
  for (let id = n.id; id !== undefined; id = parent.get(id)) {
    const m = byId.get(id);
    const u = short(m.callFrame.url);
    if (!u || u.startsWith('node:') || u.startsWith('wasm:')) continue;
    return fileOf(m);
  }
  return `node core: ${n.callFrame.functionName || '(native)'}`;
}
const layer = new Map();

// time per sample
const dts = prof.timeDeltas;
const fromUs = (Number(args.from) || 0) * 1e6;
let elapsedUs = 0;
const self = new Map();
const total = new Map();
const fileSelf = new Map();
const fileTotal = new Map();
let all = 0;
let idle = 0;
let gc = 0;
let program = 0;
for (let i = 0; i < prof.samples.length; i++) {
  const dt = dts[i + 1] ?? 0;
  elapsedUs += dts[i] ?? 0;
  if (elapsedUs < fromUs) continue;
  const n = byId.get(prof.samples[i]);
  const name = n.callFrame.functionName;
  if (name === '(idle)') {
    idle += dt;
    continue;
  }
  all += dt;
  if (name === '(garbage collector)') gc += dt;
  if (name === '(program)') program += dt;
  const k = keyOf(n);
  self.set(k, (self.get(k) ?? 0) + dt);
  const l = name === '(garbage collector)' || name === '(program)' ? name : layerOf(n);
  layer.set(l, (layer.get(l) ?? 0) + dt);
  const f = fileOf(n);
  fileSelf.set(f, (fileSelf.get(f) ?? 0) + dt);
  const seen = new Set();
  const seenF = new Set();
  for (let id = n.id; id !== undefined; id = parent.get(id)) {
    const m = byId.get(id);
    const mk = keyOf(m);
    if (!seen.has(mk)) {
      seen.add(mk);
      total.set(mk, (total.get(mk) ?? 0) + dt);
    }
    const mf = fileOf(m);
    if (!seenF.has(mf)) {
      seenF.add(mf);
      fileTotal.set(mf, (fileTotal.get(mf) ?? 0) + dt);
    }
  }
}
const pct = (v) => ((v / all) * 100).toFixed(1).padStart(5) + '%';
const filt = (k) => !args.filter || k.includes(args.filter);
console.log(`${path.relative(root, file)}: ${((all + idle) / 1e6).toFixed(1)} s sampled, busy ${(all / 1e6).toFixed(1)} s (idle ${(idle / 1e6).toFixed(1)} s); GC ${pct(gc)}, (program) ${pct(program)} of busy`);
console.log('\n== self time (of busy) ==');
for (const [k, v] of [...self].filter(([k]) => filt(k)).sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`${pct(v)}  ${k}`);
console.log('\n== inclusive time (of busy) ==');
for (const [k, v] of [...total].filter(([k]) => filt(k)).sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`${pct(v)}  ${k}`);
console.log('\n== self time per file / package ==');
for (const [k, v] of [...fileSelf].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${pct(v)}  ${k}`);
console.log('\n== inclusive time per file (server code) ==');
for (const [k, v] of [...fileTotal].filter(([k]) => k.startsWith('server/') || k.startsWith('packages/')).sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${pct(v)}  ${k}`);
console.log('\n== by layer (self time charged to the nearest package / server file up the stack) ==');
for (const [k, v] of [...layer].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${pct(v)}  ${k}`);
