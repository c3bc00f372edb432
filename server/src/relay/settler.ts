import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/schema.js';
import { repairLogRow } from '../store/log-row.js';
import { applySettlements, applySettlementsIsolated, type Settlement } from '../store/quota.js';

/** What the settler has been through since start (for metrics and the error log). */
export interface SettlerStats {
  /** Batches written. */
  batches: number;
  /** Batches the database refused as a whole (then written row by row, or retried). */
  failedBatches: number;
  /** Consume logs that had to be repaired before the database took them. */
  repairedRows: number;
  /** Consume logs the database refused even repaired: their charge is applied, the row is in the error log. */
  setAsideRows: number;
}

/** Waits between retries of a batch the database could not take at all (it is down or unreachable). */
const RETRY_MS = [250, 500, 1000, 2000, 5000];

/**
 * Batches the final accounting of calls: balances, counters and consume logs are written together, in one
 * transaction per batch, every `intervalMs` or every `maxBatch` calls.
 *
 * One bad row must never hold back the others: a batch the database refuses is written again with its rows repaired
 * (log-row.ts) and each log under its own savepoint, so the charges always land and a row still refused is set aside
 * into the error log, whole. Only a batch that cannot be written at all (the database is away) is kept, in order, and
 * retried. close() writes everything still queued (graceful shutdown).
 */
export class Settler {
  readonly stats: SettlerStats = { batches: 0, failedBatches: 0, repairedRows: 0, setAsideRows: 0 };
  private queue: Settlement[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private failuresInARow = 0;
  /** Told of every batch written (whole or row by row), e.g. so calls waiting for balance try again. */
  onWritten: ((batch: readonly Settlement[]) => void) | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
    private readonly intervalMs = 100,
    private readonly maxBatch = 200,
  ) {}

  add(s: Settlement): void {
    this.queue.push(s);
    if (this.queue.length >= this.maxBatch && this.failuresInARow === 0) void this.flush();
    else this.schedule(this.intervalMs);
  }

  /** Writes what is queued as soon as the current write (if any) is done, not after the interval. */
  flushSoon(): void {
    if (this.queue.length === 0 || this.failuresInARow > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush(), ms);
    this.timer.unref();
  }

  /** Writes everything queued so far; resolves when it is in the database or has failed this time. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    while (this.flushing) await this.flushing;
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    this.flushing = this.write(batch).finally(() => {
      this.flushing = null;
    });
    await this.flushing;
  }

  private async write(batch: Settlement[]): Promise<void> {
    try {
      await applySettlements(this.db, batch);
      this.written(batch);
      return;
    } catch (err) {
      this.stats.failedBatches++;
      this.log.warn({ err, size: batch.length }, 'settlement batch refused; writing it row by row');
    }
    const repaired = batch.map((s) => this.repaired(s));
    try {
      const refused = await applySettlementsIsolated(this.db, repaired);
      for (const row of refused) {
        this.stats.setAsideRows++;
        this.log.error({ row }, 'consume log refused by the database: its charge is applied, the row is set aside here');
      }
      this.written(repaired);
    } catch (err) {
      // Nothing could be written: the database is away. Keep the batch ahead of newer calls and try again.
      const wait = RETRY_MS[Math.min(this.failuresInARow, RETRY_MS.length - 1)];
      this.failuresInARow++;
      this.log.error({ err, size: repaired.length, pending: repaired.length + this.queue.length, retryInMs: wait }, 'settlement write failed; will retry');
      this.queue = repaired.concat(this.queue);
      this.schedule(wait);
    }
  }

  private written(batch: readonly Settlement[]): void {
    this.stats.batches++;
    this.failuresInARow = 0;
    if (this.queue.length > 0) this.schedule(this.intervalMs);
    this.onWritten?.(batch);
  }

  private repaired(s: Settlement): Settlement {
    if (!s.log) return s;
    const { row, changed } = repairLogRow(s.log);
    if (changed.length === 0) return s;
    this.stats.repairedRows++;
    this.log.error({ row: s.log, changed }, 'consume log repaired before writing');
    return { ...s, log: row };
  }

  get pending(): number {
    return this.queue.length;
  }

  /**
   * Writes what is queued, retrying while the database is away, until `deadline` (ms since the epoch, default 5 s
   * from now). Resolves with the number of settlements still unwritten.
   */
  async close(deadline = Date.now() + 5000): Promise<number> {
    while ((this.queue.length > 0 || this.flushing) && Date.now() < deadline) {
      const before = this.failuresInARow;
      await this.flush();
      if (this.failuresInARow > before && this.queue.length > 0) {
        await new Promise((r) => setTimeout(r, Math.min(RETRY_MS[0], Math.max(0, deadline - Date.now()))));
      }
    }
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.queue.length > 0) this.log.error({ pending: this.queue.length, settlements: this.queue }, 'settlements left unwritten at shutdown');
    return this.queue.length;
  }
}
