import type { Kysely } from 'kysely';

/*
 * Cache reads as columns of their own, so a cache hit rate (cache reads / prompt tokens) is a sum in SQL over any
 * filter: `logs.cache_tokens` per call (the consume log's `other` keeps its text copy for the established
 * console), `quota_data.prompt_tokens` and `quota_data.cache_tokens` per user x model x hour. Rows written before
 * the columns existed read 0: no cache reads known.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('logs')
    .addColumn('cache_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  for (const column of ['prompt_tokens', 'cache_tokens']) {
    await db.schema
      .alterTable('quota_data')
      .addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
  }
}
