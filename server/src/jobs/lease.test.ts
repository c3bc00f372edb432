import { describe, expect, it, vi } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { migratedDatabase } from '../test/migrated-database.js';
import { DatabaseLease } from './lease.js';
import { JobRunner, type Job } from './runner.js';

const quiet = { error() {} };

describe.each(testDatabases())('job lease on $name', (database) => {
  const db = migratedDatabase(database);

  function clock(start: number) {
    const c = { now: start, read: () => c.now };
    return c;
  }

  it('one node holds a job at a time; the other takes it once the holder stops renewing', async () => {
    const c = clock(1_000_000);
    const a = new DatabaseLease(db().kysely, 'node-a', 40_000, c.read);
    const b = new DatabaseLease(db().kysely, 'node-b', 40_000, c.read);
    expect(await a.hold('poll-1')).toBe(true);
    expect(await b.hold('poll-1')).toBe(false);
    // Renewed while alive.
    c.now += 30_000;
    expect(await a.hold('poll-1')).toBe(true);
    c.now += 30_000;
    expect(await b.hold('poll-1')).toBe(false);
    // Node a dies: after the TTL, b takes over; a, back late, is refused.
    c.now += 40_001;
    expect(await b.hold('poll-1')).toBe(true);
    expect(b.holding('poll-1')).toBe(true);
    expect(await a.hold('poll-1')).toBe(false);
    expect(a.holding('poll-1')).toBe(false);
  });

  it('two nodes asking for a new lease at once: exactly one gets it', async () => {
    const leases = Array.from({ length: 6 }, (_, i) => new DatabaseLease(db().kysely, `n${i}`));
    const granted = await Promise.all(leases.map((l) => l.hold('poll-race')));
    expect(granted.filter(Boolean)).toHaveLength(1);
  });

  it('a node stopping gives its leases up at once', async () => {
    const a = new DatabaseLease(db().kysely, 'stop-a');
    const b = new DatabaseLease(db().kysely, 'stop-b');
    expect(await a.hold('poll-stop')).toBe(true);
    expect(await b.hold('poll-stop')).toBe(false);
    await a.releaseAll();
    expect(await b.hold('poll-stop')).toBe(true);
  });

  it('the runner holds the lease of an hourly job from its start and keeps it between runs', async () => {
    const c = clock(2_000_000);
    const other = new DatabaseLease(db().kysely, 'hourly-b', 40_000, c.read);
    const lease = new DatabaseLease(db().kysely, 'hourly-a', 40_000, c.read);
    const job: Job = { name: 'hourly-job', leased: true, interval: () => 3_600_000, run: async () => {} };
    const runner = new JobRunner(quiet, { master: true, lease, leaseRenewMs: 10 }).add(job);
    runner.start();
    await vi.waitFor(() => expect(runner.leaseStates()).toEqual([['hourly-job', true]]));
    // Past the lease's lifetime without a run: renewed all along, so no other node takes the job.
    c.now += 60_000;
    // Wait for a renewal at the new time: the lease then runs 40 s past it.
    const expiry = () => db().kysely.selectFrom('job_leases').select('expires_at').where('name', '=', 'hourly-job').executeTakeFirstOrThrow();
    await vi.waitFor(async () => expect(Number((await expiry()).expires_at)).toBe(c.now + 40_000));
    expect(await other.hold('hourly-job')).toBe(false);
    await runner.stop();
    expect(await other.hold('hourly-job')).toBe(true);
  });

  it('the runner runs a leased job only on the node holding its lease, and hands over on stop', async () => {
    const runs: string[] = [];
    const job = (node: string): Job => ({ name: 'leased-job', leased: true, interval: () => 0, run: async () => void runs.push(node) });
    const a = new JobRunner(quiet, { master: true, lease: new DatabaseLease(db().kysely, 'runner-a') }).add(job('a'));
    const b = new JobRunner(quiet, { master: true, lease: new DatabaseLease(db().kysely, 'runner-b') }).add(job('b'));
    await a.runNow('leased-job');
    await b.runNow('leased-job');
    await a.runNow('leased-job');
    expect(runs).toEqual(['a', 'a']);
    await a.stop();
    await b.runNow('leased-job');
    expect(runs).toEqual(['a', 'a', 'b']);
    await b.stop();
  });
});
