/*
 * Why a write failed: because of the row (a constraint, a value the column cannot hold, a trigger's verdict), or
 * because the database cannot take the write at all just now (a table missing or renamed, a lock or statement
 * timeout, a deadlock, a read-only or full database, a lost connection). A batch writer sets a refused row aside and
 * writes the others; a database that cannot write keeps the whole batch for later. Anything not recognised here
 * counts as the row's fault, so an unknown error can never hold back every other row.
 */
/** PostgreSQL SQLSTATE classes that say nothing about the row. */
const PG_CLASSES = new Set(['08', '25', '40', '53', '55', '57', '58', 'XX']);
/** PostgreSQL: undefined table / column, insufficient privilege (the table, not the row). */
const PG_CODES = new Set(['42P01', '42703', '42501']);
/**
 * MySQL/MariaDB errnos: no such table (1146), unknown column (1054), lock wait timeout (1205), deadlock (1213),
 * table full (1114), disk full (1021), read-only (1290, 1792, 1836), gone away / lost (2006, 2013), too many
 * connections (1040), shutdown (1053), killed / interrupted (1927, 1317), statement timeout (3024), no access (1142).
 */
const MYSQL_ERRNOS = new Set([1146, 1054, 1205, 1213, 1114, 1021, 1290, 1792, 1836, 2006, 2013, 1040, 1053, 1927, 1317, 3024, 1142]);
/** SQLite result codes that say nothing about the row (their extended codes start the same). */
const SQLITE_PREFIXES = ['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_READONLY', 'SQLITE_CANTOPEN', 'SQLITE_NOMEM', 'SQLITE_SCHEMA'];
/** A missing table or column is SQLite's generic SQLITE_ERROR: recognised by its message. */
const SQLITE_SCHEMA_MESSAGE = /no such table|no such column|has no column named/i;
export function databaseCannotWrite(err) {
    if (!err || typeof err !== 'object')
        return false;
    const e = err;
    const code = typeof e.code === 'string' ? e.code : '';
    if (code.startsWith('SQLITE_')) {
        if (SQLITE_PREFIXES.some((p) => code.startsWith(p)))
            return true;
        return code === 'SQLITE_ERROR' && typeof e.message === 'string' && SQLITE_SCHEMA_MESSAGE.test(e.message);
    }
    if (typeof e.errno === 'number' && MYSQL_ERRNOS.has(e.errno))
        return true;
    if (/^[0-9A-Z]{5}$/.test(code) && (PG_CODES.has(code) || PG_CLASSES.has(code.slice(0, 2))))
        return true;
    // The connection itself: node's socket errors, mysql2's PROTOCOL_* codes, pg's "Connection terminated".
    if (/^E[A-Z]+$/.test(code) || code.startsWith('PROTOCOL_'))
        return true;
    return typeof e.message === 'string' && /connection terminated|not queryable|connection (is )?closed/i.test(e.message);
}
//# sourceMappingURL=write-failure.js.map