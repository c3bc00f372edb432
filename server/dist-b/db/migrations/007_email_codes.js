import { sql } from 'kysely';
/*
 * Codes and links mailed to users (auth/verification.ts): one live code per purpose and address, so every node sees
 * the same code and a restart loses none. `attempts` counts wrong guesses. `email_sends` holds one row per mail
 * sent, by client address, for the per-address budget. A job prunes expired rows of both.
 */
export async function up(db, dialect) {
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
    const sends = db.schema.createTable('email_sends');
    await (dialect === 'postgres' ? sends.addColumn('id', 'serial', (c) => c.primaryKey()) : sends.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()))
        .addColumn('client', sql `varchar(64)`, (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
    await db.schema.createIndex('email_sends_client_time_idx').on('email_sends').columns(['client', 'created_at']).execute();
    await db.schema.createIndex('email_sends_time_idx').on('email_sends').column('created_at').execute();
}
//# sourceMappingURL=007_email_codes.js.map