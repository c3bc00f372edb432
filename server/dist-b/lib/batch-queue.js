/**
 * Items waiting for a batched write: written every `intervalMs` after the first one arrives, or at once when
 * `maxBatch` wait; writes never overlap. A subclass says how a batch is written, and may queue items again (with
 * `enqueue` or by putting them back in `queue`) to retry them with a later batch.
 */
export class BatchQueue {
    intervalMs;
    maxBatch;
    queue = [];
    /** The write in progress (or the last one), so an operation can wait for it. */
    flushing = Promise.resolve();
    timer = null;
    constructor(intervalMs, maxBatch) {
        this.intervalMs = intervalMs;
        this.maxBatch = maxBatch;
    }
    enqueue(item, delayMs = this.intervalMs) {
        this.queue.push(item);
        if (this.queue.length >= this.maxBatch)
            void this.flush();
        else
            this.schedule(delayMs);
    }
    /** A write of what is queued within `delayMs`, unless one is planned already. */
    schedule(delayMs = this.intervalMs) {
        if (this.timer)
            return;
        this.timer = setTimeout(() => void this.flush(), delayMs);
        this.timer.unref();
    }
    /** Writes everything queued so far; resolves when that write is done. */
    flush() {
        if (this.timer) {
            clearTimeout(this.timer);
            this.timer = null;
        }
        const batch = this.queue;
        this.queue = [];
        this.flushing = this.flushing.then(() => this.write(batch));
        return this.flushing;
    }
}
//# sourceMappingURL=batch-queue.js.map