import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { PRESENCE_TTL_MS } from '../cluster/server-presence.js';
import { loadConfig } from '../config.js';
import type { Db } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { announceServer, liveServers } from '../store/server-presence.js';
import { NO_ADDRESS_LIMITS } from '../test/app.js';
import { testDatabases } from '../test/databases.js';
import { incumbentDatabase, type IncumbentDb } from '../test/incumbent-fixture.js';
import { startServerProcess } from '../test/server-process.js';
import { runCli } from './cli.js';
import { ImportRefused, runImport } from './runner.js';
import { IMPORT_MARKER } from './target.js';

/*
 * An import into a database a server is running on would leave that server serving the routing, keys and balances
 * it loaded before (until its next resync), so it is refused while any server process says it is running, on every
 * dialect; a server that was killed stops counting once its presence runs out.
 */

const env = { SESSION_SECRET: 'test-secret-test-secret-test-secret', LOG_LEVEL: 'silent', ...NO_ADDRESS_LIMITS };

let incumbent: IncumbentDb;
beforeAll(async () => {
  incumbent = await incumbentDatabase('one-api', 'sqlite', { logs: 10 });
});
afterAll(() => incumbent?.drop());

async function importInto(db: Parameters<typeof runImport>[2]) {
  const source = await incumbent.source();
  try {
    return await runImport(source, incumbent.location, db);
  } finally {
    await source.close();
  }
}

describe('npm run import beside a server process with two workers (SQLite)', () => {
  it('is refused while the server runs, naming its workers, and goes ahead once it has stopped', async () => {
    const server = await startServerProcess({ WORKERS: '2' });
    const out: string[] = [];
    const io = { out: (s: string) => out.push(s), err: (s: string) => out.push(s) };
    const config = loadConfig({ SQLITE_PATH: server.sqlitePath, SQL_DSN: '' });
    try {
      expect(await runCli([incumbent.location], config, io)).toBe(2);
      const said = out.join('\n');
      expect(said).toContain('import refused: a Switchyard server is running on this database');
      for (const pid of server.workerPids()) expect(said).toContain(`/${pid}`);
      // It serves as before: nothing was written.
      expect(await server.consoleApi('GET', '/api/user/self')).toMatchObject({ username: 'root' });

      server.child.kill('SIGTERM');
      await server.exited;
      out.length = 0;
      expect(await runCli([incumbent.location], config, io)).toBe(0);
      expect(out.join('\n')).toContain('Detected: one-api');
    } finally {
      server.child.kill('SIGKILL');
      await server.exited;
      server.cleanup();
    }
  }, 120_000);
});

describe.each(testDatabases())('a server on $name and an import', (database) => {
  async function onMigrated(test: (db: Db) => Promise<void>): Promise<void> {
    const { db, drop } = await database.open();
    try {
      await migrateToLatest(db);
      await test(db);
    } finally {
      await drop();
    }
  }

  it('refuses the import while the server runs; a stopped server leaves no trace', () =>
    onMigrated(async (db) => {
      const app = await buildApp(loadConfig(env), { db, logger: false });
      try {
        await expect(importInto(db)).rejects.toThrow(ImportRefused);
        await expect(importInto(db)).rejects.toThrow('a Switchyard server is running on this database');
        expect(await db.kysely.selectFrom('options').select('key').where('key', '=', IMPORT_MARKER).executeTakeFirst()).toBeUndefined();
      } finally {
        await app.close();
      }
      expect(await liveServers(db.kysely, Date.now())).toEqual([]);
      await expect(importInto(db)).resolves.toMatchObject({ detected: { system: 'one-api' } });
    }));

  it('counts a killed server only until its presence runs out', () =>
    onMigrated(async (db) => {
      const now = Date.now();
      // A process killed 31 s ago renewed its presence last then: it ran out a second ago.
      await announceServer(db.kysely, 'killed', 'old-host/41', now - 31_000, now - 31_000 + PRESENCE_TTL_MS);
      // One that last renewed 5 s ago is still running, as far as anyone can tell.
      await announceServer(db.kysely, 'alive', 'other-host/42', now - 5_000, now - 5_000 + PRESENCE_TTL_MS);
      await expect(importInto(db)).rejects.toThrow('(other-host/42)');
      await db.kysely.deleteFrom('job_leases').where('holder', '=', 'other-host/42').execute();
      await expect(importInto(db)).resolves.toMatchObject({ detected: { system: 'one-api' } });
    }));

  it('a server refused on a half-imported database withdraws the presence it announced', () =>
    onMigrated(async (db) => {
      await db.kysely.insertInto('options').values({ key: IMPORT_MARKER, value: '1' }).execute();
      await expect(buildApp(loadConfig(env), { db, logger: false })).rejects.toThrow(/npm run import/);
      expect(await liveServers(db.kysely, Date.now())).toEqual([]);
    }));
});
