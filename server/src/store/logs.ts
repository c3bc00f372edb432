import type { Kysely, Transaction } from 'kysely';
import { LOG_TYPE } from '@switchyard/shared';
import type { Database, NewLog } from '../db/schema.js';
import { nowSeconds } from '../lib/time.js';
import { BatchQueue } from '../lib/batch-queue.js';
import { repairLogRow } from './log-row.js';

type Db = Kysely<Database>;

/** A log line that is not a relay consumption: top-up (1), manage (3) or system (4), see LOG_TYPE. */
export interface LogInput {
  userId: number;
  type: number;
  content: string;
  /** Looked up from the user when omitted. */
  username?: string;
  quota?: number;
}

/** Writes one manage / system / top-up log. Pass a transaction to make it part of the change it records. */
export async function recordLog(db: Db, entry: LogInput): Promise<void> {
  let username = entry.username;
  if (username === undefined) {
    const user = await db.selectFrom('users').select('username').where('id', '=', entry.userId).executeTakeFirst();
    username = user?.username ?? '';
  }
  await db
    .insertInto('logs')
    .values({
      user_id: entry.userId,
      created_at: nowSeconds(),
      type: entry.type,
      content: entry.content,
      username,
      token_name: '',
      model_name: '',
      quota: entry.quota ?? 0,
      prompt_tokens: 0,
      completion_tokens: 0,
      use_time: 0,
      is_stream: 0,
      channel_id: 0,
      token_id: 0,
      group: '',
      ip: '',
      other: '',
    })
    .execute();
}

export interface QuotaDisplayOptions {
  quotaPerUnit: number;
  displayInCurrency: boolean;
}

/**
 * A quota amount inside a log text, as operators of established gateways read it:
 * `＄1.000000 额度` when amounts show in currency, else `500000 点额度`.
 */
export function logQuota(quota: number, display: QuotaDisplayOptions): string {
  if (display.displayInCurrency) return `＄${(quota / (display.quotaPerUnit || 500000)).toFixed(6)} 额度`;
  return `${quota} 点额度`;
}

// ---- consume logs (the relay) ----

/** Every field of a consume log (spec §3 Log entry). */
export interface ConsumeLogInput {
  userId: number;
  username: string;
  tokenId: number;
  tokenName: string;
  modelName: string;
  quota: number;
  promptTokens: number;
  completionTokens: number;
  /** The prompt tokens the provider's cache served (included in promptTokens); 0 when not given. */
  cacheTokens?: number;
  /** Seconds. */
  useTime: number;
  isStream: boolean;
  channelId: number;
  group: string;
  ip?: string;
  content?: string;
  /** frt, model_ratio, completion_ratio, group_ratio, model_price, admin_info.use_channel ...; stored as JSON text. */
  other?: Record<string, unknown> | string;
  /** Unix seconds; now when omitted. */
  createdAt?: number;
}

/** The row of a consume log, for callers that write it inside their own transaction (or through LogWriter). */
export function consumeLogRow(entry: ConsumeLogInput): NewLog {
  return {
    user_id: entry.userId,
    created_at: entry.createdAt ?? nowSeconds(),
    type: LOG_TYPE.CONSUME,
    content: entry.content ?? '',
    username: entry.username,
    token_name: entry.tokenName,
    model_name: entry.modelName,
    quota: entry.quota,
    prompt_tokens: entry.promptTokens,
    completion_tokens: entry.completionTokens,
    use_time: Math.max(0, Math.round(entry.useTime)),
    is_stream: entry.isStream ? 1 : 0,
    channel_id: entry.channelId,
    token_id: entry.tokenId,
    group: entry.group,
    ip: entry.ip ?? '',
    other: typeof entry.other === 'string' ? entry.other : JSON.stringify(entry.other ?? {}),
    cache_tokens: entry.cacheTokens ?? 0,
  };
}

export async function recordConsumeLog(db: Db | Transaction<Database>, entry: ConsumeLogInput): Promise<void> {
  await db.insertInto('logs').values(consumeLogRow(entry)).execute();
}

export interface LogWriterOptions {
  /** Flush at least this often (ms). */
  intervalMs?: number;
  /** Flush as soon as this many rows wait. */
  maxBatch?: number;
  /** A batch could not be written at all (the database is away): it is kept and retried. */
  onError?: (err: unknown, pending: number) => void;
  /** A row the database refused even repaired, set aside here (the caller puts it in the error log). */
  onRefused?: (row: NewLog, err: unknown) => void;
}

/** Rows kept for a retry while the database is away; past this the oldest go to onRefused. */
const MAX_PENDING = 20_000;

/**
 * Batches log rows: they wait at most `intervalMs` (1 s) or until `maxBatch` (200) are queued, then go in one
 * transaction. Only for rows no balance depends on; close() flushes what is left (graceful shutdown). A batch the
 * database refuses is written row by row, repaired (log-row.ts), so one bad row never takes the others with it.
 */
export class LogWriter extends BatchQueue<NewLog> {
  constructor(
    private readonly db: Db,
    private readonly options: LogWriterOptions = {},
  ) {
    super(options.intervalMs ?? 1000, options.maxBatch ?? 200);
  }

  get pending(): number {
    return this.queue.length;
  }

  add(row: NewLog): void {
    this.enqueue(row);
  }

  addConsume(entry: ConsumeLogInput): void {
    this.add(consumeLogRow(entry));
  }

  protected async write(batch: NewLog[]): Promise<void> {
    if (batch.length === 0) return;
    try {
      await this.db.transaction().execute(async (trx) => {
        for (let i = 0; i < batch.length; i += 100) await trx.insertInto('logs').values(batch.slice(i, i + 100)).execute();
      });
      return;
    } catch {
      // One by one below.
    }
    let written = 0;
    let lastError: unknown = null;
    const failed: NewLog[] = [];
    for (const original of batch) {
      const row = repairLogRow(original).row;
      try {
        await this.db.insertInto('logs').values(row).execute();
        written++;
      } catch (err) {
        lastError = err;
        failed.push(row);
      }
    }
    if (written > 0 || failed.length === 0) {
      for (const row of failed) this.options.onRefused?.(row, lastError);
      return;
    }
    // Nothing went in: the database is away. Keep the rows (bounded) for the next flush.
    this.queue = failed.concat(this.queue);
    const excess = this.queue.length - MAX_PENDING;
    if (excess > 0) for (const row of this.queue.splice(0, excess)) this.options.onRefused?.(row, lastError);
    this.options.onError?.(lastError, this.queue.length);
    this.schedule();
  }

  async close(): Promise<void> {
    await this.flush();
  }
}

// The console's reads and the clearing of old logs live in log-queries.ts.
