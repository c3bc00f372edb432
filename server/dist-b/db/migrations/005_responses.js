import { sql } from 'kysely';
/*
 * Responses the gateway made itself (relay/formats/responses/store.ts), kept so conversations can continue by
 * reference on any channel. One row per response: the Response object and its complete input as JSON text (MySQL's
 * TEXT stops at 64 KB, so LONGTEXT there), or an empty marker row (state 2 evicted, 3 too large) that lets a later
 * reference be told why it cannot be served. The id is the gateway's own `resp_…` string.
 */
export async function up(db, dialect) {
    const json = dialect === 'mysql' ? sql `longtext` : sql `text`;
    await db.schema
        .createTable('responses')
        .addColumn('id', sql `varchar(64)`, (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('state', 'integer', (c) => c.notNull())
        .addColumn('bytes', 'bigint', (c) => c.notNull())
        .addColumn('response', json, (c) => c.notNull())
        .addColumn('input', json, (c) => c.notNull())
        .execute();
    // A user's responses oldest first (eviction beyond the per-user limit); expired rows (the retention job).
    await db.schema.createIndex('responses_user_time_idx').on('responses').columns(['user_id', 'created_at']).execute();
    await db.schema.createIndex('responses_time_idx').on('responses').column('created_at').execute();
}
//# sourceMappingURL=005_responses.js.map