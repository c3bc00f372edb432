// CPU per call on the converted paths against the passthrough path, in the same run.
//   node bench/converted.mjs [--quick] [--only PATH] [--profile]   (npm run bench:converted; after `npm run build`)
// (--only: passthrough and that path; --profile: Switchyard runs with --cpu-prof into bench/profiles/. Neither writes.)
//
// One Switchyard process (pinned to core 0, as `npm start` runs it) in front of the bench mock, which answers both
// OpenAI chat completions and Anthropic messages. Four paths, each non-stream and stream:
//   passthrough      OpenAI client  -> OpenAI channel  (the bytes go through untouched)
//   claude->openai   Claude client (/v1/messages)            -> OpenAI channel
//   openai->claude   OpenAI client                           -> Claude channel
//   gemini->openai   Gemini client (generateContent, SSE)    -> OpenAI channel
// Each is driven by autocannon at 50 connections for a fixed number of calls, in interleaved rounds; the CPU time
// Switchyard used in a round (/proc/<pid>/stat) over the calls answered is its CPU per call. Target: every converted
// path at most 1.5x the passthrough path (median of rounds). Writes the "Converted paths" section of
// bench/RESULTS.md on a standard run.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import {
  BENCH, CLK_TCK, HOST, MODEL, PINNED, ROOT, UPSTREAM_KEY, api, runBench, cpuTicks, fail, listeningPort, machine, makeTmpDir,
  pinNote, pinSelf, setupSwitchyard, startChild, startSwitchyard, stopChildrenOnExit, writeResultsSection,
} from './lib/harness.mjs';

const { values: args } = parseArgs({ options: { quick: { type: 'boolean', default: false }, only: { type: 'string', default: '' }, profile: { type: 'boolean', default: false } } });
const QUICK = args.quick;
const WRITE = !QUICK && !args.only && !args.profile;
const CALLS = QUICK ? 1500 : 5000;
const ROUNDS = QUICK ? 3 : 5;
const CLAUDE = 'claude-3-5-sonnet-20241022';
const LIMIT = 1.5;
const MAIN_JS = path.join(ROOT, 'server/dist/main.js');
const startedAt = Date.now();
const log = (...a) => console.log(`[${((Date.now() - startedAt) / 1000).toFixed(1).padStart(5)}s]`, ...a);

if (!fs.existsSync(MAIN_JS)) fail('server/dist/main.js does not exist: run `npm run build` first.');
pinSelf();
stopChildrenOnExit(15 * 60_000);

