import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { connect } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { testDatabases } from '../test/databases.js';
import { NO_ADDRESS_LIMITS } from '../test/app.js';
import { interruptedImportMessage } from './start-guard.js';
import { IMPORT_MARKER } from './target.js';

const env = { SESSION_SECRET: 'test-secret-test-secret-test-secret', LOG_LEVEL: 'silent', ...NO_ADDRESS_LIMITS };

describe('a server start on a database an import was killed writing', () => {
  for (const database of testDatabases()) {
    it(`is refused, naming npm run import (${database.name})`, async () => {
      const { db, drop } = await database.open();
      try {
        await migrateToLatest(db);
        await db.kysely.insertInto('options').values({ key: IMPORT_MARKER, value: '1764000000' }).execute();
        await expect(buildApp(loadConfig(env), { db, logger: false })).rejects.toThrow(/npm run import/);
        // Nothing was started on it: not even the root account a first start creates.
        expect(await db.kysely.selectFrom('users').select('id').execute()).toEqual([]);
      } finally {
        await drop();
      }
    });
  }

  it('starts once the marker is gone (the import was run again to its end)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sy-guard-'));
    const file = path.join(dir, 'switchyard.db');
    try {
      const db = await connect('', file);
      await migrateToLatest(db);
      await db.kysely.insertInto('options').values({ key: IMPORT_MARKER, value: '0' }).execute();
      await db.close();
      const config = loadConfig({ ...env, SQLITE_PATH: file });
      await expect(buildApp(config, { logger: false })).rejects.toThrow(`options.${IMPORT_MARKER} is set`);

      const again = await connect('', file);
      await again.kysely.deleteFrom('options').where('key', '=', IMPORT_MARKER).execute();
      await again.close();
      const app = await buildApp(config, { logger: false });
      await app.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says what to do and when the stopped import began', () => {
    const message = interruptedImportMessage(1764000000);
    expect(message).toContain('2025-11-24T16:00:00.000Z');
    expect(message).toContain('npm run import -- <source>');
    expect(message).toContain('SQL_DSN / SQLITE_PATH');
    expect(interruptedImportMessage(0)).not.toContain('started');
  });
});
