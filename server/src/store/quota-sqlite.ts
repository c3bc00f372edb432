import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import type { NewLog } from '../db/schema.js';
import { databaseCannotWrite } from './write-failure.js';

/*
 * The relay's balance writes on SQLite, run synchronously with prepared statements: one settlement batch or one
 * reservation is a single transaction that nothing can interleave (better-sqlite3 answers on this thread), and it
 * skips Kysely's query building and the promise hops between statements. Each begins IMMEDIATE: the write lock is
 * taken first, so a node's other worker processes writing the same file make it wait (busy_timeout), never fail. The statements say exactly what the
 * Kysely versions in quota.ts say; the store tests run both against the same expectations.
 *
 * Kysely shares this connection. While it holds a transaction open (between the awaits of a transaction callback)
 * these functions must not start one of their own, or their writes would join that transaction; they then answer
 * null and the caller takes the Kysely path, which waits for the connection.
 */

/** Every column of a consume log the relay writes, in a fixed order (the insert's parameters follow it). */
export const LOG_COLUMNS = [
  'user_id',
  'created_at',
  'type',
  'content',
  'username',
  'token_name',
  'model_name',
  'quota',
  'prompt_tokens',
  'completion_tokens',
  'use_time',
  'is_stream',
  'channel_id',
  'token_id',
  'group',
  'ip',
  'other',
  'cache_tokens',
] as const satisfies ReadonlyArray<keyof NewLog>;

/** A column a log may leave out (its default, 0, is written): logs other than the relay's have no cache reads. */
const present = (row: Record<string, unknown>, column: (typeof LOG_COLUMNS)[number]): boolean => row[column] !== undefined || column === 'cache_tokens';

/** Rows per insert statement: logs go in as many of the largest as fit, then the smaller ones. */
const INSERT_SIZES = [100, 10, 1] as const;

export interface BalanceChanges {
  users: Map<number, { delta: number; used: number; requests: number }>;
  tokens: Map<number, { delta: number; used: number }>;
  channels: Map<number, number>;
  logs: NewLog[];
  /** Journal rows of the settled reservations, deleted with the batch. */
  reservations: string[];
}

/** The journal row a reservation writes with itself (store/reservations.ts). */
export interface JournalEntry {
  id: string;
  holder: string;
  createdAt: number;
}

class Statements {
  readonly reserveUser: Statement;
  readonly reserveToken: Statement;
  readonly unreserveUser: Statement;
  readonly settleUser: Statement;
  readonly settleToken: Statement;
  readonly settleChannel: Statement;
  readonly journal: Statement;
  readonly unjournal: Statement;
  readonly recordBatch: Statement;
  private readonly inserts = new Map<number, Statement>();

  constructor(private readonly db: SqliteDatabase) {
    this.reserveUser = db.prepare('update "users" set "quota" = "quota" - ? where "id" = ? and "quota" >= ?');
    this.reserveToken = db.prepare('update "tokens" set "remain_quota" = "remain_quota" - ? where "id" = ? and "remain_quota" >= ?');
    this.unreserveUser = db.prepare('update "users" set "quota" = "quota" + ? where "id" = ?');
    this.settleUser = db.prepare(
      'update "users" set "quota" = "quota" - ?, "used_quota" = "used_quota" + ?, "request_count" = "request_count" + ? where "id" = ?',
    );
    this.settleToken = db.prepare('update "tokens" set "remain_quota" = "remain_quota" - ?, "used_quota" = "used_quota" + ? where "id" = ?');
    this.settleChannel = db.prepare('update "channels" set "used_quota" = "used_quota" + ? where "id" = ?');
    this.journal = db.prepare('insert into "reservations" ("id", "holder", "user_id", "token_id", "amount", "created_at") values (?, ?, ?, ?, ?, ?)');
    this.unjournal = db.prepare('delete from "reservations" where "id" = ?');
    this.recordBatch = db.prepare('insert into "settlement_batches" ("id", "created_at") values (?, ?)');
  }

