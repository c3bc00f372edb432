import type { Kysely } from 'kysely';

/*
 * Sessions are signed cookies that name the account's session epoch: raising it ends every session of the account
 * (sign-out, a ban) on every node at once, as the user row is read on every console call anyway. 0 is the epoch of
 * every session signed before the column existed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('session_epoch', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
