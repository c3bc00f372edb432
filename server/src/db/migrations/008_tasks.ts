import type { Kysely } from 'kysely';

/*
 * The `midjourneys` and `tasks` tables exist since 001 (with the established gateway's column names, so its rows
 * import as they are), indexed by user, upstream id and status. The drawing and task logs also filter the whole
 * table by channel and by submit time, newest first: these indexes serve those pages without a scan.
 */
const INDEXES: ReadonlyArray<[table: string, name: string, columns: string[]]> = [
  ['midjourneys', 'midjourneys_channel_time_idx', ['channel_id', 'submit_time']],
  ['midjourneys', 'midjourneys_submit_time_idx', ['submit_time']],
  ['tasks', 'tasks_channel_time_idx', ['channel_id', 'submit_time']],
  ['tasks', 'tasks_submit_time_idx', ['submit_time']],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [table, name, columns] of INDEXES) {
    await db.schema.createIndex(name).on(table).columns(columns).execute();
  }
}
