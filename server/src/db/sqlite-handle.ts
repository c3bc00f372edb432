import type { Database as SqliteDatabase } from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/*
 * The better-sqlite3 connection behind a Kysely instance on SQLite, for the few store functions on the relay's hot
 * path that run their statements synchronously (store/quota-sqlite.ts). Registered by connect().
 */
const handles = new WeakMap<object, SqliteDatabase>();

export function registerSqliteHandle(kysely: Kysely<Database>, database: SqliteDatabase): void {
  handles.set(kysely, database);
}

export function sqliteHandleOf(kysely: Kysely<Database>): SqliteDatabase | undefined {
  return handles.get(kysely);
}
