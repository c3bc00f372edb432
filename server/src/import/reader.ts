import { sql } from 'kysely';
import type { SourceDb } from './source.js';
import type { SourceRow } from './values.js';

export async function countRows(source: SourceDb, table: string): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(source.kysely);
  return Number(rows[0]?.n ?? 0);
}

/** A table's rows in pages, by ascending id when it has one (keyset: each page is an index range). */
export async function* readPages(source: SourceDb, table: string, hasId: boolean, pageSize: number): AsyncGenerator<SourceRow[]> {
  if (!hasId) {
    yield (await source.kysely.selectFrom(table).selectAll().execute()) as SourceRow[];
    return;
  }
  let after = Number.MIN_SAFE_INTEGER;
  const sqlitePage = source.sqlite?.prepare(`select * from "${table.replaceAll('"', '""')}" where id > ? order by id limit ?`);
  const nextPage = async (): Promise<SourceRow[]> =>
    sqlitePage
      ? (sqlitePage.all(after, pageSize) as SourceRow[])
      : ((await source.kysely.selectFrom(table).selectAll().where('id', '>', after).orderBy('id').limit(pageSize).execute()) as SourceRow[]);
  for (;;) {
    const page = await nextPage();
    if (page.length === 0) return;
    yield page;
    after = Number(page[page.length - 1].id);
    if (page.length < pageSize) return;
  }
}
