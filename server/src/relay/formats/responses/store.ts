import type { OptionReader } from '../../../options/index.js';
import { RelayError } from '../../errors.js';
import { keptInput } from './input-items.js';
import type { ResponseObject } from './types.js';
import { BatchQueue } from '../../../lib/batch-queue.js';

/*
 * The Responses the gateway makes itself (converted answers), kept so a conversation can continue by reference on
 * any channel: previous_response_id, item_reference, GET / DELETE /v1/responses/{id} and its input items.
 *
 * ResponsesKeeper sits in front of one backend (the SQL database, or Redis when configured: store-sql.ts,
 * store-redis.ts). A response the gateway produced is written before the last bytes of its answer go out
 * (keepNow): the client continues at once, and the next turn may reach another worker or node, which reads the
 * backend. Answers finishing together share one write; while a write is in progress the next one gathers what
 * arrives. A write that fails is retried with later batches, and until it lands this process answers from memory.
 * Every read is scoped to the caller's user: another user's response is absent.
 *
 * Bounds (options, read at each use): a response is kept ResponsesRetentionDays; one whose response and input
 * together exceed ResponsesMaxResponseMB is not kept but remembered as too large, and when a user's kept responses
 * pass ResponsesMaxUserMB the oldest are evicted. Both leave a small marker behind, so a later reference gets a 400
 * that says why instead of a bare "not found". A user's total is summed (a read of all their rows) only after this
 * node has written another sixteenth of the limit for them, so a user can pass the limit by that much per node
 * before the oldest go.
 */

type Obj = Record<string, unknown>;

export const STATE = { stored: 1, evicted: 2, tooLarge: 3 } as const;
export type StoredState = (typeof STATE)[keyof typeof STATE];

/** What a store holds for an id of the caller: the response (its input only when asked for), or a marker. */
export type Found =
  | { state: typeof STATE.stored; createdAt: number; response: ResponseObject; input?: Obj[] }
  | { state: typeof STATE.evicted | typeof STATE.tooLarge; createdAt: number };

/** One response as a backend writes it: the JSON texts, or a marker with both empty. */
export interface StoreRow {
  id: string;
  userId: number;
  createdAt: number;
  state: StoredState;
  /** Bytes of response + input (0 for a marker). */
  bytes: number;
  response: string;
  input: string;
}

export interface StoreLimits {
  /** Unix seconds: responses created before it have expired. */
  cutoff: number;
  /** A user's kept responses may take this many bytes; the oldest beyond it are evicted. */
  userBytes: number;
}

/** How a write went: the rows that could not be written (to try again), and what went wrong. */
export interface WriteOutcome {
  failed: string[];
  errors: unknown[];
}

/** A place to keep responses. Reads and deletes see only the given user's rows. */
export interface ResponsesBackend {
  read(userId: number, ids: readonly string[], withInput: boolean): Promise<Map<string, Found>>;
  /** Writes the rows; throws only when nothing could be written. */
  write(rows: readonly StoreRow[]): Promise<WriteOutcome>;
  /** Evicts the user's oldest kept responses until the rest (not expired) fit in limits.userBytes. */
  evict(userId: number, limits: StoreLimits): Promise<void>;
  delete(userId: number, id: string): Promise<boolean>;
  /** Deletes what was created before the cutoff; the number deleted (a store that expires by itself returns 0). */
  expire(cutoff: number): Promise<number>;
  close(): Promise<void>;
}

export interface KeeperLimits {
  retentionSeconds: number;
  maxResponseBytes: number;
  maxUserBytes: number;
}

const MB = 1024 * 1024;

/** The limits as the options say now. */
export function keeperLimits(options: OptionReader): KeeperLimits {
  return {
    retentionSeconds: Math.max(0, options.get('ResponsesRetentionDays')) * 86_400,
    maxResponseBytes: Math.max(0, options.get('ResponsesMaxResponseMB')) * MB,
    maxUserBytes: Math.max(0, options.get('ResponsesMaxUserMB')) * MB,
  };
}

