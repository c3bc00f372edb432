import type { Kysely } from 'kysely';
import type { Dialect } from '../connect.js';

/*
 * No query reads logs by token id (the console filters by token name, which has its own index), and every
 * consume log the relay writes paid to keep this index: one B-tree insert in nine per row.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const drop = db.schema.dropIndex('logs_token_id_idx').ifExists();
  await (dialect === 'mysql' ? drop.on('logs') : drop).execute();
}
