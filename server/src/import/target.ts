import { sql, type Kysely } from 'kysely';
import type { Db } from '../db/connect.js';
import type { Database } from '../db/schema.js';
import { DEFAULT_ROOT_PASSWORD, DEFAULT_ROOT_USERNAME } from '../auth/account-state.js';
import { verifyPassword } from '../auth/password.js';

/** Every table an import writes, in the order they are cleared. */
export const IMPORTED_TABLES = [
  'abilities', 'channels', 'tokens', 'redemptions', 'logs', 'top_ups', 'midjourneys', 'tasks', 'quota_data', 'options', 'users',
] as const;

/** Tables that make a target "hold data" besides the imported ones (written by a running gateway). */
const OTHER_DATA_TABLES = ['responses', 'reservations'] as const;

/**
 * An options row that exists only while an import runs: if it is there when an import starts, the previous one
 * was stopped half-way (killed), and what it wrote is cleared before starting again. Not an option we read.
 */
export const IMPORT_MARKER = 'ImportInProgress';

export type TargetState = { kind: 'empty' } | { kind: 'fresh-root'; rootId: number } | { kind: 'interrupted' } | { kind: 'holds-data'; what: string };

async function count(db: Kysely<Database>, table: string): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * What the target holds. Empty, or only the root account a first start creates (root/123456, still untouched):
 * both accept an import. Anything else is refused, so an import never mixes with (or duplicates) existing data.
 */
export async function inspectTarget(db: Kysely<Database>): Promise<TargetState> {
  const marker = await db.selectFrom('options').select('key').where('key', '=', IMPORT_MARKER).executeTakeFirst();
  if (marker) return { kind: 'interrupted' };
  const held: string[] = [];
  for (const table of [...IMPORTED_TABLES, ...OTHER_DATA_TABLES]) {
    const n = await count(db, table);
    if (n > 0) held.push(`${table}: ${n}`);
  }
  if (held.length === 0) return { kind: 'empty' };
  if (held.length === 1 && held[0] === 'users: 1') {
    const user = await db.selectFrom('users').selectAll().executeTakeFirstOrThrow();
    const untouched =
      user.username === DEFAULT_ROOT_USERNAME && user.used_quota === 0 && user.request_count === 0 &&
      (await verifyPassword(DEFAULT_ROOT_PASSWORD, user.password));
    if (untouched) return { kind: 'fresh-root', rootId: user.id };
  }
  return { kind: 'holds-data', what: held.join(', ') };
}

export async function setMarker(db: Kysely<Database>, startedAt: number): Promise<void> {
  await db.insertInto('options').values({ key: IMPORT_MARKER, value: String(startedAt) }).execute();
}

export async function clearMarker(db: Kysely<Database>): Promise<void> {
  await db.deleteFrom('options').where('key', '=', IMPORT_MARKER).execute();
}

/** Empties every imported table (the target was empty when the import began), marker last. */
export async function clearImported(db: Kysely<Database>): Promise<void> {
  for (const table of IMPORTED_TABLES) {
    if (table === 'options') await db.deleteFrom('options').where('key', '!=', IMPORT_MARKER).execute();
    else await sql`delete from ${sql.table(table)}`.execute(db);
  }
  await clearMarker(db);
}

/** PostgreSQL serials do not follow explicit ids: move each past the highest imported id. */
export async function advanceSequences(db: Db, tables: readonly string[]): Promise<void> {
  if (db.dialect !== 'postgres') return;
  for (const table of tables) {
    await sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce((select max(id) from ${sql.table(table)}), 0) + 1, false)`.execute(
      db.kysely,
    );
  }
}
