// What the micro-benchmarks share: the built server they import from (--server, default server/dist), how many
// rounds they take the best of (--rounds, default 7), and the synchronous CPU timer.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

/** The built server (exits with a hint when it is not built), the rounds, and an import of one of its modules. */
export function builtServer() {
  const { values: args } = parseArgs({ options: { server: { type: 'string', default: 'server/dist' }, rounds: { type: 'string', default: '7' } } });
  const dist = path.resolve(args.server);
  const ROUNDS = Math.max(1, Number(args.rounds) || 7);
  if (!fs.existsSync(path.join(dist, 'main.js'))) {
    console.error(`${dist}/main.js not found: run \`npm run build\` first`);
    process.exit(1);
  }
  const imp = (p) => import(pathToFileURL(path.join(dist, p)).href);
  return { dist, ROUNDS, imp };
}

/** A timer printing CPU µs per call of a synchronous fn: the best of `rounds` rounds of n calls, after a warm-up. */
export function cpuBench(rounds, width = 8) {
  return function bench(name, n, fn) {
    for (let i = 0; i < Math.min(n, 2000); i++) fn(i); // warm-up (and the first-use compile)
    let best = Infinity;
    for (let r = 0; r < rounds; r++) {
      const c0 = process.cpuUsage();
      for (let i = 0; i < n; i++) fn(i);
      const c = process.cpuUsage(c0);
      best = Math.min(best, (c.user + c.system) / n);
    }
    console.log(`${best.toFixed(2).padStart(width)} µs  ${name}`);
    return best;
  };
}

/** The same for a function that may be async (awaited per call), with `per` operations in each call. */
export function asyncCpuBench(rounds) {
  return async function bench(name, n, fn, per = 1) {
    for (let i = 0; i < Math.min(n, 200); i++) await fn(i); // warm-up
    let best = Infinity;
    for (let r = 0; r < rounds; r++) {
      const c0 = process.cpuUsage();
      for (let i = 0; i < n; i++) await fn(i);
      const c = process.cpuUsage(c0);
      best = Math.min(best, (c.user + c.system) / n / per);
    }
    console.log(`${best.toFixed(1).padStart(8)} µs  ${name}`);
    return best;
  };
}
