import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

const shared = path.resolve(import.meta.dirname, 'packages/shared/src/index.ts');
const START_TEST = 'server/src/deploy/start.test.ts';
// Password hashes at a test cost in the test process only (auth/password.ts says where the real one is proved).
const LOW_PASSWORD_COST = 'server/src/test/low-password-cost.ts';
const SERVICE_SKIPS = 'server/src/test/service-skips.ts';

/*
 * Files that assert how long something took, with a bound a loaded machine can break: they run in the `serial`
 * project, one file at a time with nothing else beside them (`npm run test:unit` runs it on its own, before the
 * parallel run). Every other server file runs in `server`, several at a time.
 */
const TIMED = [
  // A 2,000 ms shutdown deadline held within 2,100 ms; drains bounded at 3 s.
  'server/src/shutdown.test.ts',
  // A child process's exit within 4-5 s of the signal.
  'server/src/shutdown-signals.test.ts',
  // Answers to paused and slow clients within 3-6 s, and upstream bytes held while paused.
  'server/src/relay/slow-clients.test.ts',
  // Connecting to a black hole given up after RELAY_TIMEOUT=1 s, within 2.5 s.
  'server/src/relay/upstream.test.ts',
  // Each fault's outcome within the matrix's `withinMs`.
  'server/src/relay/fault-matrix.test.ts',
  // Calls through a Redis restart finishing within 5 s.
  'server/src/relay/fault-matrix-redis.test.ts',
  // A close with a half-sent request on a lane within 2 s.
  'server/src/relay/lane.test.ts',
  // Four calls beside a full concurrency limit answered within 2 s.
  'server/src/relay/concurrent-streams.test.ts',
  // A readiness probe bounded by its check timeout + 1 s, an outage seen within a bound.
  'server/src/health/readiness.test.ts',
  // A Redis command timeout of 300 ms observed between 250 ms and 2 s.
  'server/src/lib/redis.test.ts',
  // A database pool's acquire timeout observed between 250 ms and 2 s.
  'server/src/db/pool-bounds.test.ts',
  // Budgets over 1 s windows spent by sign-ins (password hashing): slowed past a second, calls leave the window first.
  'server/src/console/rate-limits.test.ts',
  // Thousands of calls at once through multi-worker nodes started as processes, each call bounded by a client
  // timeout: beside other files on a loaded 2-core machine they failed in both full runs.
  'server/src/cluster/nodes.test.ts',
  'server/src/cluster/worker-kill-charges.test.ts',
  // 1,000 calls at once on a small balance, and a burst whose reservations are counted while in flight: beside three
  // other files on a slow 2-core machine, connections were reset and calls passed before their reservation was read.
  'server/src/relay/relay-small-balance.test.ts',
];

/*
 * Unit and integration tests of every workspace except the browser suite (e2e/vitest.config.ts). The files mostly
 * wait (timers, sockets, child servers, databases), so on a 2-core machine 4 files at a time finish sooner than
 * Vitest's default of cores - 1. What lets them share the machine: child servers bind port 0 and report the port
 * (server/src/listening.ts), closed ports come from a band per worker (test/unreachable.ts), each worker has its
 * own Redis database (test/shared-redis.ts), each suite its own PostgreSQL/MySQL database (test/databases.ts).
 */
export default defineConfig({
  resolve: { alias: { '@switchyard/shared': shared } },
  test: {
    maxWorkers: 4,
    projects: [
      { extends: true, test: { name: 'shared', include: ['packages/shared/src/**/*.test.ts'] } },
      {
        extends: true,
        // 60 s per test: with 4 files at a time a CPU-bound test takes up to 4 times as long as alone.
        test: {
          name: 'server',
          include: ['server/src/**/*.test.ts'],
          exclude: [...configDefaults.exclude, START_TEST, ...TIMED],
          setupFiles: [LOW_PASSWORD_COST],
          // Lists what was skipped for want of PostgreSQL, MySQL or Redis when the run ends (fails instead in CI).
          globalSetup: [SERVICE_SKIPS],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      { extends: true, test: { name: 'serial', include: TIMED, maxWorkers: 1, setupFiles: [LOW_PASSWORD_COST], globalSetup: [SERVICE_SKIPS], testTimeout: 30_000, hookTimeout: 60_000 } },
      // Times `npm start`: `npm run test:unit` runs it on its own before the rest, so no other suite shares the cores.
      { extends: true, test: { name: 'start', include: [START_TEST], maxWorkers: 1, testTimeout: 30_000, hookTimeout: 60_000 } },
      { extends: true, test: { name: 'web', include: ['web/src/**/*.test.ts'], environment: 'node' } },
    ],
  },
});
