import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { IMPORT_MARKER } from './target.js';

/** Why the server does not start on a database an import was writing when it was killed, and what to do. */
export function interruptedImportMessage(startedAt: number): string {
  const when = startedAt > 0 ? ` (started ${new Date(startedAt * 1000).toISOString()})` : '';
  return (
    `this database holds an import that was stopped half-way${when}: options.${IMPORT_MARKER} is set, and the server ` +
    'does not start on half the data. Run the same `npm run import -- <source>` again: it clears what the stopped ' +
    'run wrote and imports from the start. Or point SQL_DSN / SQLITE_PATH at another database (docs/migrating.md).'
  );
}

/** Throws when an import was killed while writing this database (its marker row is still in `options`). */
export async function refuseInterruptedImport(db: Kysely<Database>): Promise<void> {
  const marker = await db.selectFrom('options').select('value').where('key', '=', IMPORT_MARKER).executeTakeFirst();
  if (marker) throw new Error(interruptedImportMessage(Number.parseInt(marker.value, 10) || 0));
}
