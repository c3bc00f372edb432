import { describe, expect, it } from 'vitest';
import { databaseCannotWrite } from './write-failure.js';

/* A write that failed because of its row is set aside; one the database could not take at all is kept for later. */

const err = (fields: Record<string, unknown>) => Object.assign(new Error(String(fields.message ?? 'failed')), fields);

describe('why a write failed', () => {
  it.each([
    ['SQLite: the table is missing', err({ code: 'SQLITE_ERROR', message: 'no such table: logs' })],
    ['SQLite: the file is locked', err({ code: 'SQLITE_BUSY_TIMEOUT' })],
    ['SQLite: the disk is full', err({ code: 'SQLITE_FULL' })],
    ['PostgreSQL: the table is missing', err({ code: '42P01' })],
    ['PostgreSQL: a lock timeout', err({ code: '55P03' })],
    ['PostgreSQL: a statement timeout', err({ code: '57014' })],
    ['PostgreSQL: the backend was terminated', err({ code: '57P01' })],
    ['PostgreSQL: a deadlock', err({ code: '40P01' })],
    ['PostgreSQL: the connection ended', err({ message: 'Connection terminated unexpectedly' })],
    ['MySQL: the table is missing', err({ code: 'ER_NO_SUCH_TABLE', errno: 1146 })],
    ['MySQL: a lock wait timeout', err({ code: 'ER_LOCK_WAIT_TIMEOUT', errno: 1205 })],
    ['MySQL: the connection was lost', err({ code: 'PROTOCOL_CONNECTION_LOST' })],
    ['a socket error', err({ code: 'ECONNRESET' })],
  ])('the database cannot write: %s', (_, e) => {
    expect(databaseCannotWrite(e)).toBe(true);
  });

  it.each([
    ['SQLite: NOT NULL', err({ code: 'SQLITE_CONSTRAINT_NOTNULL' })],
    ['SQLite: a trigger refused it', err({ code: 'SQLITE_CONSTRAINT_TRIGGER' })],
    ['PostgreSQL: a value too long', err({ code: '22001' })],
    ['PostgreSQL: a NUL byte', err({ code: '22021' })],
    ['PostgreSQL: a trigger raised', err({ code: 'P0001' })],
    ['MySQL: data too long', err({ code: 'ER_DATA_TOO_LONG', errno: 1406 })],
    ['MySQL: an incorrect string value', err({ code: 'ER_TRUNCATED_WRONG_VALUE_FOR_FIELD', errno: 1366 })],
    ['MySQL: a trigger signalled', err({ code: 'ER_SIGNAL_EXCEPTION', errno: 1644 })],
    ['anything unknown', new Error('something else')],
    ['not an error at all', 'oops'],
  ])('the row was refused: %s', (_, e) => {
    expect(databaseCannotWrite(e)).toBe(false);
  });
});
