import type { Kysely } from 'kysely';
import type { Dialect } from '../connect.js';

/*
 * Codes and links mailed to users (auth/verification.ts): one live code per purpose and address, so every node sees
 * the same code and a restart loses none. `attempts` counts wrong guesses; expired rows are pruned by a job.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('email_codes')
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
    .addColumn('address', 'varchar(255)', (c) => c.notNull())
    .addColumn('code', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('email_codes_pk', ['purpose', 'address'])
    .execute();
  await db.schema.createIndex('email_codes_expires_idx').on('email_codes').column('expires_at').execute();
}
