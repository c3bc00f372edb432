import type { Kysely } from 'kysely';
import { PRESENCE_TTL_MS } from '../cluster/server-presence.js';
import type { Database } from '../db/schema.js';
import { liveServers } from '../store/server-presence.js';

/**
 * Why an import does not write a database a server is running on, or null when none is. A running server keeps
 * serving the routing, keys and balances it loaded before the import, and its own writes would mix with the
 * imported rows.
 */
export async function runningServersMessage(db: Kysely<Database>, now = Date.now()): Promise<string | null> {
  const live = await liveServers(db, now);
  if (live.length === 0) return null;
  const seconds = Math.ceil(PRESENCE_TTL_MS / 1000);
  const names = live.map((s) => s.holder).sort().join(', ');
  return (
    `a Switchyard server is running on this database (${names}): stop every server on it, then import. A server ` +
    `that was killed stops counting ${seconds} s after it last said it was running.`
  );
}
