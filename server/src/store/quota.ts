import { CompiledQuery, sql, type Kysely, type Transaction } from 'kysely';
import type { Database, NewLog } from '../db/schema.js';
import { sqliteHandleOf } from '../db/sqlite-handle.js';
import { reserveSync, settleSync, settleSyncIsolated, type BalanceChanges } from './quota-sqlite.js';
import { databaseCannotWrite } from './write-failure.js';
import { newReservationId, OWN_HOLDER } from './reservations.js';

/*
 * Every change of a balance made by the relay goes through here: conditional updates inside transactions that
 * report whether they happened. Integers only.
 */

type Db = Kysely<Database> | Transaction<Database>;

export interface Reservation {
  userId: number;
  /** 0 for calls that charge the user only (playground). */
  tokenId: number;
  tokenUnlimited: boolean;
  amount: number;
  /** Set once taken: the journal row (store/reservations.ts) its settlement deletes. */
  id?: string;
}

export type ReserveOutcome = 'ok' | 'user_short' | 'token_short';

/** Takes `amount` from the user and (unless unlimited or absent) the token, both or neither. */
export async function reserveQuota(db: Kysely<Database>, r: Reservation): Promise<ReserveOutcome> {
  if (r.amount <= 0) return 'ok';
  const id = newReservationId();
  const tokenTaken = r.tokenId > 0 && !r.tokenUnlimited ? r.tokenId : 0;
  const sqlite = sqliteHandleOf(db);
  if (sqlite) {
    const outcome = reserveSync(sqlite, r.userId, tokenTaken, r.amount, { id, holder: OWN_HOLDER, createdAt: Math.floor(Date.now() / 1000) });
    if (outcome === 'ok') r.id = id;
    if (outcome) return outcome;
  }
  const outcome = await db.transaction().execute(async (trx): Promise<ReserveOutcome> => {
    const user = await trx
      .updateTable('users')
      .set({ quota: sql`quota - ${r.amount}` })
      .where('id', '=', r.userId)
      .where('quota', '>=', r.amount)
      .executeTakeFirst();
    if (Number(user.numUpdatedRows) !== 1) return 'user_short';
    if (r.tokenId > 0 && !r.tokenUnlimited) {
      const token = await trx
        .updateTable('tokens')
        .set({ remain_quota: sql`remain_quota - ${r.amount}` })
        .where('id', '=', r.tokenId)
        .where('remain_quota', '>=', r.amount)
        .executeTakeFirst();
      if (Number(token.numUpdatedRows) !== 1) {
        // Undo the user's part inside the same transaction: rolling back by hand keeps one code path for all dialects.
        await trx.updateTable('users').set({ quota: sql`quota + ${r.amount}` }).where('id', '=', r.userId).execute();
        return 'token_short';
      }
    }
    await trx
      .insertInto('reservations')
      .values({ id, holder: OWN_HOLDER, user_id: r.userId, token_id: tokenTaken, amount: r.amount, created_at: Math.floor(Date.now() / 1000) })
      .execute();
    return 'ok';
  });
  if (outcome === 'ok') r.id = id;
  return outcome;
}

/** The final account of one call: what was reserved, what it cost, and its log row. */
export interface Settlement {
  reservation: Reservation;
  cost: number;
  channelId: number;
  /** Counts toward request_count (false for refunds of calls that never reached an upstream). */
  countsAsRequest: boolean;
  log: NewLog | null;
}

/**
 * Applies settlements in one transaction: the difference between cost and reservation moves the balances, used
 * quota and request counts grow, channels' used quota grows, and each call's consume log is written with it —
 * so the logs always add up to the balances. `batchId` is recorded in the same transaction (settlement_batches),
 * so after a commit whose answer was lost, or a process that died right after it (its journal replayed by another,
 * relay/settlement-journal.ts), `settlementBatchWritten` tells whether it happened.
 *
 * `recovered`: settlements of a process that died, replayed from its journal. Their reservations may have been given
 * back meanwhile (store/reservations.ts releases what a dead process held): each is taken back here, and one already
 * given back counts as no reservation, so the call is charged its whole cost once and nothing is given twice.
 */
