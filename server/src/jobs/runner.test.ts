import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JobLease } from './lease.js';
import { JobRunner, type Job } from './runner.js';

function recorder() {
  const errors: Array<{ obj: object; msg: string }> = [];
  return { errors, log: { error: (obj: object, msg: string) => errors.push({ obj, msg }) } };
}

/** A job whose runs are counted and can be held open until released. */
function countingJob(name: string, intervalMs: () => number, extra: Partial<Job> = {}) {
  const state = { runs: 0, active: 0, maxActive: 0, hold: null as Promise<void> | null };
  const job: Job = {
    name,
    interval: intervalMs,
    async run() {
      state.runs++;
      state.active++;
      state.maxActive = Math.max(state.maxActive, state.active);
      try {
        if (state.hold) await state.hold;
      } finally {
        state.active--;
      }
    },
    ...extra,
  };
  return { job, state };
}

describe('the job runner', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs a job every interval, counted from the end of the previous run', async () => {
    const { log } = recorder();
    const runner = new JobRunner(log, { master: true });
    const { job, state } = countingJob('tick', () => 5000);
    runner.add(job).start();
    await vi.advanceTimersByTimeAsync(4999);
    expect(state.runs).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(state.runs).toBe(1);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(state.runs).toBe(4);
    await runner.stop();
  });

  it('never overlaps two runs of a job, even when runNow is called during a scheduled run', async () => {
    const { log } = recorder();
    const runner = new JobRunner(log, { master: true });
    const { job, state } = countingJob('slow', () => 1000);
    let release!: () => void;
    state.hold = new Promise<void>((r) => (release = r));
    runner.add(job).start();
    await vi.advanceTimersByTimeAsync(1000);
    expect(state.runs).toBe(1);
    const now = runner.runNow('slow');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(state.runs).toBe(1);
    state.hold = null;
    release();
    await now;
    expect(state.runs).toBe(2);
    expect(state.maxActive).toBe(1);
    await runner.stop();
  });

  it('logs a failing run and keeps the schedule', async () => {
    const { log, errors } = recorder();
    const runner = new JobRunner(log, { master: true });
    let runs = 0;
    runner
      .add({
        name: 'flaky',
        interval: () => 1000,
        async run() {
          runs++;
          if (runs === 1) throw new Error('boom');
        },
      })
      .start();
    await vi.advanceTimersByTimeAsync(3000);
    expect(runs).toBe(3);
    expect(errors).toHaveLength(1);
    expect(errors[0].msg).toBe('background job failed');
    expect(errors[0].obj).toMatchObject({ job: 'flaky' });
    await runner.stop();
  });

  it('follows a changed interval from the next wait, and looks again at least every recheck period', async () => {
    const { log } = recorder();
    const runner = new JobRunner(log, { master: true, recheckMs: 60_000 });
    let minutes = 60;
    const { job, state } = countingJob('export', () => minutes * 60_000);
    runner.add(job).start();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(state.runs).toBe(0);
    minutes = 5; // 10 minutes have passed: the job is overdue and runs at the next look
    await vi.advanceTimersByTimeAsync(60_000);
    expect(state.runs).toBe(1);
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(state.runs).toBe(2);
    await runner.stop();
  });

  it('pauses a job whose interval is zero', async () => {
    const { log } = recorder();
    const runner = new JobRunner(log, { master: true, recheckMs: 1000 });
    let interval = 0;
    const { job, state } = countingJob('paused', () => interval);
    runner.add(job).start();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(state.runs).toBe(0);
    interval = 2000;
    await vi.advanceTimersByTimeAsync(1000);
    expect(state.runs).toBe(1);
    await runner.stop();
  });

  it('on stop waits for the run in progress, then runs the jobs that flush once more, and schedules nothing after', async () => {
    const { log } = recorder();
    const runner = new JobRunner(log, { master: true });
    const flushing = countingJob('flush', () => 1000, { runOnStop: true });
    const polling = countingJob('poll', () => 1000);
    let release!: () => void;
    flushing.state.hold = new Promise<void>((r) => (release = r));
    runner.add(flushing.job).add(polling.job).start();
    await vi.advanceTimersByTimeAsync(1000);
    expect(flushing.state.active).toBe(1);
    let stopped = false;
    const stopping = runner.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    flushing.state.hold = null;
    release();
    await stopping;
    expect(flushing.state.runs).toBe(2);
    expect(flushing.state.maxActive).toBe(1);
    expect(polling.state.runs).toBe(1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(flushing.state.runs).toBe(2);
    expect(polling.state.runs).toBe(1);
    await runner.stop();
    expect(flushing.state.runs).toBe(2);
  });

  it("renews the leases a quarter of the lease's lifetime apart (JOB_LEASE_TTL)", async () => {
    const holds: string[] = [];
    const lease: JobLease = {
      ttlMs: 8000,
      hold: async (name) => (holds.push(name), true),
      holding: () => true,
      releaseAll: async () => {},
    };
    const runner = new JobRunner(recorder().log, { master: true, lease });
    runner.add(countingJob('leased', () => 3_600_000, { leased: true }).job).start();
    await vi.advanceTimersByTimeAsync(0);
    expect(holds).toEqual(['leased']);
    await vi.advanceTimersByTimeAsync(1999);
    expect(holds).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(holds).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(6000);
    expect(holds).toHaveLength(5);
    await runner.stop();
  });

  it('runs master-only jobs on the master node only', () => {
    const { log } = recorder();
    const job: Job = { name: 'poller', interval: () => 1000, run: async () => {}, masterOnly: true };
    expect(new JobRunner(log, { master: true }).add(job).names).toEqual(['poller']);
    expect(new JobRunner(log, { master: false }).add(job).names).toEqual([]);
  });

  it('refuses two jobs with one name', () => {
    const { log } = recorder();
    const runner = new JobRunner(log, { master: true });
    runner.add({ name: 'x', interval: () => 1, run: async () => {} });
    expect(() => runner.add({ name: 'x', interval: () => 1, run: async () => {} })).toThrow(/already registered/);
  });
});
