// Shared start of the micro-benchmarks: the built server's modules, the number of rounds, and a CPU-time loop.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

/**
 * Parses `--server <dist>` and `--rounds <n>` (plus `options`), checks the server is built, and returns the values
 * with `imp(p)`, which imports a module of the built server by its path under dist.
 */
export function builtServer(options = {}) {
  const { values } = parseArgs({ options: { server: { type: 'string', default: 'server/dist' }, rounds: { type: 'string', default: '7' }, ...options } });
  const dist = path.resolve(values.server);
  if (!fs.existsSync(path.join(dist, 'main.js'))) {
    console.error(`${dist}/main.js not found: run \`npm run build\` first`);
    process.exit(1);
  }
  return { values, dist, rounds: Math.max(1, Number(values.rounds) || 7), imp: (p) => import(pathToFileURL(path.join(dist, p)).href) };
}

/** A synchronous CPU-time bench: prints and returns the best µs per call of `rounds` rounds of n calls. */
export function cpuBench(rounds, digits = 2) {
  return (name, n, fn) => {
    for (let i = 0; i < Math.min(n, 2000); i++) fn(i); // warm-up (and the first-use compile)
    let best = Infinity;
    for (let r = 0; r < rounds; r++) {
      const c0 = process.cpuUsage();
      for (let i = 0; i < n; i++) fn(i);
      const c = process.cpuUsage(c0);
      best = Math.min(best, (c.user + c.system) / n);
    }
    console.log(`${best.toFixed(digits).padStart(8)} µs  ${name}`);
    return best;
  };
}
