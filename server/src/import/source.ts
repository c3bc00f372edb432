import type { Database as SqliteDatabase } from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { connect, dialectOf, type Dialect } from '../db/connect.js';

/*
 * The database to import from: an SQLite file (path or sqlite:/path, opened read-only so the incumbent's file is
 * never changed), postgres://..., mysql://... or the Go driver form user:pass@tcp(host:3306)/db.
 */

export interface SourceSpec {
  dialect: Dialect;
  /** SQLite: the file; otherwise the DSN. */
  location: string;
}

export interface SourceDb {
  // The incumbents' tables are read by name; their shape is what the catalog says, not a compile-time type.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  kysely: Kysely<any>;
  dialect: Dialect;
  /** SQLite: the file's connection, for reading pages without the query builder's per-row cost. */
  sqlite?: SqliteDatabase;
  close(): Promise<void>;
}

export function parseSource(arg: string): SourceSpec {
  const value = arg.trim();
  if (value === '') throw new Error('no source given: a SQLite file, postgres://..., mysql://... or user:pass@tcp(host:port)/db');
  if (/^postgres(ql)?:\/\//.test(value)) return { dialect: 'postgres', location: value };
  if (value.startsWith('mysql://') || /@tcp\(/.test(value)) return { dialect: 'mysql', location: value };
  if (value.startsWith('sqlite:')) return { dialect: 'sqlite', location: value.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '') };
  return { dialect: 'sqlite', location: value };
}

/** Where a source points, without its password (for messages). */
export function describeSource(spec: SourceSpec): string {
  if (spec.dialect === 'sqlite') return `SQLite ${spec.location}`;
  return `${spec.dialect} ${spec.location.replace(/:([^:@/]*)@/, ':***@')}`;
}

export async function openSource(spec: SourceSpec): Promise<SourceDb> {
  if (spec.dialect === 'sqlite') {
    const { default: Sqlite } = await import('better-sqlite3');
    const database = new Sqlite(spec.location, { readonly: true, fileMustExist: true });
    const kysely = new Kysely({ dialect: new SqliteDialect({ database }) });
    return { kysely, dialect: 'sqlite', sqlite: database, close: () => kysely.destroy() };
  }
  if (dialectOf(spec.location) !== spec.dialect) throw new Error(`not a ${spec.dialect} address: ${spec.location}`);
  const db = await connect(spec.location, '', () => {}, { maxConnections: 2, waitTimeoutMs: 30_000 });
  return { kysely: db.kysely, dialect: db.dialect, close: () => db.close() };
}
