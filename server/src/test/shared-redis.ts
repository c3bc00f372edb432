/*
 * The Redis the suites share (SWITCHYARD_TEST_REDIS), on a database number of each Vitest worker's own
 * (VITEST_POOL_ID, 1 to the worker count): test files running at the same time never see each other's keys, and the
 * bus names its channels for the database (cache/bus.ts), so they do not hear each other's invalidations either.
 * Nothing here may FLUSHDB or FLUSHALL: a file cleans up the keys it wrote.
 */
const DATABASES = 16;

/** SWITCHYARD_TEST_REDIS with this worker's database, or undefined when it is not set. */
export function sharedRedisUrl(): string | undefined {
  const base = process.env.SWITCHYARD_TEST_REDIS;
  if (!base) return undefined;
  const u = new URL(base);
  u.pathname = `/${Number(process.env.VITEST_POOL_ID ?? 0) % DATABASES}`;
  return u.toString();
}
