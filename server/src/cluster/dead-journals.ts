import type { FastifyBaseLogger } from 'fastify';
import type { Logger } from 'pino';
import type { Db } from '../db/connect.js';
import type { JournalPlace } from '../relay/settlement-journal/open.js';
import { replayDeadJournals } from '../relay/settlement-journal/recovery.js';

/**
 * Charges what dead processes of this host answered and had not written yet (their settlement journals). Runs before
 * their reservations are given back (dead-reservations.ts), so a call that was answered is charged rather than
 * refunded; the other order is safe too (store/quota.ts). Resolves with the settlements still to write (0: done).
 */
export async function replayDeadProcessJournals(db: Db, place: JournalPlace, log: FastifyBaseLogger | Logger): Promise<number> {
  try {
    const r = await replayDeadJournals({ ...place, db: db.kysely, log });
    if (r.settlements > 0) log.warn(r, 'charged the calls that processes of this host answered before they died (from their settlement journals)');
    return r.left;
  } catch (err) {
    log.error({ err }, 'could not replay the settlement journals of processes that are gone');
    return 1;
  }
}