/** The size limits in MB, as messages name them. */
export const keeperLimitsMB = (l: KeeperLimits) => ({ maxResponseMB: l.maxResponseBytes / MB, maxUserMB: l.maxUserBytes / MB });

/** A delivered response to keep: the response as the client got it and the complete input that led to it. */
export interface KeptResponse {
  id: string;
  /** The id base of the response (ids.ts), which names the input items kept without an id. */
  base: string;
  userId: number;
  createdAt: number;
  response: ResponseObject;
  /** The input as resolved (a string or the item list); made into kept items when written. */
  input: unknown;
}

class Pending {
  attempts = 0;
  private row: StoreRow | null = null;
  private items: Obj[] | null = null;

  constructor(readonly kept: KeptResponse) {}

  input(): Obj[] {
    return (this.items ??= keptInput(this.kept.input, this.kept.base));
  }

  /** Serialised once: for the write, and to answer "too large" consistently before it. */
  toRow(maxBytes: number): StoreRow {
    if (this.row) return this.row;
    const { id, userId, createdAt } = this.kept;
    const response = JSON.stringify(this.kept.response);
    const input = JSON.stringify(this.input());
    const bytes = Buffer.byteLength(response) + Buffer.byteLength(input);
    this.row =
      bytes > maxBytes
        ? { id, userId, createdAt, state: STATE.tooLarge, bytes: 0, response: '', input: '' }
        : { id, userId, createdAt, state: STATE.stored, bytes, response, input };
    return this.row;
  }
}

export interface KeeperOptions {
  /** Write at least this often (ms). */
  intervalMs?: number;
  /** Write as soon as this many responses wait. */
  maxBatch?: number;
  /** Failed writes of a response are retried with the next batches this many times before it is given up. */
  maxAttempts?: number;
  /** A write went wrong: `failed` responses will be tried again, `givenUp` will not (they answer "not found"). */
  onError?: (err: unknown, failed: number, givenUp: number) => void;
  /** A read or delete went wrong (the caller gets a 503). */
  onReadError?: (err: unknown) => void;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** How much of ResponsesMaxUserMB a node writes for a user before it sums the user's total again. */
const CHECK_EVERY = 1 / 16;

export class ResponsesKeeper extends BatchQueue<Pending> {
  private readonly pending = new Map<string, Pending>();
  /** Bytes written per user since this node last checked the user's total. */
  private readonly unchecked = new Map<number, number>();
  private readonly maxAttempts: number;

  constructor(
    private readonly backend: ResponsesBackend,
    private readonly limits: () => KeeperLimits,
    private readonly options: KeeperOptions = {},
  ) {
    super(options.intervalMs ?? 100, options.maxBatch ?? 50);
    this.maxAttempts = options.maxAttempts ?? 5;
  }

  limitsNow(): KeeperLimits {
    return this.limits();
  }

  /** Responses waiting to be written. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Queues a response to be written with the next batch (within the interval). */
  keep(kept: KeptResponse): void {
    const p = new Pending(kept);
    this.pending.set(kept.id, p);
    this.enqueue(p);
  }

  /**
   * Writes a response now and resolves once it is in the backend, where every worker and node reads it; a failed
   * write resolves too (the response is retried with later batches and answered from memory here meanwhile). Calls
   * that arrive while a write is in progress are written together by the next one.
   */
  async keepNow(kept: KeptResponse): Promise<void> {
    const p = new Pending(kept);
    this.pending.set(kept.id, p);
    this.queue.push(p);
    await this.flushing;
    // The first call to wake up writes what gathered meanwhile; the others wait for that write.
    if (this.queue.includes(p)) await this.flush();
    else await this.flushing;
  }

