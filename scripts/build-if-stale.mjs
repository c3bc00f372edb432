// Builds the tree (npm run build) only when a source is newer than the last build, so `npm start` on a built tree
// goes straight to the server. `--stamp` records a build that just finished (the end of `npm run build`).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(import.meta.dirname, '..');
export const STAMP = path.join(ROOT, 'server/dist/.build-stamp');

/** What the build reads: the three source trees and the files that say how they are built. */
const SOURCE_DIRS = ['server/src', 'web/src', 'web/public', 'packages/shared/src'];
const SOURCE_FILES = [
  'package.json',
  'package-lock.json',
  'tsconfig.base.json',
  'server/package.json',
  'server/tsconfig.json',
  'server/tsconfig.build.json',
  'web/package.json',
  'web/tsconfig.json',
  'web/index.html',
  'web/vite.config.ts',
  'packages/shared/package.json',
  'packages/shared/tsconfig.json',
  'packages/shared/tsconfig.build.json',
];
/** What a build leaves: the server can only start when all of them are there. */
const OUTPUTS = ['server/dist/main.js', 'web/dist/index.html', 'packages/shared/dist/index.js'];

const isTest = (name) => /\.test\.tsx?$/.test(name);

function newestUnder(dir) {
  let newest = 0;
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestUnder(p));
    else if (!isTest(e.name)) newest = Math.max(newest, fs.statSync(p).mtimeMs);
  }
  return newest;
}

/** The newest modification time among the build's inputs (ms since the epoch). */
export function newestSource() {
  let newest = 0;
  for (const d of SOURCE_DIRS) newest = Math.max(newest, newestUnder(path.join(ROOT, d)));
  for (const f of SOURCE_FILES) {
    try {
      newest = Math.max(newest, fs.statSync(path.join(ROOT, f)).mtimeMs);
    } catch {
      /* optional file */
    }
  }
  return newest;
}

/** Why a build is needed, or null when the last one is current. */
export function staleReason() {
  const missing = OUTPUTS.find((o) => !fs.existsSync(path.join(ROOT, o)));
  if (missing) return `${missing} is missing`;
  let built;
  try {
    built = Number(fs.readFileSync(STAMP, 'utf8'));
  } catch {
    return 'no build stamp';
  }
  return newestSource() > built ? 'sources changed since the last build' : null;
}

/** Records that the build covers every source as of `at` (sources changed during the build count as newer). */
export function stamp(at) {
  fs.mkdirSync(path.dirname(STAMP), { recursive: true });
  fs.writeFileSync(STAMP, String(at));
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** Runs `fn` while no other start of this tree builds (two starts at once would overwrite each other's output). */
function underBuildLock(fn) {
  const lock = path.join(ROOT, 'node_modules', '.switchyard-build-lock');
  for (;;) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      const holder = Number(fs.readFileSync(lock, 'utf8'));
      if (holder && !alive(holder)) fs.rmSync(lock, { force: true });
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    fn();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv.includes('--stamp')) {
    stamp(newestSource());
  } else if (staleReason()) {
    underBuildLock(() => {
      // Another start may have built while this one waited.
      const reason = staleReason();
      if (!reason) return;
      console.error(`building first: ${reason}`);
      execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
    });
  }
}
