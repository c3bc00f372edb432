import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { announceServer, withdrawServer } from '../store/server-presence.js';

/** A beat every 10 s; a row runs out 30 s after the last one (two beats may be missed on a busy database). */
export const PRESENCE_BEAT_MS = 10_000;
export const PRESENCE_TTL_MS = 30_000;

/**
 * This process's presence on its database (store/server-presence.ts): announced before the server checks for a
 * half-done import, renewed on a timer, withdrawn as the server closes. An import checks for presences after
 * setting its marker and a server checks for the marker after announcing itself, so of two that start together
 * at least one sees the other.
 */
export class ServerPresence {
  private timer: NodeJS.Timeout | undefined;
  private readonly id = randomUUID();
  private readonly holder = `${os.hostname()}/${process.pid}`;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly onError: (err: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {}

  async announce(): Promise<void> {
    await this.beat();
    this.timer = setInterval(() => void this.beat().catch(this.onError), PRESENCE_BEAT_MS);
    this.timer.unref();
  }

  async withdraw(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await withdrawServer(this.db, this.id);
  }

  private async beat(): Promise<void> {
    const now = this.now();
    await announceServer(this.db, this.id, this.holder, now, now + PRESENCE_TTL_MS);
  }
}
