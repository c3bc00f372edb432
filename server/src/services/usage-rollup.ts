import type { Kysely } from 'kysely';
import type { Dialect } from '../db/connect.js';
import type { Database } from '../db/schema.js';
import { addQuotaData, hourOf, type QuotaDataDelta } from '../store/quota-data.js';

/** One settled consume call, as the data dashboard counts it. */
export interface UsageEntry {
  userId: number;
  username: string;
  modelName: string;
  /** Prompt plus completion tokens. */
  tokens: number;
  quota: number;
  /** Prompt tokens (cache reads included) and the cache reads among them; 0 when not counted (tasks). */
  promptTokens?: number;
  cacheTokens?: number;
  /** Unix seconds of the call; now when omitted. */
  at?: number;
}

export interface UsageRollupOptions {
  /** The DataExportEnabled option: while off, calls are not counted. */
  enabled: () => boolean;
  onError?: (err: unknown, rows: number) => void;
}

const keyOf = (userId: number, hour: number, model: string): string => `${userId}\u0000${hour}\u0000${model}`;

/**
 * The data dashboard's roll-up, in memory: every settled consume call adds to its user x model x hour cell here
 * (no database write on the hot path), and flush() adds the cells to `quota_data` in one transaction. A failed
 * write puts its cells back, added to whatever arrived meanwhile, so nothing is counted twice or lost; the next
 * flush tries again. The job runner flushes every DataExportInterval minutes and once more on shutdown.
 */
export class UsageRollup {
  private cells = new Map<string, QuotaDataDelta>();
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly options: UsageRollupOptions,
  ) {}

  /** Cells waiting for the next flush. */
  get pending(): number {
    return this.cells.size;
  }

  record(entry: UsageEntry): void {
    if (!this.options.enabled()) return;
    const hour = hourOf(entry.at ?? Math.floor(Date.now() / 1000));
    const key = keyOf(entry.userId, hour, entry.modelName);
    const cell = this.cells.get(key);
    if (cell) {
      cell.count += 1;
      cell.tokenUsed += entry.tokens;
      cell.quota += entry.quota;
      cell.promptTokens += entry.promptTokens ?? 0;
      cell.cacheTokens += entry.cacheTokens ?? 0;
      cell.username = entry.username;
      return;
    }
    this.cells.set(key, {
      userId: entry.userId,
      username: entry.username,
      modelName: entry.modelName,
      createdAt: hour,
      count: 1,
      tokenUsed: entry.tokens,
      quota: entry.quota,
      promptTokens: entry.promptTokens ?? 0,
      cacheTokens: entry.cacheTokens ?? 0,
    });
  }

  /** Writes every cell recorded so far; resolves once they are stored (or put back after a failure). Never overlaps itself. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (this.cells.size === 0) return;
    const batch = this.cells;
    this.cells = new Map();
    try {
      await addQuotaData(this.db, this.dialect, [...batch.values()]);
    } catch (err) {
      this.restore(batch);
      this.options.onError?.(err, batch.size);
    }
  }

  private restore(batch: Map<string, QuotaDataDelta>): void {
    for (const [key, cell] of batch) {
      const newer = this.cells.get(key);
      if (newer) {
        newer.count += cell.count;
        newer.tokenUsed += cell.tokenUsed;
        newer.quota += cell.quota;
        newer.promptTokens += cell.promptTokens;
        newer.cacheTokens += cell.cacheTokens;
      } else {
        this.cells.set(key, cell);
      }
    }
  }
}
