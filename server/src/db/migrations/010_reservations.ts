import type { Kysely } from 'kysely';

/*
 * Balance reserved by calls in flight, one row per reservation, written in the reservation's own transaction and
 * deleted in its settlement's. A process that dies mid-call leaves its rows behind; whoever learns it died (the
 * primary of its node, or the next start on its host) gives their amounts back and deletes them, in one
 * transaction — so a crash never keeps a user's balance, and nothing is given back twice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('reservations')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey().notNull())
    .addColumn('holder', 'varchar(128)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    /** 0 when nothing was taken from a token (none, or unlimited). */
    .addColumn('token_id', 'integer', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('reservations_holder_idx').on('reservations').column('holder').execute();
}
