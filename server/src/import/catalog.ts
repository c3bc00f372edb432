import { sql } from 'kysely';
import type { SourceDb } from './source.js';

/** The source's tables and their columns, read from the database's own catalog (lower-case names). */
export type Catalog = Map<string, Set<string>>;

export async function readCatalog(source: SourceDb): Promise<Catalog> {
  const catalog: Catalog = new Map();
  const add = (table: string, column: string) => {
    const key = table.toLowerCase();
    if (!catalog.has(key)) catalog.set(key, new Set());
    catalog.get(key)?.add(column.toLowerCase());
  };
  if (source.dialect === 'sqlite') {
    const { rows } = await sql<{ t: string; c: string }>`
      select m.name as t, p.name as c from sqlite_master m join pragma_table_info(m.name) p
      where m.type = 'table' and m.name not like 'sqlite_%'`.execute(source.kysely);
    for (const r of rows) add(r.t, r.c);
    return catalog;
  }
  const schema = source.dialect === 'postgres' ? sql`current_schema()` : sql`database()`;
  const { rows } = await sql<{ t: string; c: string }>`
    select table_name as t, column_name as c from information_schema.columns where table_schema = ${schema}`.execute(source.kysely);
  for (const r of rows) add(r.t, r.c);
  return catalog;
}

export const hasColumn = (catalog: Catalog, table: string, column: string): boolean => catalog.get(table)?.has(column) ?? false;
