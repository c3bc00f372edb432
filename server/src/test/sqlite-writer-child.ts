import { sql } from 'kysely';
import { connect } from '../db/connect.js';

/*
 * One of several processes writing the same SQLite file (db/sqlite-writers.test.ts): read-modify-write
 * transactions on one row, which only add up if every transaction of every process is serialized.
 */
const [file, rounds] = [process.argv[2], Number(process.argv[3])];
const db = await connect('', file);
let failures = 0;
for (let i = 0; i < rounds; i++) {
  try {
    await db.kysely.transaction().execute(async (trx) => {
      const row = await sql<{ n: number }>`select n from counter where id = 1`.execute(trx);
      await new Promise((r) => setImmediate(r));
      await sql`update counter set n = ${row.rows[0].n + 1} where id = 1`.execute(trx);
    });
  } catch {
    failures++;
  }
}
await db.close();
process.stdout.write(JSON.stringify({ failures }));
