import { randomBytes } from 'node:crypto';
import { appendFileSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../../db/schema.js';
import { holderAlive } from '../../store/reservations.js';
import { Settler } from '../settler.js';
import { batchLine, databaseOfFile, journalFileName, parseJournal, writerOfFile, writtenLine } from './format.js';

/*
 * Replaying what dead processes of this host left in their settlement journals (journal.ts): the calls they answered
 * whose settlements were still in their memory. A file is taken over by renaming it to this process's name — one
 * rename succeeds, so two processes (two nodes on one data folder) never replay the same file — and if this process
 * dies in turn, the file is a dead process's again. Settlements in no batch yet get one, written to the file before
 * anything is written to the database; each batch not marked written is looked up (its id is recorded with its
 * writes) and written only if absent, so a batch is applied exactly once whoever replays it and however often.
 * Reservations given back meanwhile are not given twice (store/quota.ts: applySettlements, recovered).
 */

export interface ReplayOptions {
  dir: string;
  /** This node's database (format.ts: journalDatabaseName): files of another are left alone. */
  database: string;
  db: Kysely<Database>;
  log: FastifyBaseLogger | Logger;
  /** How long the database may take to accept the replayed batches (retrying while it is away). */
  timeoutMs?: number;
  isAlive?: (pid: number, startedMs: number) => boolean;
}

export interface Replayed {
  files: number;
  settlements: number;
  /** Settlements that could not be written this time (their file stays, taken over, for the next try). */
  left: number;
}

const OWN = { pid: process.pid, startedMs: Math.round(performance.timeOrigin) };
const TAKEN_OVER = 'r-';

export async function replayDeadJournals(o: ReplayOptions): Promise<Replayed> {
  const total: Replayed = { files: 0, settlements: 0, left: 0 };
  let names: string[];
  try {
    names = readdirSync(o.dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return total;
    throw err;
  }
  const isAlive = o.isAlive ?? holderAlive;
  for (const name of names.sort()) {
    const w = writerOfFile(name);
    if (!w) continue;
    const own = w.pid === OWN.pid && w.startedMs === OWN.startedMs;
    // This process's own journal is live; what it took over earlier and could not finish is tried again.
    if (own ? !w.tag.startsWith(TAKEN_OVER) : isAlive(w.pid, w.startedMs)) continue;
    const file = path.join(o.dir, name);
    if (databaseOfFile(file) !== o.database) continue;
    const taken = own ? file : takeOver(file, o.dir);
    if (!taken) continue;
    const r = await replayFile(taken, o);
    total.files++;
    total.settlements += r.settlements;
    total.left += r.left;
  }
  return total;
}

/** Renames a dead process's file to this process's name; null when another process took it first. */
function takeOver(file: string, dir: string): string | null {
  const taken = path.join(dir, journalFileName({ ...OWN, tag: `${TAKEN_OVER}${randomBytes(4).toString('hex')}` }));
  try {
    renameSync(file, taken);
    return taken;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

async function replayFile(file: string, o: ReplayOptions): Promise<{ settlements: number; left: number }> {
  const text = readFileSync(file, 'utf8');
  const { batches, unassigned } = parseJournal(text);
  // A writer killed in the middle of a write leaves a line cut short: what is added here begins on a line of its own.
  if (text !== '' && !text.endsWith('\n')) appendFileSync(file, '\n');
  if (unassigned.length > 0) {
    const id = randomBytes(16).toString('hex');
    // Named in the file first: whoever replays it after a crash here writes the same batch under the same id.
    appendFileSync(file, batchLine(id, unassigned.length));
    batches.push({ id, settlements: unassigned, written: false });
  }
  const settler = new Settler(o.db, o.log as FastifyBaseLogger);
  settler.recovered = true;
  let settlements = 0;
  for (const b of batches) {
    if (b.written) continue;
    settlements += b.settlements.length;
    settler.adopt(b.id, b.settlements, () => {
      try {
        appendFileSync(file, writtenLine(b.id));
      } catch {
        // Only saves a look-up: the batch's id in the database says it is written.
      }
    });
  }
  const left = await settler.close(Date.now() + (o.timeoutMs ?? 5000));
  if (left === 0) rmSync(file, { force: true });
  else o.log.error({ file, left }, 'could not write the settlements a dead process journaled; the file stays for the next try');
  return { settlements, left };
}
