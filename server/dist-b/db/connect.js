import fs from 'node:fs';
import path from 'node:path';
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect } from 'kysely';
import { registerSqliteHandle } from './sqlite-handle.js';
import { withStatementCache } from './statement-cache.js';
export function dialectOf(sqlDsn) {
    if (sqlDsn === '' || sqlDsn.startsWith('local') || sqlDsn.startsWith('sqlite:'))
        return 'sqlite';
    if (/^postgres(ql)?:\/\//.test(sqlDsn))
        return 'postgres';
    return 'mysql';
}
/** Accepts both mysql://user:pass@host:port/db and the Go driver form user:pass@tcp(host:port)/db?params. */
export function mysqlUri(dsn) {
    if (dsn.startsWith('mysql://'))
        return dsn;
    const m = /^([^:@]*)(?::([^@]*))?@tcp\(([^)]+)\)\/([^?]*)(\?.*)?$/.exec(dsn);
    if (!m)
        throw new Error('SQL_DSN is neither postgres://, mysql:// nor user:pass@tcp(host:port)/db');
    const [, user, pass = '', hostPort, dbName] = m;
    return `mysql://${encodeURIComponent(user)}:${encodeURIComponent(pass)}@${hostPort}/${dbName}`;
}
async function openSqlite(file) {
    const { default: Sqlite } = await import('better-sqlite3');
    if (file !== ':memory:')
        fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const database = new Sqlite(file);
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    database.pragma('busy_timeout = 5000');
    database.pragma('foreign_keys = ON');
    return database;
}
export const DEFAULT_POOL = { maxConnections: 20, waitTimeoutMs: 10_000 };
async function postgresDialect(dsn, onLost, bounds) {
    const pg = await import('pg');
    const { Pool, types } = pg.default;
    // int8 (counts, bigint quota) and numeric (SUM) arrive as strings by default; quota stays far below 2^53.
    types.setTypeParser(20, (v) => Number.parseInt(v, 10));
    types.setTypeParser(1700, (v) => Number.parseFloat(v));
    const pool = new Pool({ connectionString: dsn, max: bounds.maxConnections, connectionTimeoutMillis: bounds.waitTimeoutMs });
    // pg emits a connection's end on the pool while the client is idle and on the client while it is checked out
    // between queries (inside a transaction); an 'error' event nobody listens to ends the process. The query that
    // needed the connection still fails where it is awaited.
    pool.on('error', onLost);
    pool.on('connect', (client) => client.on('error', onLost));
    return new PostgresDialect({ pool });
}
async function mysqlDialect(dsn, bounds) {
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
function boundedWait(pool, ms) {
    const getConnection = (callback) => {
        let settled = false;
        const timer = setTimeout(() => {
            settled = true;
            callback(Object.assign(new Error(`timed out after ${ms} ms waiting for a database connection (SQL_MAX_OPEN_CONNS)`), { code: 'POOL_WAIT_TIMEOUT' }), undefined);
        }, ms);
        pool.getConnection((err, connection) => {
            clearTimeout(timer);
            if (!settled)
                callback(err, connection);
            else if (connection)
                connection.release();
        });
    };
    return { getConnection, end: (callback) => pool.end(callback) };
}
export async function connect(sqlDsn, sqlitePath, onLost = () => { }, bounds = DEFAULT_POOL) {
    const dialect = dialectOf(sqlDsn);
    if (dialect === 'sqlite') {
        const database = await openSqlite(sqlDsn.startsWith('sqlite:') ? sqlDsn.slice('sqlite:'.length) : sqlitePath);
        const kysely = new Kysely({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
        registerSqliteHandle(kysely, database);
        return { kysely, dialect, close: () => kysely.destroy() };
    }
    const driver = dialect === 'postgres' ? await postgresDialect(sqlDsn, onLost, bounds) : await mysqlDialect(sqlDsn, bounds);
    const kysely = new Kysely({ dialect: driver });
    return { kysely, dialect, close: () => kysely.destroy() };
}
//# sourceMappingURL=connect.js.map