import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { connect } from './connect.js';

/*
 * Several processes of a node (WORKERS) write one SQLite file. A transaction that reads before it writes must not
 * fail when another process wrote in between (SQLite's "busy snapshot" of a deferred transaction), nor lose an
 * update: transactions begin IMMEDIATE, taking the write lock first and waiting (busy_timeout) for it.
 */
const run = promisify(execFile);
const SERVER_ROOT = path.resolve(import.meta.dirname, '../..');

describe('SQLite with several writer processes', () => {
  it('serializes read-modify-write transactions across processes, none failing, none lost', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sy-writers-'));
    const file = path.join(dir, 'w.db');
    try {
      const db = await connect('', file);
      await sql`create table counter (id integer primary key, n integer not null)`.execute(db.kysely);
      await sql`insert into counter (id, n) values (1, 0)`.execute(db.kysely);
      await db.close();
      const ROUNDS = 1500;
      const children = Array.from({ length: 3 }, () =>
        run(process.execPath, ['--import', 'tsx', 'src/test/sqlite-writer-child.ts', file, String(ROUNDS)], { cwd: SERVER_ROOT }),
      );
      const results = (await Promise.all(children)).map((r) => JSON.parse(r.stdout) as { failures: number });
      expect(results.map((r) => r.failures)).toEqual([0, 0, 0]);
      const check = await connect('', file);
      const row = await sql<{ n: number }>`select n from counter where id = 1`.execute(check.kysely);
      await check.close();
      expect(row.rows[0].n).toBe(3 * ROUNDS);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
