import type { FastifyBaseLogger } from 'fastify';
import type { Logger } from 'pino';
import type { Db } from '../db/connect.js';
import { releaseDeadHoldersOfHost } from '../store/reservations.js';

/**
 * At the start of a node (its primary, or its only process): what processes of this host that are gone left
 * reserved — killed outright, with nobody left to see them go, or a container restarted after a kill, whose new
 * processes may have the old ones' pids but not their start times — goes back to its users.
 */
export async function releaseDeadReservations(db: Db, log: FastifyBaseLogger | Logger): Promise<void> {
  try {
    const released = await releaseDeadHoldersOfHost(db.kysely);
    if (released.calls > 0) log.warn(released, 'gave back the balance reserved by calls of processes of this host that are gone');
  } catch (err) {
    log.error({ err }, 'could not give back the reservations of processes that are gone');
  }
}
