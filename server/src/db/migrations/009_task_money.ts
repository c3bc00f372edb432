import type { Kysely } from 'kysely';

/*
 * Drawing and music tasks are charged to a user and a token when submitted, and refunded when they fail. The
 * established gateway's rows name the user only, so its refunds go to the user's wallet and the token's limit stays
 * spent. These columns name the token charged and how much was taken from its remaining quota (0 for an unlimited
 * token or none), so a refund gives back exactly what the submit took, to both. Imported rows keep 0: user only.
 *
 * `job_leases` holds one row per background job that must run on one node of a deployment (the task pollers):
 * the holder renews it while alive; another node takes it once it has expired.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['midjourneys', 'tasks']) {
    await db.schema.alterTable(table).addColumn('token_id', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable(table).addColumn('token_quota', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  }
  await db.schema
    .createTable('job_leases')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey().notNull())
    .addColumn('holder', 'varchar(64)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}
