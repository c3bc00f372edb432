import type { Kysely } from 'kysely';

/*
 * Multi-key channels, stored as the established gateway stores them: all keys in `channels.key` (one per line) and
 * the key pool's state in `channel_info`, a JSON text {is_multi_key, multi_key_size, multi_key_status_list,
 * multi_key_disabled_reason, multi_key_disabled_time, multi_key_polling_index, multi_key_mode}. NULL or empty means
 * a single-key channel, whose key is used whole. Text on every database (the incumbent uses JSON on MySQL and
 * PostgreSQL; the text it holds is the same).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('channels').addColumn('channel_info', 'text').execute();
}
