import type { JobLease } from './lease.js';

/*
 * The background loops of a server process (dashboard roll-up flush, and later channel tests, balance updates,
 * task pollers, log retention). A job is one file exporting a Job; jobs/index.ts lists them. The runner gives
 * every job the same guarantees: runs of one job never overlap, a failing run is logged and the schedule goes on,
 * the interval is read again before each wait (an option change applies without a restart), and stop() waits for
 * runs in progress, then runs the jobs that must run once more on the way out (flushing buffered data).
 */

export interface Job {
  /** Unique among the jobs; used in logs and by runNow(). */
  readonly name: string;
  /**
   * Milliseconds between the end of one run and the start of the next, read again while waiting. Zero, a
   * negative number or NaN pauses the job (checked again every recheck period).
   */
  interval(): number;
  run(): Promise<void>;
  /** Run once more when the runner stops, after any run in progress (to write what the job buffers). */
  readonly runOnStop?: boolean;
  /** Only on the master node (NODE_TYPE=master): work that must happen once per deployment, not once per node. */
  readonly masterOnly?: boolean;
  /**
   * Runs on one node of the deployment at a time, whichever holds the job's lease (lease.ts); the others skip their
   * runs until the holder stops renewing it. Without a lease in the options, every run goes ahead.
   */
  readonly leased?: boolean;
}

export interface JobLog {
  error(obj: object, msg: string): void;
}

export interface JobRunnerOptions {
  /** This process is the master node. */
  master: boolean;
  /** How often a waiting job looks at its interval again, so a shortened interval acts soon (ms, default 60 s). */
  recheckMs?: number;
  /** Shortest wait between two runs of a job (ms, default 1 s). */
  minIntervalMs?: number;
  /** Decides which node runs the leased jobs. */
  lease?: JobLease;
  /** How often the leases are renewed between runs (ms, default a quarter of their lifetime). */
  leaseRenewMs?: number;
}

interface Slot {
  job: Job;
  timer: NodeJS.Timeout | null;
  /** The run in progress (or the last one, settled). Runs of a slot are chained on it. */
  running: Promise<void>;
  busy: boolean;
  /** Date.now() at the end of the last run (or at start). */
  lastEnd: number;
}

export class JobRunner {
  private readonly slots = new Map<string, Slot>();
  private started = false;
  private stopped = false;
  private readonly recheckMs: number;
  private readonly minIntervalMs: number;
  private leaseTimer: NodeJS.Timeout | null = null;
  /** The renewal in progress, so stopping waits for it before giving the leases up. */
  private renewing: Promise<void> = Promise.resolve();

  constructor(
    private readonly log: JobLog,
    private readonly options: JobRunnerOptions,
  ) {
    this.recheckMs = options.recheckMs ?? 60_000;
    this.minIntervalMs = options.minIntervalMs ?? 1000;
  }

  /** Registers a job (before or after start). Master-only jobs are ignored on other nodes. */
  add(job: Job): this {
    if (this.slots.has(job.name)) throw new Error(`job ${job.name} is already registered`);
    if (job.masterOnly && !this.options.master) return this;
    const slot: Slot = { job, timer: null, running: Promise.resolve(), busy: false, lastEnd: Date.now() };
    this.slots.set(job.name, slot);
    if (this.started && !this.stopped) this.schedule(slot);
    return this;
  }

  /** The leased jobs of this process and whether it held each one's lease at its last try (metrics). */
  leaseStates(): Array<[name: string, holding: boolean]> {
    const lease = this.options.lease;
    if (!lease) return [];
    return [...this.slots.values()].filter((s) => s.job.leased).map((s) => [s.job.name, lease.holding(s.job.name)]);
  }

  /** The names of the jobs this process runs. */
  get names(): string[] {
    return [...this.slots.keys()];
  }

  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    const now = Date.now();
    for (const slot of this.slots.values()) {
      slot.lastEnd = now;
      this.schedule(slot);
    }
    this.keepLeases();
  }

  /*
   * The leases are held from the start and renewed between runs, not only taken when a job runs: a job that runs
   * hourly would otherwise be led by nobody (and read 0 on every node's switchyard_job_leader) until its first run,
   * and its lease (40 s) would lapse between runs, so any node could take the next one.
   */
  private keepLeases(): void {
    const lease = this.options.lease;
    if (!lease || this.stopped) return;
    const names = [...this.slots.values()].filter((s) => s.job.leased).map((s) => s.job.name);
    this.renewing = Promise.all(names.map((name) => lease.hold(name).catch(() => false))).then(() => undefined);
    void this.renewing.then(() => {
      if (this.stopped) return;
      this.leaseTimer = setTimeout(() => this.keepLeases(), this.options.leaseRenewMs ?? lease.ttlMs / 4);
      this.leaseTimer.unref();
    });
  }

  /** Runs a job now, after a run in progress; its schedule restarts from the end of this run. */
  async runNow(name: string): Promise<void> {
    const slot = this.slots.get(name);
    if (!slot) throw new Error(`no job named ${name}`);
    await this.execute(slot);
    if (this.started) this.schedule(slot);
  }

  /** Stops scheduling, waits for runs in progress, then runs the runOnStop jobs once more. Safe to call twice. */
  async stop(): Promise<void> {
    const first = !this.stopped;
    this.stopped = true;
    for (const slot of this.slots.values()) {
      if (slot.timer) clearTimeout(slot.timer);
      slot.timer = null;
    }
    if (this.leaseTimer) clearTimeout(this.leaseTimer);
    this.leaseTimer = null;
    await this.renewing;
    await Promise.all([...this.slots.values()].map((slot) => slot.running));
    if (!first) return;
    await Promise.all([...this.slots.values()].filter((slot) => slot.job.runOnStop).map((slot) => this.execute(slot)));
    await this.options.lease?.releaseAll();
  }

  private intervalOf(slot: Slot): number | null {
    let ms: number;
    try {
      ms = slot.job.interval();
    } catch (err) {
      this.log.error({ err, job: slot.job.name }, 'reading the job interval failed');
      return null;
    }
    if (!Number.isFinite(ms) || ms <= 0) return null;
    return Math.max(this.minIntervalMs, ms);
  }

  /** (Re)arms the slot's one timer. */
  private schedule(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    if (this.stopped) return;
    const interval = this.intervalOf(slot);
    const wait = interval === null ? this.recheckMs : Math.min(this.recheckMs, Math.max(0, slot.lastEnd + interval - Date.now()));
    slot.timer = setTimeout(() => this.tick(slot), wait);
    slot.timer.unref();
  }

  private tick(slot: Slot): void {
    slot.timer = null;
    if (this.stopped) return;
    const interval = this.intervalOf(slot);
    if (interval === null || slot.busy || Date.now() < slot.lastEnd + interval) {
      this.schedule(slot);
      return;
    }
    void this.execute(slot).then(() => this.schedule(slot));
  }

  /** Chains one run after the slot's current one; a failure is logged, never thrown. */
  private execute(slot: Slot): Promise<void> {
    slot.running = slot.running.then(async () => {
      slot.busy = true;
      try {
        const lease = slot.job.leased ? this.options.lease : undefined;
        if (lease && !(await lease.hold(slot.job.name))) return;
        await slot.job.run();
      } catch (err) {
        this.log.error({ err, job: slot.job.name }, 'background job failed');
      } finally {
        slot.busy = false;
        slot.lastEnd = Date.now();
      }
    });
    return slot.running;
  }
}
