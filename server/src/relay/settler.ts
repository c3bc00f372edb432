import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/schema.js';
import { repairLogRow } from '../store/log-row.js';
import { applySettlements, applySettlementsIsolated, pruneSettlementBatches, settlementBatchWritten, type Settlement } from '../store/quota.js';
import { databaseCannotWrite } from '../store/write-failure.js';

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
/** Batch records older than this are pruned (every PRUNE_EVERY batches): only a batch still in doubt is looked up. */
const BATCH_RECORD_SECONDS = 3600;
const PRUNE_EVERY = 1000;

/** A batch the database could not take, kept with the id its writes record, to be written again before newer calls. */
interface KeptBatch {
  id: string;
  settlements: Settlement[];
  /** Told once the batch is in the database (its journal marks it written). */
  done: (() => void) | null;
}

/**
 * Where settlements are kept durably until their batch is in the database (settlement-journal/journal.ts), so a
 * process killed meanwhile loses none of the calls it answered.
 */
export interface SettlementRecord {
  /** Keeps one settlement; called before the call's answer ends. Never throws (a failure shows in `failed`). */
  append(s: Settlement): void;
  /** Runs an answer's last write once every settlement appended so far is kept (or could not be: never held back). */
  whenWritten(lastWrite: () => void): void;
  /** The settlements appended since the last batch form batch `id`; returns what to call once it is written. */
  formed(id: string): (() => void) | null;
  /** Settlements cannot be kept now: no new call should be taken. */
  readonly failed: boolean;
  close(allWritten: boolean): void;
}

/**
 * Batches the final accounting of calls: balances, counters and consume logs are written together, in one
 * transaction per batch, every `intervalMs` or every `maxBatch` calls.
 *
 * One bad row must never hold back the others: a batch the database refuses is written again with its rows repaired
 * (log-row.ts) and each log under its own savepoint, so the charges always land and a row still refused is set aside
 * into the error log, whole. Only a batch that cannot be written at all (the database is away) is kept, in order, and
 * retried. A batch is never written twice: each records its id in its own transaction, and a kept batch is first
 * looked up, since the connection may have died after the database committed it. close() writes everything still
 * queued (graceful shutdown). Each settlement is journaled (`record`, settlement-journal/) as it is added, before its
 * call's answer ends, so a process killed meanwhile loses none of them; a replay adopts the batches it left.
 */
export const DEFAULT_MAX_PENDING = 50_000;

