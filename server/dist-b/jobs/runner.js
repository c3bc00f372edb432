/*
 * The background loops of a server process (dashboard roll-up flush, and later channel tests, balance updates,
 * task pollers, log retention). A job is one file exporting a Job; jobs/index.ts lists them. The runner gives
 * every job the same guarantees: runs of one job never overlap, a failing run is logged and the schedule goes on,
 * the interval is read again before each wait (an option change applies without a restart), and stop() waits for
 * runs in progress, then runs the jobs that must run once more on the way out (flushing buffered data).
 */
export class JobRunner {
    log;
    options;
    slots = new Map();
    started = false;
    stopped = false;
    recheckMs;
    minIntervalMs;
    constructor(log, options) {
        this.log = log;
        this.options = options;
        this.recheckMs = options.recheckMs ?? 60_000;
        this.minIntervalMs = options.minIntervalMs ?? 1000;
    }
    /** Registers a job (before or after start). Master-only jobs are ignored on other nodes. */
    add(job) {
        if (this.slots.has(job.name))
            throw new Error(`job ${job.name} is already registered`);
        if (job.masterOnly && !this.options.master)
            return this;
        const slot = { job, timer: null, running: Promise.resolve(), busy: false, lastEnd: Date.now() };
        this.slots.set(job.name, slot);
        if (this.started && !this.stopped)
            this.schedule(slot);
        return this;
    }
    /** The names of the jobs this process runs. */
    get names() {
        return [...this.slots.keys()];
    }
    start() {
        if (this.started || this.stopped)
            return;
        this.started = true;
        const now = Date.now();
        for (const slot of this.slots.values()) {
            slot.lastEnd = now;
            this.schedule(slot);
        }
    }
    /** Runs a job now, after a run in progress; its schedule restarts from the end of this run. */
    async runNow(name) {
        const slot = this.slots.get(name);
        if (!slot)
            throw new Error(`no job named ${name}`);
        await this.execute(slot);
        if (this.started)
            this.schedule(slot);
    }
    /** Stops scheduling, waits for runs in progress, then runs the runOnStop jobs once more. Safe to call twice. */
    async stop() {
        const first = !this.stopped;
        this.stopped = true;
        for (const slot of this.slots.values()) {
            if (slot.timer)
                clearTimeout(slot.timer);
            slot.timer = null;
        }
        await Promise.all([...this.slots.values()].map((slot) => slot.running));
        if (!first)
            return;
        await Promise.all([...this.slots.values()].filter((slot) => slot.job.runOnStop).map((slot) => this.execute(slot)));
    }
    intervalOf(slot) {
        let ms;
        try {
            ms = slot.job.interval();
        }
        catch (err) {
            this.log.error({ err, job: slot.job.name }, 'reading the job interval failed');
            return null;
        }
        if (!Number.isFinite(ms) || ms <= 0)
            return null;
        return Math.max(this.minIntervalMs, ms);
    }
    /** (Re)arms the slot's one timer. */
    schedule(slot) {
        if (slot.timer)
            clearTimeout(slot.timer);
        slot.timer = null;
        if (this.stopped)
            return;
        const interval = this.intervalOf(slot);
        const wait = interval === null ? this.recheckMs : Math.min(this.recheckMs, Math.max(0, slot.lastEnd + interval - Date.now()));
        slot.timer = setTimeout(() => this.tick(slot), wait);
        slot.timer.unref();
    }
    tick(slot) {
        slot.timer = null;
        if (this.stopped)
            return;
        const interval = this.intervalOf(slot);
        if (interval === null || slot.busy || Date.now() < slot.lastEnd + interval) {
            this.schedule(slot);
            return;
        }
        void this.execute(slot).then(() => this.schedule(slot));
    }
    /** Chains one run after the slot's current one; a failure is logged, never thrown. */
    execute(slot) {
        slot.running = slot.running.then(async () => {
            slot.busy = true;
            try {
                await slot.job.run();
            }
            catch (err) {
                this.log.error({ err, job: slot.job.name }, 'background job failed');
            }
            finally {
                slot.busy = false;
                slot.lastEnd = Date.now();
            }
        });
        return slot.running;
    }
}
//# sourceMappingURL=runner.js.map