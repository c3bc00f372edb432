/*
 * One row per settlement batch written on a database server, in the batch's own transaction: when the connection
 * dies while the batch commits, the answer is lost with it, and this row is how the settler learns whether the batch
 * was written before it writes it again (which would charge every call in it twice). Rows older than an hour are
 * pruned; nothing else reads them.
 */
export async function up(db, _dialect) {
    await db.schema
        .createTable('settlement_batches')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey().notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
}
//# sourceMappingURL=006_settlement_batches.js.map