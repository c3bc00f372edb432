import { MysqlAdapter, type Kysely } from 'kysely';
import type { Database, LogRow } from '../db/schema.js';

type Db = Kysely<Database>;

/** Rows moved per round: one read, one insert of a few statements, one delete. */
export const SHIP_BATCH = 1000;
/** Batches per round at most: a round ends even while calls write as fast as it moves (the next one goes on). */
export const SHIP_BATCHES_PER_ROUND = 50;
/** Rows per insert statement: 100 log rows stay far below every dialect's parameter limit. */
const ROWS_PER_INSERT = 100;

/**
 * Moves log rows from the main database, where every writer puts them (in the same transaction as the balance change
 * they record), to the log database (LOG_SQL_DSN), where the console reads them.
 *
 * Exactly once, with a crash at any point: a row keeps its id in the log database, and the insert skips ids already
 * there, so a round that wrote to the log database but died before deleting from the main one is repeated without a
 * duplicate. The newest row of the main table is copied but never deleted: with the table never emptied, its next id
 * can never restart from 1 (MySQL before 8 resets an auto-increment counter to the highest id present when it
 * restarts), which would make new rows collide with shipped ones and be skipped. Rows of transactions that commit
 * late with a lower id are found by the next round: every round reads whatever is still in the main table.
 */
export class LogShipper {
  /** The kept row last copied, so an idle round writes nothing. */
  private copiedKeep = 0;

  constructor(
    private readonly main: Db,
    private readonly logs: Db,
    private readonly batch = SHIP_BATCH,
    private readonly batchesPerRound = SHIP_BATCHES_PER_ROUND,
  ) {}

  /** Moves what is waiting; returns the number of rows deleted from the main database. */
  async ship(): Promise<number> {
    let shipped = 0;
    for (let round = 1; ; round++) {
      const rows = await this.main.selectFrom('logs').selectAll().orderBy('id').limit(this.batch).execute();
      const newest = await this.main.selectFrom('logs').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
      const keep = Number(newest?.id ?? 0);
      const toDelete = rows.map((r) => r.id).filter((id) => id !== keep);
      if (toDelete.length === 0) {
        if (rows.length > 0 && keep !== this.copiedKeep) await insertSkippingShipped(this.logs, rows);
        this.copiedKeep = keep;
        return shipped;
      }
      await insertSkippingShipped(this.logs, rows);
      if (rows.some((r) => r.id === keep)) this.copiedKeep = keep;
      await this.main.deleteFrom('logs').where('id', 'in', toDelete).execute();
      shipped += toDelete.length;
      if (rows.length < this.batch || round >= this.batchesPerRound) return shipped;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

async function insertSkippingShipped(db: Db, rows: LogRow[]): Promise<void> {
  const mysql = db.getExecutor().adapter instanceof MysqlAdapter;
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      const insert = trx.insertInto('logs').values(rows.slice(i, i + ROWS_PER_INSERT));
      await (mysql ? insert.ignore() : insert.onConflict((oc) => oc.column('id').doNothing())).execute();
    }
  });
}
