import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { connect } from './connect.js';
import { testDatabases } from '../test/databases.js';
import { skippedWithoutServices } from '../test/services.js';

/*
 * A query that finds every pooled connection busy waits at most SQL_CONN_WAIT_TIMEOUT, then fails; it does not
 * queue on behind a database that stopped answering. The pool holds SQL_MAX_OPEN_CONNS connections.
 */
const servers = testDatabases(['postgres', 'mysql']);
if (servers.length === 0) skippedWithoutServices('connection pool bounds on a server database');

describe.each(servers)('connection pool bounds on $name', (database) => {
  it('fails a query that waits past the bound for a connection, and serves it once one is free', async () => {
    const { url, drop } = await database.open();
    const db = await connect(url!, '', () => {}, { maxConnections: 1, waitTimeoutMs: 300 });
    try {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let nowHeld!: () => void;
      const connectionTaken = new Promise<void>((resolve) => (nowHeld = resolve));
      const holding = db.kysely.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        nowHeld();
        await held;
      });
      await connectionTaken;
      const started = Date.now();
      await expect(sql`select 1`.execute(db.kysely)).rejects.toThrow(/timeout|timed out/i);
      const waited = Date.now() - started;
      expect(waited).toBeGreaterThanOrEqual(250);
      expect(waited).toBeLessThan(2000);
      release();
      await holding;
      const row = await sql<{ one: number }>`select 1 as one`.execute(db.kysely);
      expect(Number(row.rows[0].one)).toBe(1);
    } finally {
      await db.close();
      await drop();
    }
  });
});