  insertLogs(rows: number): Statement {
    let stmt = this.inserts.get(rows);
    if (!stmt) {
      const one = `(${LOG_COLUMNS.map(() => '?').join(', ')})`;
      const values = Array.from({ length: rows }, () => one).join(', ');
      stmt = this.db.prepare(`insert into "logs" (${LOG_COLUMNS.map((c) => `"${c}"`).join(', ')}) values ${values}`);
      this.inserts.set(rows, stmt);
    }
    return stmt;
  }
}

const prepared = new WeakMap<SqliteDatabase, Statements>();

function statementsOf(db: SqliteDatabase): Statements {
  let s = prepared.get(db);
  if (!s) {
    s = new Statements(db);
    prepared.set(db, s);
  }
  return s;
}

/** Takes `amount` from the user and (unless unlimited or absent) the token, both or neither; null when busy. */
export function reserveSync(
  db: SqliteDatabase,
  userId: number,
  tokenId: number,
  amount: number,
  entry: JournalEntry,
): 'ok' | 'user_short' | 'token_short' | null {
  if (db.inTransaction) return null;
  const s = statementsOf(db);
  return db.transaction(() => {
    if (s.reserveUser.run(amount, userId, amount).changes !== 1) return 'user_short' as const;
    if (tokenId > 0 && s.reserveToken.run(amount, tokenId, amount).changes !== 1) {
      s.unreserveUser.run(amount, userId);
      return 'token_short' as const;
    }
    s.journal.run(entry.id, entry.holder, userId, tokenId, amount, entry.createdAt);
    return 'ok' as const;
  }).immediate();
}

function settleBalances(s: Statements, changes: BalanceChanges, batchId: string | undefined): void {
  if (batchId) s.recordBatch.run(batchId, Math.floor(Date.now() / 1000));
  for (const [id, u] of changes.users) s.settleUser.run(u.delta, u.used, u.requests, id);
  for (const [id, t] of changes.tokens) s.settleToken.run(t.delta, t.used, id);
  for (const [id, used] of changes.channels) s.settleChannel.run(used, id);
  for (const id of changes.reservations) s.unjournal.run(id);
}

/**
 * settleSync with each log inserted under its own savepoint (better-sqlite3 nests transactions that way): the rows
 * the database refuses are rolled back alone and returned. Null when busy or a log lacks a column. A log the database
 * cannot write whatever it holds (the table away, the file locked) throws, and nothing of the batch is written.
 */
export function settleSyncIsolated(db: SqliteDatabase, changes: BalanceChanges, batchId?: string): NewLog[] | null {
  if (db.inTransaction) return null;
  const rows = changes.logs as Array<Record<string, unknown>>;
  for (const row of rows) {
    for (const column of LOG_COLUMNS) if (!present(row, column)) return null;
  }
  const s = statementsOf(db);
  const insertOne = s.insertLogs(1);
  const refused: NewLog[] = [];
  db.transaction(() => {
    settleBalances(s, changes, batchId);
    for (const row of rows) {
      try {
        db.transaction(() => insertOne.run(LOG_COLUMNS.map((column) => row[column] ?? 0)))();
      } catch (err) {
        if (databaseCannotWrite(err)) throw err;
        refused.push(row as NewLog);
      }
    }
  }).immediate();
  return refused;
}

/**
 * Applies one batch of settlements in one transaction, recording `batchId` with it; false when busy or a log lacks a
 * column (nothing written).
 */
export function settleSync(db: SqliteDatabase, changes: BalanceChanges, batchId?: string): boolean {
  if (db.inTransaction) return false;
  for (const row of changes.logs as Array<Record<string, unknown>>) {
    for (const column of LOG_COLUMNS) if (!present(row, column)) return false;
  }
  const s = statementsOf(db);
  db.transaction(() => {
    settleBalances(s, changes, batchId);
    const { logs } = changes;
    let at = 0;
    for (const size of INSERT_SIZES) {
      if (logs.length - at < size) continue;
      const stmt = s.insertLogs(size);
      const params: unknown[] = new Array(size * LOG_COLUMNS.length);
      for (; logs.length - at >= size; at += size) {
        let p = 0;
        for (let r = at; r < at + size; r++) {
          const row = logs[r] as Record<string, unknown>;
          for (const column of LOG_COLUMNS) params[p++] = row[column] ?? 0;
        }
        stmt.run(params);
      }
    }
  }).immediate();
  return true;
}