const hi = [{ role: 'user', content: 'Say hello.' }];
/** Each path: where the client calls, with what headers and body, per mode. */
const PATHS = [
  {
    name: 'passthrough',
    request: (key, stream) => ({ path: '/v1/chat/completions', headers: { authorization: `Bearer ${key}` }, body: { model: MODEL, messages: hi, max_tokens: 64, stream, ...(stream ? { stream_options: { include_usage: true } } : {}) } }),
  },
  {
    name: 'claude->openai',
    request: (key, stream) => ({ path: '/v1/messages', headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' }, body: { model: MODEL, messages: hi, max_tokens: 64, stream } }),
  },
  {
    name: 'openai->claude',
    request: (key, stream) => ({ path: '/v1/chat/completions', headers: { authorization: `Bearer ${key}` }, body: { model: CLAUDE, messages: hi, max_tokens: 64, stream, ...(stream ? { stream_options: { include_usage: true } } : {}) } }),
  },
  {
    name: 'gemini->openai',
    request: (key, stream) => ({
      path: stream ? `/v1beta/models/${MODEL}:streamGenerateContent?alt=sse` : `/v1beta/models/${MODEL}:generateContent`,
      headers: { 'x-goog-api-key': key },
      body: { contents: [{ role: 'user', parts: [{ text: 'Say hello.' }] }], generationConfig: { maxOutputTokens: 64 } },
    }),
  },
];

async function round(base, pid, key, p, stream, amount) {
  const { path: url, headers, body } = p.request(key, stream);
  await sleep(300); // earlier calls' batched settlement lands before the window opens
  const before = cpuTicks(pid);
  const r = await autocannon({ url: `${base}${url}`, method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body), connections: 50, amount });
  await sleep(300); // ... and this window's inside it
  const ticks = cpuTicks(pid) - before;
  const bad = r.errors + r.timeouts + r.non2xx;
  if (bad > 0) throw new Error(`${p.name} (${stream ? 'stream' : 'non-stream'}): ${bad} of ${r.requests.total} calls failed`);
  return ((ticks / CLK_TCK) * 1e6) / r.requests.total;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const mach = machine();
  log(`machine: ${mach.nproc} cores, ${mach.cpuModel}, node ${mach.node}; ${ROUNDS} rounds x ${CALLS} calls per path and mode`);
  if (!PINNED) log(`WARNING: ${pinNote}`);
  makeTmpDir();
  const mock = startChild('mock', [path.join(BENCH, 'mock-upstream.mjs'), '--host', HOST, '--port', '0'], { cpu: 1 });
  const mockUrl = `http://${HOST}:${await listeningPort(mock)}`;
  const nodeArgs = args.profile ? ['--cpu-prof', '--cpu-prof-dir', path.join(BENCH, 'profiles')] : [];
  const sy = await startSwitchyard(MAIN_JS, { name: 'switchyard', nodeArgs });
  const { key, session } = await setupSwitchyard(sy.base, mockUrl);
  const claude = await api(sy.base, session, 'POST', '/api/channel/', { type: 14, name: 'bench-claude', key: UPSTREAM_KEY, base_url: mockUrl, models: CLAUDE, group: 'default' });
  if (!claude.json?.success) throw new Error(`Claude channel: ${claude.text.slice(0, 200)}`);
  await sleep(500);
  const pid = sy.entry.child.pid;

  const paths = args.only ? PATHS.filter((p) => p.name === 'passthrough' || p.name === args.only) : PATHS;
  if (paths.length < 2 && args.only) fail(`no path ${args.only} (known: ${PATHS.map((p) => p.name).join(', ')})`);
  const rows = [];
  for (const stream of [false, true]) {
    const mode = stream ? 'stream' : 'non-stream';
    for (const p of paths) await round(sy.base, pid, key, p, stream, Math.min(CALLS, 1000)); // warm-up
    const runs = new Map(paths.map((p) => [p.name, []]));
    for (let i = 0; i < ROUNDS; i++) {
      const order = i % 2 === 0 ? paths : [...paths].reverse();
      for (const p of order) runs.get(p.name).push(await round(sy.base, pid, key, p, stream, CALLS));
    }
    const base = median(runs.get('passthrough'));
    for (const p of paths) {
      const us = median(runs.get(p.name));
      rows.push({ mode, path: p.name, us, min: Math.min(...runs.get(p.name)), ratio: us / base });
      log(`${mode} ${p.name}: ${us.toFixed(1)} µs per call (min ${Math.min(...runs.get(p.name)).toFixed(1)}), ${(us / base).toFixed(2)}x passthrough`);
    }
  }
  const failing = rows.filter((r) => r.path !== 'passthrough' && r.ratio > LIMIT);
  const verdict = failing.length
    ? `FAIL: above ${LIMIT}x the passthrough path: ${failing.map((r) => `${r.mode} ${r.path} ${r.ratio.toFixed(2)}x`).join(', ')}.`
    : `PASS: every converted path within ${LIMIT}x the passthrough path's CPU per call.`;
  console.log(verdict);
  if (WRITE) {
    const table = [
      '| mode | path | CPU µs per call (median) | min | vs passthrough | target |',
      '|---|---|---|---|---|---|',
      ...rows.map((r) => `| ${r.mode} | ${r.path} | ${r.us.toFixed(1)} | ${r.min.toFixed(1)} | ${r.ratio.toFixed(2)}x | ${r.path === 'passthrough' ? '–' : `≤ ${LIMIT}x`} |`),
    ].join('\n');
    writeResultsSection(
      'converted',
      [
        '## Converted paths (`npm run bench:converted`)',
        '',
        `${new Date().toISOString().slice(0, 10)}, ${mach.nproc} cores (${mach.cpuModel}), node ${mach.node}. One Switchyard process ${PINNED ? 'pinned to core 0 (client and mock on core 1)' : `(${pinNote})`}; ${ROUNDS} interleaved rounds of ${CALLS} calls at 50 connections per path and mode; CPU per call is Switchyard's CPU time over the calls answered (median of rounds). The answer is the same 20-word completion on every path.`,
        '',
        table,
        '',
        verdict,
      ].join('\n'),
    );
    log('wrote the converted-paths section of bench/RESULTS.md');
  }
  return failing.length ? 1 : 0;
}

runBench(main);
