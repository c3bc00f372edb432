import { closeSync, openSync, readSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import type { NewLog } from '../../db/schema.js';
import type { Settlement } from '../../store/quota.js';
import { LOG_COLUMNS } from '../../store/quota-sqlite.js';

/*
 * The settlement journal's files (settlement-journal.ts writes them, recovery.ts replays them). One file is a run of
 * JSON lines:
 *
 *   {"journal":1,"db":"<database>"}     first line: which database its settlements belong to
 *   {"t":[<settlement's fields>]}       one settled call, written before its answer ends (SETTLEMENT_FIELDS)
 *   {"s":<settlement>}                  the same as an object (files of earlier versions; still read)
 *   {"b":"<batch id>","n":<count>}      the next <count> settlements not yet in a batch form this batch
 *   {"w":"<batch id>"}                  the batch is in the database
 *
 * A file is named for the process that writes it: <host>~<pid>~<start ms>~<tag>.journal, so a process of the same
 * host can tell whether its writer is still alive. A file taken over for replay is renamed to the taker's name.
 */

export const JOURNAL_SUFFIX = '.journal';

/** Where the journal lives by default: beside the SQLite file (the data folder, also under PostgreSQL or MySQL). */
export function defaultJournalDir(sqlitePath: string): string {
  return path.join(path.dirname(path.resolve(sqlitePath)), 'settlement-journal');
}

/**
 * The database a journal's settlements belong to, without credentials: a journal folder shared by two deployments
 * (two SQLite files in one folder, two databases on one server) must never replay one's calls into the other.
 */
export function journalDatabaseName(sqlDsn: string, sqlitePath: string): string {
  if (sqlDsn === '' || sqlDsn.startsWith('local')) return `sqlite:${path.resolve(sqlitePath)}`;
  if (sqlDsn.startsWith('sqlite:')) return `sqlite:${path.resolve(sqlDsn.slice('sqlite:'.length))}`;
  try {
    const url = new URL(sqlDsn.includes('://') ? sqlDsn : `mysql://${sqlDsn.replace(/@tcp\(([^)]+)\)/, '@$1')}`);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return sqlDsn.replace(/^[^@]*@/, '');
  }
}

export interface JournalWriter {
  host: string;
  pid: number;
  startedMs: number;
  tag: string;
}

const HOST = hostname().slice(0, 80).replace(/[~/\\]/g, '_');

export function journalFileName(w: Omit<JournalWriter, 'host'>): string {
  return `${HOST}~${w.pid}~${Math.round(w.startedMs)}~${w.tag}${JOURNAL_SUFFIX}`;
}

/** The writer a file name names, when it is a journal file of this host. */
export function writerOfFile(name: string): JournalWriter | null {
  if (!name.endsWith(JOURNAL_SUFFIX)) return null;
  const [host, pid, started, tag, ...rest] = name.slice(0, -JOURNAL_SUFFIX.length).split('~');
  if (host !== HOST || rest.length > 0 || tag === undefined) return null;
  const w = { host, pid: Number(pid), startedMs: Number(started), tag };
  return Number.isInteger(w.pid) && Number.isFinite(w.startedMs) ? w : null;
}

export const headerLine = (database: string) => `${JSON.stringify({ journal: 1, db: database })}\n`;
/**
 * A settlement's fields in line order, the consume log's last (none when it has no log). An array costs about a
 * third less to write than the object with its keys, and this runs once per relayed call. The log's fields are the
 * columns the settlement writes (LOG_COLUMNS): a column added there is journaled too.
 */
const HEAD_FIELDS = 8;

export function settlementLine(s: Settlement): string {
  const r = s.reservation;
  const fields: unknown[] = [r.userId, r.tokenId, r.tokenUnlimited, r.amount, r.id ?? null, s.cost, s.channelId, s.countsAsRequest];
  const { log } = s;
  if (log) for (const name of LOG_COLUMNS) fields.push(log[name] ?? null);
  return `{"t":${JSON.stringify(fields)}}\n`;
}

/** The settlement of a {"t": [...]} line; null when the fields are not what settlementLine writes. */
function settlementOfFields(f: unknown): Settlement | null {
  // Fewer log fields: a line of an earlier version, before a column was added (LOG_COLUMNS only grows at its end).
  if (!Array.isArray(f) || f.length < HEAD_FIELDS || f.length > HEAD_FIELDS + LOG_COLUMNS.length) return null;
  const [userId, tokenId, tokenUnlimited, amount, id, cost, channelId, countsAsRequest] = f as [number, number, boolean, number, string | null, number, number, boolean];
  const reservation: Settlement['reservation'] = { userId, tokenId, tokenUnlimited, amount };
  if (id !== null) reservation.id = id;
  let log: NewLog | null = null;
  if (f.length > HEAD_FIELDS) {
    const row: Record<string, unknown> = {};
    LOG_COLUMNS.forEach((name, i) => {
      const v: unknown = f[HEAD_FIELDS + i];
      if (v !== null && v !== undefined) row[name] = v;
    });
    log = row as unknown as NewLog;
  }
  return { reservation, cost, channelId, countsAsRequest, log };
}
export const batchLine = (id: string, count: number) => `{"b":${JSON.stringify(id)},"n":${count}}\n`;
export const writtenLine = (id: string) => `{"w":${JSON.stringify(id)}}\n`;

/** The first line of a journal file: the database it belongs to (null when unreadable). */
export function databaseOfFile(file: string): string | null {
  let fd: number | null = null;
  try {
    fd = openSync(file, 'r');
    const buf = Buffer.alloc(4096);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const first = buf.subarray(0, n).toString('utf8').split('\n')[0];
    const header = JSON.parse(first) as { journal?: number; db?: unknown };
    return header.journal === 1 && typeof header.db === 'string' ? header.db : null;
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

export interface JournaledBatch {
  id: string;
  settlements: Settlement[];
  /** A line says it is in the database. */
  written: boolean;
}

export interface JournalContents {
  batches: JournaledBatch[];
  /** Settlements journaled after the last batch was formed (in no batch yet). */
  unassigned: Settlement[];
}

/**
 * Reads a journal's lines. A last line without its newline (the writer killed in the middle of it) and lines that
 * are not JSON are skipped: a settlement line is written by one write call, so it is either whole or absent.
 */
export function parseJournal(text: string): JournalContents {
  const batches: JournaledBatch[] = [];
  const byId = new Map<string, JournaledBatch>();
  let unassigned: Settlement[] = [];
  const lines = text.split('\n');
  lines.pop();
  for (const line of lines) {
    let entry: { t?: unknown; s?: Settlement; b?: string; n?: number; w?: string };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      continue;
    }
    const settled = entry.t !== undefined ? settlementOfFields(entry.t) : (entry.s ?? null);
    if (settled) unassigned.push(settled);
    else if (typeof entry.b === 'string' && typeof entry.n === 'number') {
      const batch = { id: entry.b, settlements: unassigned.slice(0, entry.n), written: false };
      unassigned = unassigned.slice(entry.n);
      batches.push(batch);
      byId.set(batch.id, batch);
    } else if (typeof entry.w === 'string') {
      const batch = byId.get(entry.w);
      if (batch) batch.written = true;
    }
  }
  return { batches, unassigned };
}
