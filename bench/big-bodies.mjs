// Big request bodies through the relay: what a 60 KB, 300 KB or 1 MB turn of a coding agent costs Switchyard,
// against the minimal relay piping the same bytes.
//   node bench/big-bodies.mjs [--quick] [--profile]   (npm run bench:big; after `npm run build`)
// (--quick: fewer calls and rounds; --profile: Switchyard runs with --cpu-prof into bench/profiles/, summarize with
//  bench/profile-top.mjs. Neither writes RESULTS.md.)
//
// Coding agents resend the whole conversation every turn: about 60 KB on the first (system prompt and tools) and
// 300 KB to 1 MB later (a long history of tool calls and their results), streamed back with thinking. The bodies
// come from bench/lib/coding-bodies.mjs (deterministic): Claude Messages bodies as Claude Code sends them and
// OpenAI Responses bodies as Codex sends them, each at ~60 KB, ~300 KB and ~1 MB. Three paths through one
// Switchyard process (pinned to core 0, as `npm start` runs it, default settings, the sensitive-word check on):
//   claude      Claude client (/v1/messages)     -> Claude channel (type 14), passthrough
//   responses   Responses client (/v1/responses) -> OpenAI channel (type 1), passthrough
//   converted   Claude client (/v1/messages)     -> OpenAI channel (type 1), converted to chat completions
// The floor is bench/minimal-relay.mjs (core 0) piping the same client bytes to the bench mock (core 1), which
// answers each in its own wire format: a short streamed answer after a short thought, with usage. For the converted
// path the floor is the minimal relay piping the Claude body (the same bytes but for the model name).
// Per body size, in paired interleaved rounds: CPU per call of Switchyard and of the floor (/proc/<pid>/stat, 4
// connections), added latency and added first byte against the mock called directly (sequential calls on one
// keep-alive connection), peak RSS (VmHWM, reset before each size); then peak RSS with 4 concurrent 1 MB turns, and
// the GC share of Switchyard's CPU in a separate short run with --trace-gc. Every call must be answered 200 with a
// well-formed stream (any other answer fails the run) and every call through Switchyard must be billed (consume
// logs). Verdicts against the targets are printed and written; a MISS does not fail the run.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Pool } from 'undici';
import {
  BENCH, CLK_TCK, HOST, PINNED, ROOT, UPSTREAM_KEY, api, runBench, cpuTicks, fail, foreignLoadMeter, listeningPort, logTail, machine,
  makeTmpDir, memKB, pinNote, pinSelf, setupSwitchyard, startChild, startCommand, startSwitchyard, stopChildrenOnExit, writeResultsSection,
} from './lib/harness.mjs';
import { CLAUDE_CODE_HEADERS, CODEX_HEADERS, claudeCodeBody, codexBody } from './lib/coding-bodies.mjs';

const { values: args } = parseArgs({ options: { quick: { type: 'boolean', default: false }, profile: { type: 'boolean', default: false } } });
const QUICK = args.quick;
const WRITE = !QUICK && !args.profile;
const MAIN_JS = path.join(ROOT, 'server/dist/main.js');
const CLAUDE_MODEL = 'claude-sonnet-4-5-20250929';
const CODEX_MODEL = 'gpt-5-codex';
/** The model a Claude client asks for when its calls go to the OpenAI channel (the converted path). */
const CONVERTED_MODEL = 'gpt-5';
const ROUNDS = QUICK ? 2 : 5;
const CONNECTIONS = 4;
const SEQ_WARMUP = 2;
const SETTLE_MS = 250; // before and after a CPU window: batched settlement (100 ms) lands inside it
/** Per size: calls per CPU window, sequential calls per target and round, calls per GC window. */
const SIZES = [
  { label: '60 KB', bytes: 60 * 1024, cpuCalls: QUICK ? 60 : 200, seqCalls: QUICK ? 8 : 30, gcCalls: QUICK ? 60 : 200 },
  { label: '300 KB', bytes: 300 * 1024, cpuCalls: QUICK ? 20 : 80, seqCalls: QUICK ? 4 : 14, gcCalls: QUICK ? 20 : 60 },
  { label: '1 MB', bytes: 1024 * 1024, cpuCalls: QUICK ? 10 : 40, seqCalls: QUICK ? 3 : 8, gcCalls: QUICK ? 8 : 24 },
];
/** The floor's windows have this many times the calls: it uses a fraction of Switchyard's CPU, and /proc counts in ticks. */
const FLOOR_CALLS = 2;
const MEMORY_BURSTS = QUICK ? 2 : 5; // bursts of 4 concurrent 1 MB turns per path
const TARGETS = { passthroughCpu: 3, convertedCpu: 6, passthroughTtfbMs: 3, convertedTtfbMs: 6, concurrentRssMB: 300 };
const startedAt = Date.now();
const log = (...a) => console.log(`[${((Date.now() - startedAt) / 1000).toFixed(1).padStart(5)}s]`, ...a);