export async function applySettlements(db: Kysely<Database>, batch: Settlement[], batchId?: string, recovered = false): Promise<void> {
  if (batch.length === 0) return;
  const sqlite = recovered ? undefined : sqliteHandleOf(db);
  if (sqlite && settleSync(sqlite, balanceChanges(batch), batchId)) return;
  await db.transaction().execute(async (trx) => {
    const changes = balanceChanges(recovered ? await takeBackReservations(trx, batch) : batch);
    await recordBatch(trx, batchId);
    await applyBalances(trx, changes);
    const { logs } = changes;
    for (let i = 0; i < logs.length; i += 100) await insertLogs(db, trx, logs.slice(i, i + 100));
  });
}

/**
 * The same writes as applySettlements, each consume log inserted on its own under a savepoint: a row the database
 * refuses is rolled back alone and returned, while the balances and every other row are written. For a batch that
 * failed as a whole; slower, so never the first try. A log the database cannot write whatever it holds (the table
 * away or locked, the connection lost) fails the whole transaction instead, so the batch is kept and retried rather
 * than every log set aside.
 */
export async function applySettlementsIsolated(db: Kysely<Database>, batch: Settlement[], batchId?: string, recovered = false): Promise<NewLog[]> {
  if (batch.length === 0) return [];
  const sqlite = recovered ? undefined : sqliteHandleOf(db);
  const refusedSync = sqlite ? settleSyncIsolated(sqlite, balanceChanges(batch), batchId) : null;
  if (refusedSync) return refusedSync;
  return db.transaction().execute(async (trx) => {
    const changes = balanceChanges(recovered ? await takeBackReservations(trx, batch) : batch);
    await recordBatch(trx, batchId);
    await applyBalances(trx, changes);
    const refused: NewLog[] = [];
    for (const row of changes.logs) {
      await sql`savepoint log_row`.execute(trx);
      try {
        await trx.insertInto('logs').values(row).execute();
        await sql`release savepoint log_row`.execute(trx);
      } catch (err) {
        if (databaseCannotWrite(err)) throw err;
        await sql`rollback to savepoint log_row`.execute(trx);
        refused.push(row);
      }
    }
    return refused;
  });
}

/**
 * Deletes the journal rows of a replayed batch's reservations one by one: a row already gone was given back to its
 * user, so its settlement is applied as if nothing had been reserved. Whoever deletes a row owns its amount — the
 * release does the same — so a release running at the same time cannot give it back too.
 */
async function takeBackReservations(trx: Transaction<Database>, batch: Settlement[]): Promise<Settlement[]> {
  const taken: Settlement[] = [];
  for (const s of batch) {
    const r = s.reservation;
    if (r.id === undefined) {
      taken.push(s);
      continue;
    }
    const gone = await trx.deleteFrom('reservations').where('id', '=', r.id).executeTakeFirst();
    const amount = Number(gone.numDeletedRows) === 1 ? r.amount : 0;
    taken.push({ ...s, reservation: { ...r, amount, id: undefined } });
  }
  return taken;
}

async function recordBatch(trx: Transaction<Database>, batchId: string | undefined): Promise<void> {
  if (batchId) await trx.insertInto('settlement_batches').values({ id: batchId, created_at: Math.floor(Date.now() / 1000) }).execute();
}

/** Whether the settlement batch `batchId` was written (its commit's answer may have been lost with the connection). */
export async function settlementBatchWritten(db: Kysely<Database>, batchId: string): Promise<boolean> {
  const row = await db.selectFrom('settlement_batches').select('id').where('id', '=', batchId).executeTakeFirst();
  return row !== undefined;
}

/** Forgets the batches recorded before `before` (unix seconds): only a batch still in doubt is ever looked up. */
export async function pruneSettlementBatches(db: Kysely<Database>, before: number): Promise<void> {
  await db.deleteFrom('settlement_batches').where('created_at', '<', before).execute();
}

