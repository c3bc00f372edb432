import fs from 'node:fs';
import path from 'node:path';
import {
  CompiledQuery,
  Kysely,
  MysqlDialect,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Dialect as KyselyDialect,
  type MysqlPool as KyselyMysqlPool,
  type SqliteDialectConfig,
} from 'kysely';
import type { Database } from './schema.js';
import type { Database as SqliteDatabase } from 'better-sqlite3';
import { registerSqliteHandle } from './sqlite-handle.js';
import { withStatementCache } from './statement-cache.js';
import type { Pool as Mysql2Pool } from 'mysql2';

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

/**
 * Transactions that take SQLite's write lock when they begin (BEGIN IMMEDIATE, waiting up to busy_timeout for it).
 * The default deferred transaction reads first and asks for the lock at its first write; when another process (a
 * worker of the same node) wrote in between, that fails at once with SQLITE_BUSY — busy_timeout does not apply to
 * it. db/sqlite-writers.test.ts shows both.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

function immediateSqliteDialect(config: SqliteDialectConfig): SqliteDialect {
  const dialect = new SqliteDialect(config);
  dialect.createDriver = () => new ImmediateSqliteDriver(config);
  return dialect;
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

/**
 * The connection pool of PostgreSQL and MySQL: `maxConnections` open at most (SQL_MAX_OPEN_CONNS), and a query waits
 * at most `waitTimeoutMs` for one of them (SQL_CONN_WAIT_TIMEOUT) before it fails, rather than queueing without end
 * behind a database that stopped answering.
 */
export interface PoolBounds {
  maxConnections: number;
  waitTimeoutMs: number;
}

export const DEFAULT_POOL: PoolBounds = { maxConnections: 20, waitTimeoutMs: 10_000 };

/** Told when the server ends a connection the pool holds idle (a restart, a failover); the pool opens another. */
export type LostConnection = (err: Error) => void;

async function postgresDialect(dsn: string, onLost: LostConnection, bounds: PoolBounds): Promise<KyselyDialect> {
  const pg = await import('pg');
  const { Pool, types } = pg.default;
  // int8 (counts, bigint quota) and numeric (SUM) arrive as strings by default; quota stays far below 2^53.
  types.setTypeParser(20, (v: string) => Number.parseInt(v, 10));
  types.setTypeParser(1700, (v: string) => Number.parseFloat(v));
  const pool = new Pool({ connectionString: dsn, max: bounds.maxConnections, connectionTimeoutMillis: bounds.waitTimeoutMs });
  // pg emits a connection's end on the pool while the client is idle and on the client while it is checked out
  // between queries (inside a transaction); an 'error' event nobody listens to ends the process. The query that
  // needed the connection still fails where it is awaited.
  pool.on('error', onLost);
  pool.on('connect', (client) => client.on('error', onLost));
  return new PostgresDialect({ pool });
}

async function mysqlDialect(dsn: string, bounds: PoolBounds): Promise<KyselyDialect> {
  const { createPool } = await import('mysql2');
  const pool = createPool({
    uri: mysqlUri(dsn),
    connectionLimit: bounds.maxConnections,
    decimalNumbers: true,
    supportBigNumbers: true,
    bigNumberStrings: false,
    charset: 'utf8mb4',
  });
  return new MysqlDialect({ pool: async () => boundedWait(pool, bounds.waitTimeoutMs) });
}


/** mysql2's pool lets a query wait for a connection without end: this one gives up after `ms`. */
function boundedWait(pool: Mysql2Pool, ms: number): KyselyMysqlPool {
  const getConnection: KyselyMysqlPool['getConnection'] = (callback) => {
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      callback(Object.assign(new Error(`timed out after ${ms} ms waiting for a database connection (SQL_MAX_OPEN_CONNS)`), { code: 'POOL_WAIT_TIMEOUT' }), undefined as never);
    }, ms);
    pool.getConnection((err, connection) => {
      clearTimeout(timer);
      if (!settled) callback(err, connection);
      else if (connection) connection.release();
    });
  };
  return { getConnection, end: (callback) => pool.end(callback) };
}

export async function connect(sqlDsn: string, sqlitePath: string, onLost: LostConnection = () => {}, bounds: PoolBounds = DEFAULT_POOL): Promise<Db> {
  const dialect = dialectOf(sqlDsn);
  if (dialect === 'sqlite') {
    const database = await openSqlite(sqlDsn.startsWith('sqlite:') ? sqlDsn.slice('sqlite:'.length) : sqlitePath);
    const kysely = new Kysely<Database>({ dialect: immediateSqliteDialect({ database: withStatementCache(database) }) });
    registerSqliteHandle(kysely, database);
    return { kysely, dialect, close: () => kysely.destroy() };
  }
  const driver = dialect === 'postgres' ? await postgresDialect(sqlDsn, onLost, bounds) : await mysqlDialect(sqlDsn, bounds);
  const kysely = new Kysely<Database>({ dialect: driver });
  return { kysely, dialect, close: () => kysely.destroy() };
}