if (!fs.existsSync(MAIN_JS)) fail('server/dist/main.js does not exist: run `npm run build` first.');
if (process.platform !== 'linux') fail('needs Linux (/proc for CPU and memory figures)');
pinSelf();
stopChildrenOnExit(12 * 60_000);

// ---------------------------------------------------------------------------------------------- answers
const ANSWER = 'Hello there, this is a small streamed answer from the bench mock upstream that never waits between chunks.';

function sseEvents(text) {
  const out = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    if (!block.trim()) continue;
    let event = '';
    let data = '';
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data += line.slice(5).trim();
    }
    let json = null;
    try {
      json = JSON.parse(data);
    } catch {
      return null;
    }
    out.push({ event: event || json?.type, json });
  }
  return out;
}

/** Why a Claude stream is not a whole answer (null when it is): events, the answer text, a thought, usage. */
function claudeProblem(events) {
  if (events[0]?.event !== 'message_start') return `starts with ${events[0]?.event}`;
  if (events.at(-1)?.event !== 'message_stop') return `ends with ${events.at(-1)?.event}`;
  const deltas = events.filter((e) => e.event === 'content_block_delta').map((e) => e.json.delta);
  const text = deltas.filter((d) => d?.type === 'text_delta').map((d) => d.text).join('');
  if (text !== ANSWER) return `answer text ${JSON.stringify(text.slice(0, 80))}`;
  if (!deltas.some((d) => d?.type === 'thinking_delta')) return 'no thinking';
  const usage = events.find((e) => e.event === 'message_delta')?.json.usage;
  if (!(usage?.output_tokens > 0)) return 'no usage in message_delta';
  return null;
}

function responsesProblem(events) {
  if (events[0]?.event !== 'response.created') return `starts with ${events[0]?.event}`;
  const last = events.at(-1);
  if (last?.event !== 'response.completed') return `ends with ${last?.event}`;
  const text = events.filter((e) => e.event === 'response.output_text.delta').map((e) => e.json.delta).join('');
  if (text !== ANSWER) return `answer text ${JSON.stringify(text.slice(0, 80))}`;
  if (!events.some((e) => e.event === 'response.reasoning_summary_text.delta')) return 'no reasoning summary';
  const usage = last.json.response?.usage;
  if (!(usage?.input_tokens > 0 && usage?.output_tokens > 0)) return 'no usage in response.completed';
  return null;
}

function streamProblem(kind, contentType, text) {
  if (!String(contentType).startsWith('text/event-stream')) return `content-type ${contentType}: ${text.slice(0, 200)}`;
  const events = sseEvents(text);
  if (!events) return `an event is not JSON: ${text.slice(0, 200)}`;
  return kind === 'claude' ? claudeProblem(events) : responsesProblem(events);
}

// ---------------------------------------------------------------------------------------------- calls
/** Calls made and refused (any refusal fails the run at the end of the load that saw it); each target counts its own. */
const tally = { calls: 0, bad: 0 };

/** One call: its problem (null when answered 200 with a whole stream), total time and time to the first body byte. */
async function call(dispatcher, lane, counted = true) {
  const t0 = process.hrtime.bigint();
  const res = await dispatcher.request({ path: lane.path, method: 'POST', headers: lane.headers, body: lane.body, headersTimeout: 60_000, bodyTimeout: 60_000 });
  let first = 0n;
  const parts = [];
  for await (const chunk of res.body) {
    if (!first && chunk.length > 0) first = process.hrtime.bigint();
    parts.push(chunk);
  }
  const t1 = process.hrtime.bigint();
  const text = Buffer.concat(parts).toString('utf8');
  const problem = res.statusCode !== 200 ? `HTTP ${res.statusCode}: ${text.slice(0, 300)}` : streamProblem(lane.kind, res.headers['content-type'], text);
  if (counted) {
    tally.calls++;
    if (problem) tally.bad++;
    else lane.target.ok++;
  }
  return { problem, totalUs: Number(t1 - t0) / 1000, ttfbUs: Number(first - t0) / 1000 };
}

function check(lane, problems, calls) {
  if (problems.length) throw new Error(`${lane.name}: ${problems.length} of ${calls} calls not answered 200 with a whole stream; first: ${problems[0]}`);
}

