#!/usr/bin/env node
/*
 * `npm test`: lint and typecheck (side by side), build, the unit/integration phase and the browser phase, in that
 * order, stopping at the first that fails. Prints how long each step took, and from the per-file reports the Vitest
 * runs write into test-results/ (cleared first) the slowest files. `node scripts/test-all.mjs unit e2e` runs only
 * the steps named. docs/testing.md says how the phases are laid out and how to read the report.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const RESULTS = path.join(ROOT, 'test-results');
const SLOWEST = 15;

const report = (name) => ['--reporter=default', '--reporter=json', `--outputFile.json=${path.join(RESULTS, `${name}.json`)}`];

/*
 * The unit/integration phase is three runs. `start` times `npm start` and `serial` holds the files that assert a
 * duration: each runs with no other file beside it (vitest.config.ts says why each file is there). The rest runs
 * several files at a time.
 */
const UNIT = [
  ['vitest', 'run', '--project', 'start', ...report('unit-start')],
  ['vitest', 'run', '--project', 'serial', ...report('unit-serial')],
  ['vitest', 'run', '--project', 'shared', '--project', 'server', '--project', 'web', ...report('unit-parallel')],
];

const STEPS = {
  lint: [['npm', 'run', 'lint']],
  typecheck: [['npm', 'run', 'typecheck']],
  build: [['npm', 'run', 'build']],
  unit: UNIT.map((args) => ['npx', ...args]),
  e2e: [['npm', 'run', 'test:e2e', '--', ...report('e2e')]],
};

const asked = process.argv.slice(2);
for (const name of asked) if (!(name in STEPS)) throw new Error(`no step ${name}; steps: ${Object.keys(STEPS).join(', ')}`);
const steps = asked.length > 0 ? asked : Object.keys(STEPS);

const STARTED = Date.now();
rmSync(RESULTS, { recursive: true, force: true });
mkdirSync(RESULTS, { recursive: true });

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/*
 * Lint and typecheck read the sources only and each keeps one core busy: on a 2-core machine they run side by side,
 * each one's output printed whole when it is done. Every other step runs alone, in order.
 */
const SIDE_BY_SIDE = new Set(['lint', 'typecheck']);

/** Runs one command of a step with its output shown as it comes; returns its exit code. */
function runShown(name, command, args) {
  console.log(`\n=== ${name}: ${command} ${args.join(' ')}`);
  return spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' }).status ?? 1;
}

/** Runs one command with its output held, then printed under its heading; resolves to its exit code. */
function runHeld(name, command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => {
      console.log(`\n=== ${name}: ${command} ${args.join(' ')}`);
      process.stdout.write(Buffer.concat(output));
      resolve(code ?? 1);
    });
  });
}

/** Runs a step's commands in order; every one runs (a failure in the serial run does not hide one in the parallel run). */
async function runStep(name, held) {
  const started = Date.now();
  let code = 0;
  for (const [command, ...args] of STEPS[name]) {
    const status = held ? await runHeld(name, command, args) : runShown(name, command, args);
    if (status !== 0 && code === 0) code = status;
  }
  return { step: name, ms: Date.now() - started, ok: code === 0, code };
}

const took = [];
let failed = null;
for (let i = 0; i < steps.length && !failed; ) {
  const group = [steps[i++]];
  while (SIDE_BY_SIDE.has(group[0]) && i < steps.length && SIDE_BY_SIDE.has(steps[i])) group.push(steps[i++]);
  const results = await Promise.all(group.map((name) => runStep(name, group.length > 1)));
  for (const r of results) {
    took.push({ step: r.step, ms: r.ms, ok: r.ok });
    if (!r.ok) failed ??= { name: r.step, code: r.code };
  }
}

/** Every file of every Vitest report in test-results/, with its run and how long it took. */
function fileTimings() {
  const files = [];
  for (const entry of readdirSync(RESULTS).filter((f) => f.endsWith('.json') && f !== 'steps.json')) {
    let parsed;
    try {
      parsed = JSON.parse(readFileSync(path.join(RESULTS, entry), 'utf8'));
    } catch {
      continue;
    }
    for (const r of parsed.testResults ?? []) {
      files.push({ run: entry.replace(/\.json$/, ''), file: path.relative(ROOT, r.name), ms: r.endTime - r.startTime, status: r.status });
    }
  }
  return files.sort((a, b) => b.ms - a.ms);
}

const files = fileTimings();
writeFileSync(path.join(RESULTS, 'steps.json'), `${JSON.stringify({ steps: took, files }, null, 2)}\n`);
console.log('\n=== step durations');
for (const t of took) console.log(`${t.step.padEnd(10)} ${seconds(t.ms).padStart(9)}${t.ok ? '' : '  FAILED'}`);
console.log(`${'total'.padEnd(10)} ${seconds(Date.now() - STARTED).padStart(9)}  (lint and typecheck side by side)`);
if (files.length > 0) {
  console.log(`\n=== the ${Math.min(SLOWEST, files.length)} slowest test files (of ${files.length}; all in test-results/steps.json)`);
  for (const f of files.slice(0, SLOWEST)) console.log(`${seconds(f.ms).padStart(9)}  ${f.run.padEnd(14)} ${f.file}${f.status === 'passed' ? '' : `  (${f.status})`}`);
}
if (failed) {
  console.error(`\n${failed.name} failed`);
  process.exit(failed.code);
}
