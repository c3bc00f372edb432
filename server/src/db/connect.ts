import fs from 'node:fs';
import path from 'node:path';
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect, type Dialect as KyselyDialect } from 'kysely';
import type { Database } from './schema.js';
import type { Database as SqliteDatabase } from 'better-sqlite3';
import { registerSqliteHandle } from './sqlite-handle.js';
import { withStatementCache } from './statement-cache.js';

export type Dialect = 'sqlite' | 'postgres' | 'mysql';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

export function dialectOf(sqlDsn: string): Dialect {
  if (sqlDsn === '' || sqlDsn.startsWith('local') || sqlDsn.startsWith('sqlite:')) return 'sqlite';
  if (/^postgres(ql)?:\/\//.test(sqlDsn)) return 'postgres';
  return 'mysql';
}

/** Accepts both mysql://user:pass@host:port/db and the Go driver form user:pass@tcp(host:port)/db?params. */
export function mysqlUri(dsn: string): string {
  if (dsn.startsWith('mysql://')) return dsn;
  const m = /^([^:@]*)(?::([^@]*))?@tcp\(([^)]+)\)\/([^?]*)(\?.*)?$/.exec(dsn);
  if (!m) throw new Error('SQL_DSN is neither postgres://, mysql:// nor user:pass@tcp(host:port)/db');
  const [, user, pass = '', hostPort, dbName] = m;
  return `mysql://${encodeURIComponent(user)}:${encodeURIComponent(pass)}@${hostPort}/${dbName}`;
}

async function openSqlite(file: string): Promise<SqliteDatabase> {
  const { default: Sqlite } = await import('better-sqlite3');
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const database = new Sqlite(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  return database;
}

/** Told when the server ends a connection the pool holds idle (a restart, a failover); the pool opens another. */
export type LostConnection = (err: Error) => void;

async function postgresDialect(dsn: string, onLost: LostConnection): Promise<KyselyDialect> {
  const pg = await import('pg');
  const { Pool, types } = pg.default;
  // int8 (counts, bigint quota) and numeric (SUM) arrive as strings by default; quota stays far below 2^53.
  types.setTypeParser(20, (v: string) => Number.parseInt(v, 10));
  types.setTypeParser(1700, (v: string) => Number.parseFloat(v));
  const pool = new Pool({ connectionString: dsn, max: 20 });
  // pg emits a connection's end on the pool while the client is idle and on the client while it is checked out
  // between queries (inside a transaction); an 'error' event nobody listens to ends the process. The query that
  // needed the connection still fails where it is awaited.
  pool.on('error', onLost);
  pool.on('connect', (client) => client.on('error', onLost));
  return new PostgresDialect({ pool });
}

async function mysqlDialect(dsn: string): Promise<KyselyDialect> {
  const { createPool } = await import('mysql2');
  const pool = createPool({
    uri: mysqlUri(dsn),
    connectionLimit: 20,
    decimalNumbers: true,
    supportBigNumbers: true,
    bigNumberStrings: false,
    charset: 'utf8mb4',
  });
  return new MysqlDialect({ pool: async () => pool });
}

export async function connect(sqlDsn: string, sqlitePath: string, onLost: LostConnection = () => {}): Promise<Db> {
  const dialect = dialectOf(sqlDsn);
  if (dialect === 'sqlite') {
    const database = await openSqlite(sqlDsn.startsWith('sqlite:') ? sqlDsn.slice('sqlite:'.length) : sqlitePath);
    const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
    registerSqliteHandle(kysely, database);
    return { kysely, dialect, close: () => kysely.destroy() };
  }
  const driver = dialect === 'postgres' ? await postgresDialect(sqlDsn, onLost) : await mysqlDialect(sqlDsn);
  const kysely = new Kysely<Database>({ dialect: driver });
  return { kysely, dialect, close: () => kysely.destroy() };
}