async function applyBalances(trx: Transaction<Database>, changes: BalanceChanges): Promise<void> {
  for (const [id, u] of changes.users) {
    await trx
      .updateTable('users')
      .set({
        quota: sql`quota - ${u.delta}`,
        used_quota: sql`used_quota + ${u.used}`,
        request_count: sql`request_count + ${u.requests}`,
      })
      .where('id', '=', id)
      .execute();
  }
  for (const [id, t] of changes.tokens) {
    await trx
      .updateTable('tokens')
      .set({ remain_quota: sql`remain_quota - ${t.delta}`, used_quota: sql`used_quota + ${t.used}` })
      .where('id', '=', id)
      .execute();
  }
  for (const [id, used] of changes.channels) {
    await trx.updateTable('channels').set({ used_quota: sql`used_quota + ${used}` }).where('id', '=', id).execute();
  }
  const { reservations } = changes;
  for (let i = 0; i < reservations.length; i += 500) await trx.deleteFrom('reservations').where('id', 'in', reservations.slice(i, i + 500)).execute();
}

/** What a batch changes: per user, token and channel summed, rows with nothing to change left out; the logs. */
function balanceChanges(batch: Settlement[]): BalanceChanges {
  const users = new Map<number, { delta: number; used: number; requests: number }>();
  const tokens = new Map<number, { delta: number; used: number }>();
  const channels = new Map<number, number>();
  const logs: NewLog[] = [];
  const reservations: string[] = [];
  for (const s of batch) {
    const r = s.reservation;
    if (r.id !== undefined) reservations.push(r.id);
    const delta = s.cost - r.amount;
    const u = users.get(r.userId) ?? { delta: 0, used: 0, requests: 0 };
    u.delta += delta;
    u.used += s.cost;
    u.requests += s.countsAsRequest ? 1 : 0;
    users.set(r.userId, u);
    if (r.tokenId > 0) {
      const t = tokens.get(r.tokenId) ?? { delta: 0, used: 0 };
      t.delta += r.tokenUnlimited ? 0 : delta;
      t.used += s.cost;
      tokens.set(r.tokenId, t);
    }
    if (s.channelId > 0 && s.cost > 0) channels.set(s.channelId, (channels.get(s.channelId) ?? 0) + s.cost);
    if (s.log) logs.push(s.log);
  }
  for (const [id, u] of users) if (u.delta === 0 && u.used === 0 && u.requests === 0) users.delete(id);
  for (const [id, t] of tokens) if (t.delta === 0 && t.used === 0) tokens.delete(id);
  return { users, tokens, channels, logs, reservations };
}

/*
 * Consume logs are inserted in chunks of up to 100 rows, all built alike: compiling such a statement is the same
 * work every time. The SQL of each (database, columns, row count) is kept after one compile — and only when the
 * parameters that compile produced are exactly the row values in order, so the cached SQL always means what a
 * fresh compile would.
 */
const insertSqlCache = new WeakMap<Kysely<Database>, Map<string, string>>();

function rowParameters(rows: NewLog[], columns: string[]): unknown[] | null {
  const params: unknown[] = [];
  for (const row of rows) {
    const keys = Object.keys(row);
    if (keys.length !== columns.length) return null;
    for (let c = 0; c < columns.length; c++) {
      if (keys[c] !== columns[c]) return null;
      const v = (row as Record<string, unknown>)[columns[c]];
      if (v === undefined || v === null || typeof v === 'object') return null;
      params.push(v);
    }
  }
  return params;
}

async function insertLogs(db: Kysely<Database>, trx: Transaction<Database>, rows: NewLog[]): Promise<void> {
  const columns = Object.keys(rows[0]);
  const params = rowParameters(rows, columns);
  if (!params) {
    await trx.insertInto('logs').values(rows).execute();
    return;
  }
  let cache = insertSqlCache.get(db);
  if (!cache) {
    cache = new Map();
    insertSqlCache.set(db, cache);
  }
  const key = `${rows.length}:${columns.join(',')}`;
  const cached = cache.get(key);
  if (cached !== undefined) {
    await trx.executeQuery(CompiledQuery.raw(cached, params));
    return;
  }
  const compiled = trx.insertInto('logs').values(rows).compile();
  const same = compiled.parameters.length === params.length && compiled.parameters.every((p, i) => p === params[i]);
  if (same && cache.size < 256) cache.set(key, compiled.sql);
  await trx.executeQuery(compiled);
}

export async function userQuota(db: Db, id: number): Promise<number> {
  const row = await db.selectFrom('users').select('quota').where('id', '=', id).executeTakeFirst();
  return row?.quota ?? 0;
}
