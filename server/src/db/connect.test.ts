import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { connect, type Db } from './connect.js';
import { testDatabases } from '../test/databases.js';
import { skippedWithoutServices } from '../test/services.js';

/*
 * A database server that ends the pool's connections (a restart, a failover, an administrator) must not take the
 * process down: an idle connection that dies is dropped and the next query gets a new one.
 */

const servers = testDatabases(['postgres', 'mysql']);

if (servers.length === 0) skippedWithoutServices('connections to a server database');

describe.each(servers)('connections to $name', (database) => {
  let admin: { db: Db; drop(): Promise<void>; url?: string };
  let db: Db;
  const lost: Error[] = [];

  beforeAll(async () => {
    admin = await database.open();
    db = await connect(admin.url!, '', (err) => lost.push(err));
  });
  afterAll(async () => {
    await db.close();
    await admin.drop();
  });

  async function endEveryConnectionOf(target: Db): Promise<void> {
    if (target.dialect === 'postgres') {
      await sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`.execute(admin.db.kysely);
      return;
    }
    const { rows } = await sql<{ id: number }>`select id from information_schema.processlist where db = database() and id <> connection_id()`.execute(admin.db.kysely);
    for (const { id } of rows) await sql.raw(`kill ${Number(id)}`).execute(admin.db.kysely).catch(() => {});
  }

  it('answers again after the server ended every idle connection of the pool', async () => {
    await Promise.all(Array.from({ length: 5 }, () => sql`select 1 as one`.execute(db.kysely)));
    await endEveryConnectionOf(db);
    await new Promise((r) => setTimeout(r, 200));
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(db.kysely);
    expect(Number(rows[0].one)).toBe(1);
    if (db.dialect === 'postgres') expect(lost.length).toBeGreaterThan(0);
  });

  it('fails only the transaction whose connection the server ended between two of its queries', async () => {
    const transaction = db.kysely.transaction().execute(async (trx) => {
      await sql`select 1 as one`.execute(trx);
      await endEveryConnectionOf(db);
      await new Promise((r) => setTimeout(r, 200));
      await sql`select 1 as one`.execute(trx);
    });
    await expect(transaction).rejects.toThrow();
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(db.kysely);
    expect(Number(rows[0].one)).toBe(1);
  });
});
