import { SqliteAdapter, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

type Db = Kysely<Database>;

/**
 * Rows deleted per statement: short transactions, and between them the relay gets its turn — on SQLite a statement
 * holds the server's thread for its whole run (about 50 ms per 1000 rows with the log indexes), so batches are small.
 */
export const deleteBatchSize = (db: Db) => (db.getExecutor().adapter instanceof SqliteAdapter ? 1_000 : 5_000);

/** Deletes the rows of `table` whose `column` is below `before`, one batch of ids at a time; returns the count. */
export async function deleteOlderThan(db: Db, table: 'logs' | 'quota_data', column: 'created_at', before: number, batch = deleteBatchSize(db)): Promise<number> {
  let deleted = 0;
  for (;;) {
    const ids = (await db.selectFrom(table).select('id').where(column, '<', before).limit(batch).execute()).map((r) => r.id);
    if (ids.length === 0) break;
    const res = await db.deleteFrom(table).where('id', 'in', ids).executeTakeFirst();
    deleted += Number(res.numDeletedRows);
    if (ids.length < batch) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return deleted;
}
