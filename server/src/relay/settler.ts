import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/schema.js';
import { applySettlements, type Settlement } from '../store/quota.js';

/**
 * Batches the final accounting of calls: balances, counters and consume logs are written together, in one
 * transaction per batch, every `intervalMs` or every `maxBatch` calls. A failed write keeps its batch and tries
 * again; close() writes everything still queued (graceful shutdown).
 */
export class Settler {
  private queue: Settlement[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
    private readonly intervalMs = 100,
    private readonly maxBatch = 200,
  ) {}

  add(s: Settlement): void {
    this.queue.push(s);
    if (this.queue.length >= this.maxBatch) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.intervalMs);
      this.timer.unref();
    }
  }

  /** Writes everything queued so far; resolves when it is in the database. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    while (this.flushing) await this.flushing;
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    this.flushing = applySettlements(this.db, batch)
      .catch((err: unknown) => {
        this.log.error({ err, size: batch.length }, 'settlement write failed; will retry');
        this.queue = batch.concat(this.queue);
        if (!this.timer) {
          this.timer = setTimeout(() => void this.flush(), 1000);
          this.timer.unref();
        }
      })
      .finally(() => {
        this.flushing = null;
      });
    await this.flushing;
  }

  get pending(): number {
    return this.queue.length;
  }

  async close(): Promise<void> {
    for (let i = 0; i < 5 && (this.queue.length > 0 || this.flushing); i++) await this.flush();
  }
}