  /** The caller's responses among ids (with their input when asked), expired ones left out. */
  async find(userId: number, ids: readonly string[], withInput: boolean): Promise<Map<string, Found>> {
    const out = new Map<string, Found>();
    const { maxResponseBytes, retentionSeconds } = this.limits();
    const rest: string[] = [];
    for (const id of ids) {
      const p = this.pending.get(id);
      if (!p || p.kept.userId !== userId) {
        rest.push(id);
        continue;
      }
      const row = p.toRow(maxResponseBytes);
      out.set(
        id,
        row.state === STATE.stored
          ? { state: STATE.stored, createdAt: row.createdAt, response: p.kept.response, input: withInput ? p.input() : undefined }
          : { state: row.state, createdAt: row.createdAt },
      );
    }
    if (rest.length > 0) {
      const cutoff = nowSeconds() - retentionSeconds;
      for (const [id, found] of await this.unavailableOnError(this.backend.read(userId, rest, withInput))) {
        if (found.createdAt >= cutoff) out.set(id, found);
      }
    }
    return out;
  }

  /** A store that cannot be read (the database or Redis down) is a 503 to the caller, never a "not found". */
  private async unavailableOnError<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (err) {
      this.options.onReadError?.(err);
      throw new RelayError(503, '暂时无法读取已保存的响应，请稍后再试', 'responses_store_unavailable', 'server_error');
    }
  }

  async findOne(userId: number, id: string, withInput: boolean): Promise<Found | undefined> {
    return (await this.find(userId, [id], withInput)).get(id);
  }

  /** Deletes the caller's response; false when the caller has none by that id. */
  async remove(userId: number, id: string): Promise<boolean> {
    const p = this.pending.get(id);
    const mine = p !== undefined && p.kept.userId === userId;
    if (mine) {
      this.pending.delete(id);
      this.queue = this.queue.filter((q) => q !== p);
    }
    // A batch being written may hold it: delete after that write.
    await this.flushing;
    const deleted = await this.unavailableOnError(this.backend.delete(userId, id));
    return mine || deleted;
  }

  /** Deletes expired responses (the retention job). */
  expire(): Promise<number> {
    return this.backend.expire(nowSeconds() - this.limits().retentionSeconds);
  }

  async close(): Promise<void> {
    await this.flush();
    // What failed to write gets its remaining attempts now: there is no later batch.
    while (this.queue.length > 0) await this.flush();
    await this.backend.close();
  }

  protected async write(batch: Pending[]): Promise<void> {
    if (batch.length === 0) return;
    const { maxResponseBytes, maxUserBytes, retentionSeconds } = this.limits();
    const live = batch.filter((p) => this.pending.get(p.kept.id) === p);
    let outcome: WriteOutcome;
    const rows = live.map((p) => p.toRow(maxResponseBytes));
    try {
      outcome = await this.backend.write(rows);
    } catch (err) {
      outcome = { failed: live.map((p) => p.kept.id), errors: [err] };
    }
    const failed = new Set(outcome.failed);
    for (const row of rows) if (!failed.has(row.id)) this.unchecked.set(row.userId, (this.unchecked.get(row.userId) ?? 0) + row.bytes);
    await this.evictBeyond({ cutoff: nowSeconds() - retentionSeconds, userBytes: maxUserBytes }, outcome.errors);
    let givenUp = 0;
    for (const p of live) {
      if (this.pending.get(p.kept.id) !== p) continue;
      if (!failed.has(p.kept.id)) this.pending.delete(p.kept.id);
      // Again with a later batch, a second later per failure so far (about 10 s in all before giving up).
      else if (++p.attempts < this.maxAttempts) this.enqueue(p, 1000 * p.attempts);
      else {
        this.pending.delete(p.kept.id);
        givenUp++;
      }
    }
    if (outcome.errors.length > 0) this.options.onError?.(outcome.errors[0], failed.size, givenUp);
  }

  /** The per-user limit, for the users this node has written enough for since it last looked. */
  private async evictBeyond(limits: StoreLimits, errors: unknown[]): Promise<void> {
    const threshold = limits.userBytes * CHECK_EVERY;
    for (const [userId, bytes] of this.unchecked) {
      if (bytes === 0 || bytes < threshold) continue;
      this.unchecked.delete(userId);
      try {
        await this.backend.evict(userId, limits);
      } catch (err) {
        errors.push(err);
      }
    }
  }
}
