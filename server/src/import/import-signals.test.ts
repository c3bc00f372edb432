import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../db/connect.js';
import { incumbentDatabase, type IncumbentDb } from '../test/incumbent-fixture.js';
import { serverEntry } from '../test/server-process.js';
import { STOPPED_EXIT_CODE } from './cli.js';
import { IMPORTED_TABLES, IMPORT_MARKER } from './target.js';

/*
 * `npm run import` as an operator runs it: its own process, interrupted with Ctrl-C (SIGINT) half-way through the
 * logs, on SQLite (where every read and write is synchronous, so the signal is only seen if the import lets the
 * event loop turn between batches).
 */

const SERVER_ROOT = path.resolve(import.meta.dirname, '../..');
/** Enough logs that the import is still on them when the signal arrives, on a loaded machine too. */
const LOGS = 150_000;

describe('an import interrupted with Ctrl-C', () => {
  let incumbent: IncumbentDb;
  let dir: string;
  beforeAll(async () => {
    incumbent = await incumbentDatabase('new-api', 'sqlite', { logs: LOGS });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sy-import-signal-'));
  }, 120_000);
  afterAll(async () => {
    await incumbent?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('stops, removes what it wrote and exits non-zero', async () => {
    const target = path.join(dir, 'switchyard.db');
    const child = spawn(process.execPath, [...serverEntry('import/main'), incumbent.location], {
      cwd: SERVER_ROOT,
      env: { ...process.env, SQLITE_PATH: target, SQL_DSN: '', LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // The tables before the logs are done (one progress line each on a pipe): the logs are being copied now.
    await new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (/^quota_data /m.test(stderr)) resolve();
      });
      void exited.then((code) => reject(new Error(`the import ended (${code}) before its logs: ${stderr}`)));
    });
    child.kill('SIGINT');
    const code = await exited;

    expect({ code, stdout }).toEqual({ code: STOPPED_EXIT_CODE, stdout: '' });
    expect(stderr).toContain('import stopped: what it wrote was removed');
    expect(stderr).not.toMatch(/^logs /m);
    const db = await connect('', target);
    try {
      for (const table of IMPORTED_TABLES) {
        const rows = await db.kysely.selectFrom(table).select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
        expect(Number(rows.n), table).toBe(0);
      }
      expect(await db.kysely.selectFrom('options').select('key').where('key', '=', IMPORT_MARKER).executeTakeFirst()).toBeUndefined();
    } finally {
      await db.close();
    }
  }, 120_000);
});
