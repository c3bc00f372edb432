/*
 * No query reads logs by token id (the console filters by token name, which has its own index), and every
 * consume log the relay writes paid to keep this index: one B-tree insert in nine per row.
 */
export async function up(db, dialect) {
    const drop = db.schema.dropIndex('logs_token_id_idx').ifExists();
    await (dialect === 'mysql' ? drop.on('logs') : drop).execute();
}
//# sourceMappingURL=004_drop_log_token_index.js.map