export class Settler {
  readonly stats: SettlerStats = { batches: 0, failedBatches: 0, repairedRows: 0, setAsideRows: 0 };
  private queue: Settlement[] = [];
  private kept: KeptBatch[] = [];
  /** Settlements in `kept`, counted as they come and go (read on every call). */
  private keptSettlements = 0;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private failuresInARow = 0;
  private sincePrune = 0;
  /**
   * Settlements waiting to be written at most (SETTLEMENT_MAX_PENDING) before the relay takes no new calls: the
   * database is away or too slow, and what is owed must not pile up in memory without end.
   */
  maxPending = DEFAULT_MAX_PENDING;
  /**
   * Told of every batch written (whole or row by row) and how long its writing took, e.g. so calls waiting for
   * balance try again.
   */
  onWritten: ((batch: readonly Settlement[], seconds: number) => void) | null = null;
  /** Each settlement is kept here before it is queued (none: held in memory only until written). */
  record: SettlementRecord | null = null;
  /** Writes batches replayed from a dead process's journal (store/quota.ts: applySettlements). */
  recovered = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
    private readonly intervalMs = 100,
    private readonly maxBatch = 200,
  ) {}

  /** Queues the final account of a call; called before the call's answer ends, so it is journaled first. */
  add(s: Settlement): void {
    this.record?.append(s);
    this.queue.push(s);
    if (this.queue.length >= this.maxBatch && this.failuresInARow === 0) void this.flush();
    else this.schedule(this.intervalMs);
  }

  /** Runs the last write of an answer whose call was just added, once its settlement is journaled. */
  readonly whenJournaled = (lastWrite: () => void): void => {
    if (this.record) this.record.whenWritten(lastWrite);
    else lastWrite();
  };

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
    if (this.pending === 0) return;
    this.flushing = this.writeAll().finally(() => {
      this.flushing = null;
    });
    await this.flushing;
  }

  /** Kept batches first, in order (one that fails again ends the round), then what is queued as a new batch. */
  private async writeAll(): Promise<void> {
    while (this.kept.length > 0) {
      if (!(await this.write(this.kept[0]))) return;
      this.keptSettlements -= this.kept.shift()!.settlements.length;
    }
    if (this.queue.length === 0) return;
    const id = randomBytes(16).toString('hex');
    const batch: KeptBatch = { id, settlements: this.queue, done: this.record?.formed(id) ?? null };
    this.queue = [];
    if (!(await this.write(batch))) {
      this.kept.push(batch);
      this.keptSettlements += batch.settlements.length;
    }
  }

  /** One attempt at a batch; false when the database could not take it (then a retry is scheduled). */
  private async write(batch: KeptBatch): Promise<boolean> {
    const started = performance.now();
    try {
      // A batch kept after a failed attempt may have been committed all the same, its answer lost with the connection.
      if (batch !== this.kept[0] || !(await settlementBatchWritten(this.db, batch.id))) {
        await applySettlements(this.db, batch.settlements, batch.id, this.recovered);
      } else {
        this.log.warn({ size: batch.settlements.length }, 'a settlement batch whose commit was in doubt had been written; not writing it again');
      }
      this.written(batch, started);
      return true;
    } catch (err) {
      this.stats.failedBatches++;
      // Not the rows' fault: writing them one by one would fail the same way.
      if (databaseCannotWrite(err)) return this.retryLater(batch, err);
      this.log.warn({ err, size: batch.settlements.length }, 'settlement batch refused; writing it row by row');
    }
    batch.settlements = batch.settlements.map((s) => this.repaired(s));
    try {
      const refused = await applySettlementsIsolated(this.db, batch.settlements, batch.id, this.recovered);
      for (const row of refused) {
        this.stats.setAsideRows++;
        this.log.error({ row }, 'consume log refused by the database: its charge is applied, the row is set aside here');
      }
      this.written(batch, started);
      return true;
    } catch (err) {
      return this.retryLater(batch, err);
    }
  }

  /** Nothing could be written: the database is away. The batch stays ahead of newer calls and is tried again. */
  private retryLater(batch: KeptBatch, err: unknown): false {
    const wait = RETRY_MS[Math.min(this.failuresInARow, RETRY_MS.length - 1)];
    this.failuresInARow++;
    this.log.error({ err, size: batch.settlements.length, pending: this.pending + batch.settlements.length, retryInMs: wait }, 'settlement write failed; will retry');
    this.schedule(wait);
    return false;
  }

  private written(batch: KeptBatch, started: number): void {
    this.stats.batches++;
    this.failuresInARow = 0;
    batch.done?.();
    if (this.queue.length > 0) this.schedule(this.intervalMs);
    this.onWritten?.(batch.settlements, (performance.now() - started) / 1000);
    if (++this.sincePrune >= PRUNE_EVERY) {
      this.sincePrune = 0;
      pruneSettlementBatches(this.db, Math.floor(Date.now() / 1000) - BATCH_RECORD_SECONDS).catch((err: unknown) =>
        this.log.warn({ err }, 'pruning settlement batch records failed'),
      );
    }
  }

  private repaired(s: Settlement): Settlement {
    if (!s.log) return s;
    const { row, changed } = repairLogRow(s.log);
    if (changed.length === 0) return s;
    this.stats.repairedRows++;
    this.log.error({ row: s.log, changed }, 'consume log repaired before writing');
    return { ...s, log: row };
  }

  /**
   * A batch an earlier process formed (replayed from its journal): written before anything queued here, once it is
   * known not to be in the database already (a kept batch is always looked up first).
   */
  adopt(id: string, settlements: Settlement[], done: (() => void) | null): void {
    if (settlements.length === 0) return;
    this.kept.push({ id, settlements, done });
    this.keptSettlements += settlements.length;
    this.schedule(0);
  }

  /** Too many settlements wait to be written for another call to be taken, or they cannot be journaled. */
  get full(): boolean {
    return this.queue.length + this.keptSettlements >= this.maxPending || (this.record?.failed ?? false);
  }

  /** Settlements not yet written (queued, or kept after a failed write). */
  get pending(): number {
    return this.queue.length + this.keptSettlements;
  }

  /**
   * Writes what is queued, retrying while the database is away, until `deadline` (ms since the epoch, default 5 s
   * from now). Resolves with the number of settlements still unwritten.
   */
  async close(deadline = Date.now() + 5000): Promise<number> {
    while ((this.pending > 0 || this.flushing) && Date.now() < deadline) {
      const before = this.failuresInARow;
      await this.flush();
      if (this.failuresInARow > before && this.pending > 0) {
        await new Promise((r) => setTimeout(r, Math.min(RETRY_MS[0], Math.max(0, deadline - Date.now()))));
      }
    }
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.pending > 0) {
      const settlements = [...this.kept.flatMap((k) => k.settlements), ...this.queue];
      this.log.error({ pending: settlements.length, settlements }, 'settlements left unwritten at shutdown');
    }
    this.record?.close(this.pending === 0);
    return this.pending;
  }
}