/** `calls` calls over `connections` keep-alive connections, each call's answer read whole and checked. */
async function load(lane, calls, connections = CONNECTIONS) {
  const pool = lane.target.pool;
  let next = 0;
  const problems = [];
  const worker = async () => {
    while (next < calls) {
      next++;
      const r = await call(pool, lane);
      if (r.problem) problems.push(r.problem);
    }
  };
  await Promise.all(Array.from({ length: Math.min(connections, calls) }, worker));
  check(lane, problems, calls);
}

/** Sequential calls on one keep-alive connection after a warm-up: p50 of total time and of time to first byte, µs. */
async function sequential(lane, count) {
  const client = new Client(lane.target.url, { pipelining: 1, keepAliveTimeout: 60_000 });
  const total = [];
  const ttfb = [];
  const problems = [];
  try {
    for (let i = 0; i < SEQ_WARMUP + count; i++) {
      const r = await call(client, lane);
      if (r.problem) problems.push(r.problem);
      if (i >= SEQ_WARMUP) {
        total.push(r.totalUs);
        ttfb.push(r.ttfbUs);
      }
    }
  } finally {
    await client.close();
  }
  check(lane, problems, SEQ_WARMUP + count);
  return { total: median(total), ttfb: median(ttfb) };
}

/** Switchyard's (or the floor's) CPU per call over a fixed count of calls, µs. */
async function cpuWindow(lane, calls) {
  const pid = lane.target.pid;
  await sleep(SETTLE_MS);
  const before = cpuTicks(pid);
  await load(lane, calls);
  await sleep(SETTLE_MS);
  return ((cpuTicks(pid) - before) / CLK_TCK) * 1e6 / calls;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Resets the process's VmHWM to its current RSS (clear_refs 5); false where the kernel does not allow it. */
function resetPeak(pid) {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------- setup
/** List prices of the models (ratio 1 = $2 per million input tokens), added to the built-in tables. */
const PRICES = {
  ModelRatio: { [CLAUDE_MODEL]: 1.5, [CODEX_MODEL]: 0.625, [CONVERTED_MODEL]: 0.625 },
  CompletionRatio: { [CLAUDE_MODEL]: 5, [CODEX_MODEL]: 8, [CONVERTED_MODEL]: 8 },
  CacheRatio: { [CLAUDE_MODEL]: 0.1, [CODEX_MODEL]: 0.1, [CONVERTED_MODEL]: 0.1 },
};

async function setPrices(base, session) {
  const list = await api(base, session, 'GET', '/api/option/');
  if (!list.json?.success) throw new Error(`options: ${list.status} ${list.text.slice(0, 200)}`);
  for (const [key, add] of Object.entries(PRICES)) {
    const raw = list.json.data.find((o) => o.key === key)?.value;
    const current = typeof raw === 'string' && raw ? JSON.parse(raw) : (raw ?? {});
    const r = await api(base, session, 'PUT', '/api/option/', { key, value: JSON.stringify({ ...current, ...add }) });
    if (!r.json?.success) throw new Error(`option ${key}: ${r.status} ${r.text.slice(0, 200)}`);
  }
}

async function setupGateway(sy, mockUrl) {
  const { key, session } = await setupSwitchyard(sy.base, mockUrl);
  await setPrices(sy.base, session);
  const channels = [
    { type: 1, name: 'bench-openai-big', key: UPSTREAM_KEY, base_url: mockUrl, models: `${CODEX_MODEL},${CONVERTED_MODEL}`, group: 'default' },
    { type: 14, name: 'bench-claude-big', key: UPSTREAM_KEY, base_url: mockUrl, models: CLAUDE_MODEL, group: 'default' },
  ];
  for (const c of channels) {
    const r = await api(sy.base, session, 'POST', '/api/channel/', c);
    if (!r.json?.success) throw new Error(`channel ${c.name}: ${r.status} ${r.text.slice(0, 200)}`);
  }
  return { key, session, target: { name: 'gateway', url: sy.base, key, pid: sy.entry.child.pid, ok: 0, pool: new Pool(sy.base, { connections: CONNECTIONS, pipelining: 1, keepAliveTimeout: 60_000 }) } };
}

/** The consume logs written so far. */
async function consumeLogs(base, session) {
  const r = await api(base, session, 'GET', '/api/log/?p=1&page_size=1&type=2');
  const total = r.json?.data?.total;
  if (typeof total !== 'number') throw new Error(`consume logs: ${r.status} ${r.text.slice(0, 200)}`);
  return total;
}

/** Waits (bounded) until every call Switchyard answered is billed; fails the run when some are not. */
async function checkBilled(gateway, session, what) {
  let billed = 0;
  for (let i = 0; i < 50; i++) {
    billed = await consumeLogs(gateway.url, session);
    if (billed >= gateway.ok) break;
    await sleep(200);
  }
  if (billed < gateway.ok) throw new Error(`${what}: ${gateway.ok} calls answered through Switchyard but ${billed} consume logs`);
  return billed;
}

/** The lanes of one body size: each path's client call against a target. */
function lanesFor(size, targets) {
  const claude = claudeCodeBody(size.bytes, { model: CLAUDE_MODEL }).body;
  const converted = claudeCodeBody(size.bytes, { model: CONVERTED_MODEL }).body;
  const codex = codexBody(size.bytes, { model: CODEX_MODEL });
  const claudeLane = (target, body, name) => ({
    name: `${name} ${size.label}`,
    kind: 'claude',
    target,
    path: '/v1/messages',
    headers: { ...CLAUDE_CODE_HEADERS, 'content-type': 'application/json', 'x-api-key': target.key },
    body,
  });
  const responsesLane = (target, name) => ({
    name: `${name} ${size.label}`,
    kind: 'responses',
    target,
    path: '/v1/responses',
    headers: { ...CODEX_HEADERS, 'content-type': 'application/json', authorization: `Bearer ${target.key}`, session_id: codex.json.prompt_cache_key },
    body: codex.body,
  });
  const { direct, floor, gateway } = targets;
  return {
    bytes: { claude: claude.length, converted: converted.length, responses: codex.body.length },
    directClaude: claudeLane(direct, claude, 'direct claude'),
    floorClaude: claudeLane(floor, claude, 'floor claude'),
    directResponses: responsesLane(direct, 'direct responses'),
    floorResponses: responsesLane(floor, 'floor responses'),
    claude: claudeLane(gateway, claude, 'claude'),
    responses: responsesLane(gateway, 'responses'),
    converted: claudeLane(gateway, converted, 'converted'),
  };
}

/** Each path: its Switchyard lane, the floor's lane and the direct lane it is compared with. */
const PATHS = [
  { id: 'claude', label: 'Claude → Claude channel (passthrough)', floor: 'floorClaude', direct: 'directClaude', cpuTarget: TARGETS.passthroughCpu, ttfbTarget: TARGETS.passthroughTtfbMs },
  { id: 'responses', label: 'Responses → OpenAI channel (passthrough)', floor: 'floorResponses', direct: 'directResponses', cpuTarget: TARGETS.passthroughCpu, ttfbTarget: TARGETS.passthroughTtfbMs },
  { id: 'converted', label: 'Claude → OpenAI channel (converted)', floor: 'floorClaude', direct: 'directClaude', cpuTarget: TARGETS.convertedCpu, ttfbTarget: TARGETS.convertedTtfbMs },
];

// ---------------------------------------------------------------------------------------------- one body size
async function measureSize(size, targets, peakResettable) {
  const lanes = lanesFor(size, targets);
  const { floor, gateway } = targets;
  log(`${size.label}: bodies ${lanes.bytes.claude} B (Claude), ${lanes.bytes.responses} B (Responses); ${ROUNDS} rounds x ${size.cpuCalls} calls per CPU window`);
  if (peakResettable) for (const t of [floor, gateway]) resetPeak(t.pid);
  const cpuLanes = ['floorClaude', 'claude', 'converted', 'floorResponses', 'responses'];
  for (const l of cpuLanes) await load(lanes[l], Math.max(CONNECTIONS, Math.ceil(size.cpuCalls / 4))); // warm-up
  const cpu = new Map(cpuLanes.map((l) => [l, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? cpuLanes : [...cpuLanes].reverse();
    for (const l of order) cpu.get(l).push(await cpuWindow(lanes[l], lanes[l].target === floor ? FLOOR_CALLS * size.cpuCalls : size.cpuCalls));
    log(`${size.label} CPU round ${round + 1}: ${cpuLanes.map((l) => `${l} ${cpu.get(l)[round].toFixed(0)}`).join(', ')} µs per call`);
  }
  const seqLanes = ['directClaude', 'floorClaude', 'claude', 'converted', 'directResponses', 'floorResponses', 'responses'];
  const seq = new Map(seqLanes.map((l) => [l, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = seqLanes.slice(round % seqLanes.length).concat(seqLanes.slice(0, round % seqLanes.length));
    for (const l of order) seq.get(l).push(await sequential(lanes[l], size.seqCalls));
  }
  const peakMB = { gateway: memKB(gateway.pid, 'VmHWM') / 1024, floor: memKB(floor.pid, 'VmHWM') / 1024 };

  const rows = PATHS.map((p) => {
    const gw = cpu.get(p.id);
    const fl = cpu.get(p.floor);
    // Added latency and first byte: each round's p50 minus the direct p50 of the same round; median over rounds.
    const added = (lane, field) => median(seq.get(lane).map((s, i) => s[field] - seq.get(p.direct)[i][field])) / 1000;
    return {
      size: size.label,
      bytes: p.id === 'responses' ? lanes.bytes.responses : lanes.bytes.claude,
      path: p,
      gatewayUs: median(gw),
      floorUs: median(fl),
      ratio: median(gw.map((x, i) => x / fl[i])),
      rounds: gw.map((x, i) => `${x.toFixed(0)}/${fl[i].toFixed(0)}`),
      addedMs: added(p.id, 'total'),
      floorAddedMs: added(p.floor, 'total'),
      addedTtfbMs: added(p.id, 'ttfb'),
      floorAddedTtfbMs: added(p.floor, 'ttfb'),
      peakMB,
    };
  });
  for (const r of rows) {
    log(`${size.label} ${r.path.id}: CPU ${r.gatewayUs.toFixed(0)} vs floor ${r.floorUs.toFixed(0)} µs per call (${r.ratio.toFixed(2)}x); added p50 ${r.addedMs.toFixed(2)} ms (floor ${r.floorAddedMs.toFixed(2)}), added TTFB ${r.addedTtfbMs.toFixed(2)} ms (floor ${r.floorAddedTtfbMs.toFixed(2)})`);
  }
  log(`${size.label}: peak RSS gateway ${peakMB.gateway.toFixed(0)} MB, floor ${peakMB.floor.toFixed(0)} MB`);
  return { rows, lanes };
}

/** Bursts of 4 concurrent 1 MB turns on each of the lanes, the process's VmHWM reset first. */
async function concurrentPeak(target, laneList, resettable) {
  if (resettable) resetPeak(target.pid);
  const before = memKB(target.pid, 'VmRSS') / 1024;
  for (const lane of laneList) {
    for (let b = 0; b < MEMORY_BURSTS; b++) {
      const results = await Promise.all(Array.from({ length: CONNECTIONS }, () => call(target.pool, lane)));
      check(lane, results.map((r) => r.problem).filter(Boolean), CONNECTIONS);
    }
  }
  return { before, peak: memKB(target.pid, 'VmHWM') / 1024 };
}

// ---------------------------------------------------------------------------------------------- GC share
/** Main-thread GC time in --trace-gc lines: each pause, plus the incremental marking steps a Mark-Compact reports. */
function gcMs(text) {
  let ms = 0;
  let count = 0;
  for (const line of text.split('\n')) {
    const m = /: (?:Scavenge|Mark-Compact|Mark-Sweep|Minor Mark-Compact|Mark-Compact \(reduce\)|Minor Mark-Sweep)\b.*?MB, (?:pooled: [\d.]+ MB, )?([\d.]+) \/ [\d.]+ ms/.exec(line);
    if (!m) continue;
    count++;
    ms += Number(m[1]);
    const steps = /\(\+ ([\d.]+) ms in \d+ steps/.exec(line);
    if (steps) ms += Number(steps[1]);
  }
  return { ms, count };
}

async function measureGc(mockUrl, targets, sizes) {
  const sy = await startSwitchyard(MAIN_JS, { name: 'switchyard-gc', nodeArgs: ['--trace-gc'] });
  const gc = await setupGateway(sy, mockUrl);
  const gcTargets = { ...targets, gateway: gc.target };
  await ready(gcTargets, sizes[0]);
  const shares = new Map();
  for (const size of sizes) {
    const lanes = lanesFor(size, gcTargets);
    for (const p of PATHS) {
      const lane = lanes[p.id];
      await load(lane, Math.max(CONNECTIONS, Math.ceil(size.gcCalls / 4)));
      await sleep(SETTLE_MS);
      const offset = fs.statSync(sy.logFile).size;
      const before = cpuTicks(gc.target.pid);
      await load(lane, size.gcCalls);
      await sleep(SETTLE_MS);
      const cpuMs = ((cpuTicks(gc.target.pid) - before) / CLK_TCK) * 1000;
      const fd = fs.openSync(sy.logFile, 'r');
      const length = fs.statSync(sy.logFile).size - offset;
      const buf = Buffer.alloc(Math.max(0, length));
      fs.readSync(fd, buf, 0, buf.length, offset);
      fs.closeSync(fd);
      const { ms, count } = gcMs(buf.toString('utf8'));
      shares.set(`${size.label} ${p.id}`, { share: cpuMs > 0 ? ms / cpuMs : NaN, ms, count, cpuMs, calls: size.gcCalls });
      log(`GC ${size.label} ${p.id}: ${count} collections, ${ms.toFixed(0)} ms of ${cpuMs.toFixed(0)} ms CPU (${((ms / cpuMs) * 100).toFixed(0)}%)`);
    }
  }
  await gc.target.pool.close();
  return shares;
}

/** Waits (bounded) until a call of each path goes through (new channels reach the routing table through the bus). */
async function ready(targets, size) {
  const lanes = lanesFor({ ...size, bytes: Math.min(size.bytes, 60 * 1024) }, targets);
  for (const l of ['claude', 'responses', 'converted', 'directClaude', 'floorClaude', 'directResponses', 'floorResponses']) {
    let r = null;
    // Not counted: a call before the route is ready is no failure of the relay (nor billed, when refused).
    for (let i = 0; i < 50; i++) {
      r = await call(lanes[l].target.pool, lanes[l], false);
      if (!r.problem) break;
      await sleep(200);
    }
    if (r.problem) throw new Error(`${lanes[l].name}: ${r.problem}`);
  }
}

// ---------------------------------------------------------------------------------------------- report
const f0 = (n) => (Number.isFinite(n) ? n.toFixed(0) : '–');
const f2 = (n) => (Number.isFinite(n) ? n.toFixed(2) : '–');
const pctOf = (n) => (Number.isFinite(n) ? `${(n * 100).toFixed(0)}%` : '–');

function verdicts(rows, concurrent) {
  const out = [];
  for (const r of rows) {
    if (r.size === '60 KB') continue;
    out.push({ what: `CPU per call, ${r.size}, ${r.path.label}`, got: `${r.ratio.toFixed(2)}x the floor`, target: `≤ ${r.path.cpuTarget}x`, pass: r.ratio <= r.path.cpuTarget });
  }
  for (const r of rows.filter((x) => x.size === '1 MB')) {
    out.push({ what: `added first byte p50, 1 MB, ${r.path.label}`, got: `${r.addedTtfbMs.toFixed(2)} ms`, target: `< ${r.path.ttfbTarget} ms`, pass: r.addedTtfbMs < r.path.ttfbTarget });
  }
  out.push({ what: 'peak RSS, 4 concurrent 1 MB turns (Switchyard)', got: `${concurrent.gateway.peak.toFixed(0)} MB`, target: `< ${TARGETS.concurrentRssMB} MB`, pass: concurrent.gateway.peak < TARGETS.concurrentRssMB });
  return out;
}

function tableRows(rows, gc) {
  return rows.map((r) => {
    const g = gc.get(`${r.size} ${r.path.id}`);
    return [
      `${r.size} (${r.bytes.toLocaleString('en-US')} B)`,
      r.path.label,
      f0(r.gatewayUs),
      f0(r.floorUs),
      `${f2(r.ratio)}x`,
      `${f2(r.addedMs)} / ${f2(r.floorAddedMs)}`,
      `${f2(r.addedTtfbMs)} / ${f2(r.floorAddedTtfbMs)}`,
      `${f0(r.peakMB.gateway)} / ${f0(r.peakMB.floor)}`,
      g ? pctOf(g.share) : '–',
    ];
  });
}
const HEAD = ['body', 'path', 'Switchyard CPU µs/call', 'floor CPU µs/call', 'ratio (median of paired rounds)', 'added p50 ms (Switchyard / floor)', 'added first byte p50 ms (Switchyard / floor)', 'peak RSS MB (Switchyard / floor)', 'GC share of Switchyard CPU'];

// ---------------------------------------------------------------------------------------------- main
async function main() {
  const mach = machine();
  const foreign = foreignLoadMeter();
  log(`machine: ${mach.nproc} cores, ${mach.cpuModel}, node ${mach.node}; ${ROUNDS} paired rounds per size`);
  if (!PINNED) log(`WARNING: ${pinNote}`);
  makeTmpDir();
  const mock = startChild('mock', [path.join(BENCH, 'mock-upstream.mjs'), '--host', HOST, '--port', '0'], { cpu: 1 });
  const mockUrl = `http://${HOST}:${await listeningPort(mock)}`;
  const minimal = startChild('minimal', [path.join(BENCH, 'minimal-relay.mjs'), '--host', HOST, '--port', '0', '--upstream', mockUrl], { cpu: 0 });
  const minimalUrl = `http://${HOST}:${await listeningPort(minimal)}`;
  const pool = (url) => new Pool(url, { connections: CONNECTIONS, pipelining: 1, keepAliveTimeout: 60_000 });
  const direct = { name: 'direct', url: mockUrl, key: UPSTREAM_KEY, pid: mock.child.pid, ok: 0, pool: pool(mockUrl) };
  const floor = { name: 'floor', url: minimalUrl, key: UPSTREAM_KEY, pid: minimal.child.pid, ok: 0, pool: pool(minimalUrl) };

  const nodeArgs = args.profile ? ['--cpu-prof', '--cpu-prof-dir', path.join(BENCH, 'profiles'), '--cpu-prof-name', 'switchyard-big-bodies.cpuprofile'] : [];
  const sy = await startSwitchyard(MAIN_JS, { name: 'switchyard', nodeArgs });
  let gateway;
  let session;
  try {
    ({ target: gateway, session } = await setupGateway(sy, mockUrl));
    const targets = { direct, floor, gateway };
    await ready(targets, SIZES[0]);
    const peakResettable = resetPeak(gateway.pid) && resetPeak(floor.pid);
    if (!peakResettable) log('WARNING: cannot reset VmHWM (/proc/<pid>/clear_refs): peak RSS per size is the peak so far');

    const rows = [];
    for (const size of SIZES) {
      rows.push(...(await measureSize(size, targets, peakResettable)).rows);
      const billed = await checkBilled(gateway, session, size.label);
      log(`${size.label}: ${gateway.ok} calls through Switchyard so far, ${billed} consume logs`);
    }

    const big = lanesFor(SIZES.at(-1), targets);
    log(`peak RSS: ${MEMORY_BURSTS} bursts of ${CONNECTIONS} concurrent 1 MB turns per path`);
    const concurrent = {
      gateway: await concurrentPeak(gateway, [big.claude, big.responses, big.converted], peakResettable),
      floor: await concurrentPeak(floor, [big.floorClaude, big.floorResponses], peakResettable),
    };
    log(`4 concurrent 1 MB turns: Switchyard ${concurrent.gateway.before.toFixed(0)} → ${concurrent.gateway.peak.toFixed(0)} MB, floor ${concurrent.floor.before.toFixed(0)} → ${concurrent.floor.peak.toFixed(0)} MB`);
    const billed = await checkBilled(gateway, session, 'the run');
    // Other processes' CPU over the measured part (the GC run below stops this Switchyard, whose CPU then counts no more).
    const otherLoad = foreign();

    // The GC run: its own Switchyard with --trace-gc, after this one has stopped (core 0 to itself).
    sy.entry.child.kill('SIGTERM');
    for (let i = 0; i < 100 && !sy.entry.exited; i++) await sleep(100);
    await gateway.pool.close();
    log('GC share: a separate Switchyard with --trace-gc');
    const gc = await measureGc(mockUrl, targets, SIZES);

    if (tally.bad > 0) throw new Error(`${tally.bad} calls not answered 200 with a whole stream`);
    const vs = verdicts(rows, concurrent);
    const lines = vs.map((v) => `${v.pass ? 'PASS' : 'MISS'}: ${v.what}: ${v.got} (target ${v.target})`);
    const tbl = tableRows(rows, gc);
    const w = HEAD.map((h, i) => Math.max(h.length, ...tbl.map((r) => String(r[i]).length)));
    const line = (cells) => cells.map((c, i) => String(c).padEnd(w[i])).join('  ');
    console.log(`\n${[line(HEAD), line(w.map((n) => '-'.repeat(n))), ...tbl.map(line)].join('\n')}\n`);
    for (const l of lines) console.log(l);
    const elapsed = (Date.now() - startedAt) / 1000;
    console.log(`\n${tally.calls} calls, every one answered 200 with a whole stream; ${gateway.ok} through Switchyard, ${billed} consume logs; other load ${otherLoad.toFixed(0)}% of a core; ${elapsed.toFixed(0)} s`);

    if (WRITE) {
      const start = startCommand();
      const md = [
        '## Big requests (`npm run bench:big`)',
        '',
        `${new Date().toISOString().slice(0, 10)}, ${mach.nproc} cores (${mach.cpuModel}), ${mach.memGB} GiB, node ${mach.node}, kernel ${mach.kernel}; the run took ${elapsed.toFixed(0)} s, other processes used ${otherLoad.toFixed(0)}% of a core meanwhile. ${pinNote[0].toUpperCase()}${pinNote.slice(1)}`,
        '',
        `- **Bodies** (\`bench/lib/coding-bodies.mjs\`, deterministic): *Claude* is a \`POST /v1/messages\` body as Claude Code sends it (two system text blocks with \`cache_control\`, 18 tools with nested JSON schemas, a first user message with a \`<system-reminder>\`, then turns of signed thinking, text and \`tool_use\` blocks answered by \`tool_result\` blocks of file reads, searches, shell output and edits; thinking enabled, \`stream: true\`); *Responses* is a \`POST /v1/responses\` body as Codex sends it (instructions, 12 function tools, user instructions and environment context, then reasoning items with \`encrypted_content\`, \`function_call\` and \`function_call_output\` items and assistant messages; reasoning, \`store: false\`, \`stream: true\`). Each at ~60 KB (a first turn: system prompt and tools), ~300 KB and ~1 MB (a long history).`,
        `- **Paths**: one Switchyard process as \`npm start\` runs it (\`${start.text}\`, WORKERS=1, SQLite, default settings: the sensitive-word check on), one token, a Claude channel (type 14) and an OpenAI channel (type 1) at the mock. *Passthrough*: Claude body to the Claude channel, Responses body to the OpenAI channel; *converted*: the Claude body (model \`${CONVERTED_MODEL}\`) to the OpenAI channel, sent upstream as chat completions. The mock (\`bench/mock-upstream.mjs\`) answers each in its own wire format: a 13-delta thought, then the same 20-delta answer, usage from the body's size. Every call was checked: 200, \`text/event-stream\`, every event JSON, the stream's first and last events, the whole answer text, a thought and usage (any other answer fails the run); every call through Switchyard was billed (${billed} consume logs for ${gateway.ok} calls).`,
        `- **Floor**: \`bench/minimal-relay.mjs\` piping the same client bytes to the mock (for the converted path: the Claude body, same bytes but the model name). *Direct*: the mock itself, the baseline for added latency.`,
        `- **CPU per call**: utime+stime from \`/proc/<pid>/stat\` (CLK_TCK=${CLK_TCK}) around a fixed count of calls at ${CONNECTIONS} connections (60 KB / 300 KB / 1 MB: ${SIZES.map((s) => s.cpuCalls).join(' / ')} calls through Switchyard, ${FLOOR_CALLS}x as many through the floor; ${SETTLE_MS} ms before and after so batched settlement lands inside), after a warm-up. ${ROUNDS} rounds per size, each measuring floor and Switchyard lanes back to back, the order turning; *ratio* is the median of the per-round ratios Switchyard / floor.`,
        `- **Added latency and first byte**: sequential calls on one keep-alive connection (undici; ${SEQ_WARMUP} warm-up, then ${SIZES.map((s) => s.seqCalls).join(' / ')} calls per target and round), direct, floor and Switchyard in the same ${ROUNDS} rounds in a turning order; *added* is the target's p50 minus direct's p50 in the same round (total time; time from the request's start to the first body byte), median over rounds.`,
        `- **Peak RSS**: VmHWM from \`/proc/<pid>/status\`, reset (\`/proc/<pid>/clear_refs\` 5) before each size's runs${peakResettable ? '' : ' (could not be reset on this kernel: the peak so far)'}. *4 concurrent 1 MB turns*: ${MEMORY_BURSTS} bursts of 4 calls started together on each path, VmHWM reset first.`,
        `- **GC share**: a separate Switchyard started the same way plus \`--trace-gc\`, ${SIZES.map((s) => s.gcCalls).join(' / ')} calls per path and size at ${CONNECTIONS} connections after a warm-up; the main-thread GC time its trace lines report in that window (each pause plus the incremental marking steps of a Mark-Compact) over the CPU time the process used (\`/proc/<pid>/stat\`). Work of V8's concurrent GC threads is not in the pauses, so this is a lower bound.`,
        '',
        `| ${HEAD.join(' | ')} |`,
        `| ${HEAD.map(() => '---').join(' | ')} |`,
        ...tbl.map((r) => `| ${r.join(' | ')} |`),
        '',
        `4 concurrent 1 MB turns: Switchyard ${concurrent.gateway.before.toFixed(0)} → ${concurrent.gateway.peak.toFixed(0)} MB (VmRSS before → VmHWM), floor ${concurrent.floor.before.toFixed(0)} → ${concurrent.floor.peak.toFixed(0)} MB.`,
        '',
        `CPU per round (Switchyard/floor µs): ${rows.map((r) => `${r.size} ${r.path.id} ${r.rounds.join(' ')}`).join('; ')}.`,
        '',
        ...lines.map((l) => `- ${l}`),
      ].join('\n');
      writeResultsSection('big-bodies', md);
      log('wrote the big-requests section of bench/RESULTS.md');
    } else {
      log(`done in ${elapsed.toFixed(0)} s (not written to RESULTS.md: --quick or --profile)`);
    }
    return 0;
  } catch (err) {
    console.error(`--- tail of the Switchyard log:\n${logTail(sy.logFile)}`);
    throw err;
  } finally {
    for (const t of [direct, floor]) await t.pool.close().catch(() => {});
  }
}

runBench(main);
