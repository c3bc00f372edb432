import type { FastifyBaseLogger } from 'fastify';
import type { Logger } from 'pino';
import type { Db } from '../db/connect.js';
import { releaseDeadHoldersOfHost } from '../store/reservations.js';

/** Whether this process has started a node already (tests build several in one process). */
let started = false;

/**
 * At the start of a node (its primary, or its only process): what processes of this host that are gone left
 * reserved — killed outright, with nobody left to see them go — goes back to its users. At the first start in a
 * process that includes rows in its own name: nothing of this process has reserved yet, so an earlier process with
 * the same host and pid left them (a container restarted after a kill: same hostname, and pid 1 again).
 */
export async function releaseDeadReservations(db: Db, log: FastifyBaseLogger | Logger): Promise<void> {
  const first = !started;
  started = true;
  try {
    const released = await releaseDeadHoldersOfHost(db.kysely, undefined, undefined, first);
    if (released.calls > 0) log.warn(released, 'gave back the balance reserved by calls of processes of this host that are gone');
  } catch (err) {
    log.error({ err }, 'could not give back the reservations of processes that are gone');
  }
}
