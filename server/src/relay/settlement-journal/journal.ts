import { randomBytes } from 'node:crypto';
import { closeSync, ftruncateSync, mkdirSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Settlement } from '../../store/quota.js';
import type { SettlementRecord } from '../settler.js';
import { batchLine, headerLine, journalFileName, settlementLine, writtenLine } from './format.js';

/*
 * This process's settlement journal (format.ts). The settler batches settlements in memory for 100 ms; a process
 * killed meanwhile would take the charges of calls it had already answered with it. So each settlement is written
 * here before its answer's last bytes go out: once write() returns the line is in the kernel's page cache and
 * outlives the process (not the machine). When the queue becomes a batch a line names it, and when the batch is in
 * the database another line says so; a process of this host replays what a dead process left (recovery.ts).
 *
 * The lines of the calls that end in one turn of the event loop go out in one write (group commit), at the end of
 * that turn (setImmediate): a write(2) cost ~9 µs of CPU per call on the relay path, one per call. A call's last
 * bytes wait for it (`whenWritten`), so what a client has whole is journaled whatever happens next; the wait is the
 * rest of the loop's turn, microseconds when the node is idle.
 *
 * The journal is a run of files (segments). A new one is begun when the current one is large or old, right after a
 * batch line (so a batch never spans two files), and an old one is deleted once all its batches are written: the
 * files hold only recent, mostly unwritten, batches.
 *
 * A write that fails (disk full, I/O error) is not retried on the spot: the settlements not yet in a batch are cut
 * from the file (they stay in memory, as they were before there was a journal), and `failed` holds — the relay
 * refuses new calls, as it does when settlements pile up — until a new segment can be begun (tried every
 * RETRY_MS). A call's answer is never held back for the journal.
 */

/** A segment past this size is followed by a new one at the next batch. */
const ROTATE_BYTES = 4 * 1024 * 1024;
/** Nor is a segment kept longer than this: its written batches' records are pruned from the database after an hour. */
const ROTATE_MS = 10 * 60 * 1000;
const RETRY_MS = 1000;

interface Segment {
  file: string;
  fd: number;
  bytes: number;
  /** Where the settlements in no batch yet begin. */
  assignedBytes: number;
  unassigned: number;
  /** Batches of this segment not yet written. */
  openBatches: number;
  openedAt: number;
  closed: boolean;
}

export interface JournalOptions {
  dir: string;
  /** The database its settlements belong to (format.ts: journalDatabaseName). */
  database: string;
  log: FastifyBaseLogger;
  /** Removes `dir` itself on close (a folder made for this process only). */
  ownDir?: boolean;
  rotateBytes?: number;
  rotateMs?: number;
}

export class SettlementJournal implements SettlementRecord {
  private current: Segment;
  private readonly segments = new Set<Segment>();
  private readonly tag = randomBytes(4).toString('hex');
  private seq = 0;
  /** When the journal last failed (0: it works). */
  private failedAt = 0;
  /** Settlement lines appended and not yet written (counted in the current segment's `unassigned`). */
  private pending = '';
  /** Last writes of answers waiting for `pending` to be written. */
  private waiting: Array<() => void> = [];
  private writeScheduled = false;
  private readonly rotateBytes: number;
  private readonly rotateMs: number;

  /** Throws when the folder cannot be written: better a node that does not start than one that loses charges. */
  constructor(private readonly o: JournalOptions) {
    this.rotateBytes = o.rotateBytes ?? ROTATE_BYTES;
    this.rotateMs = o.rotateMs ?? ROTATE_MS;
    mkdirSync(o.dir, { recursive: true });
    this.current = this.begin();
  }

  /** The journal cannot be written: no new call should be taken. Tries a new segment now and then. */
  get failed(): boolean {
    if (this.failedAt === 0) return false;
    if (Date.now() - this.failedAt < RETRY_MS) return true;
    try {
      this.replaceCurrent();
      this.failedAt = 0;
      this.o.log.warn('the settlement journal can be written again; taking calls again');
    } catch (err) {
      this.failedAt = Date.now();
      this.o.log.error({ err }, 'the settlement journal still cannot be written');
    }
    return this.failedAt !== 0;
  }

  append(s: Settlement): void {
    // What only gives a reservation back needs no line: a dead process's reservations are given back anyway.
    if (s.cost === 0 && !s.countsAsRequest && !s.log) return;
    if (this.failedAt !== 0) return;
    this.pending += settlementLine(s);
    this.current.unassigned++;
    if (!this.writeScheduled) {
      this.writeScheduled = true;
      setImmediate(this.writePending);
    }
  }

  whenWritten(lastWrite: () => void): void {
    if (this.pending === '') lastWrite();
    else this.waiting.push(lastWrite);
  }

  /** Writes the lines appended in this turn of the loop, then lets the answers waiting for them end. */
  private readonly writePending = (): void => {
    this.writeScheduled = false;
    if (this.pending !== '') {
      const lines = this.pending;
      this.pending = '';
      try {
        writeLine(this.current, lines);
      } catch (err) {
        this.fail(err, 'settlements');
      }
    }
    const waiting = this.waiting;
    this.waiting = [];
    for (const lastWrite of waiting) {
      try {
        lastWrite();
      } catch (err) {
        this.o.log.error({ err }, 'ending an answer after its settlement was journaled failed');
      }
    }
  };

  formed(id: string): (() => void) | null {
    const seg = this.current;
    if (seg.unassigned === 0) return null;
    // The batch's own lines first, in the same write: a batch line names settlements written before it.
    const lines = this.pending + batchLine(id, seg.unassigned);
    this.pending = '';
    try {
      writeLine(seg, lines);
    } catch (err) {
      this.fail(err, 'a batch');
      return null;
    }
    seg.unassigned = 0;
    seg.assignedBytes = seg.bytes;
    seg.openBatches++;
    if (seg.bytes >= this.rotateBytes || Date.now() - seg.openedAt >= this.rotateMs) this.rotate();
    return () => this.written(seg, id);
  }

  /** Closes the files; removes them when everything they hold is written (else they are left to be replayed). */
  close(allWritten: boolean): void {
    this.writePending();
    for (const seg of this.segments) this.end(seg, allWritten);
    if (allWritten && this.o.ownDir) rmSync(this.o.dir, { recursive: true, force: true });
  }

  private written(seg: Segment, id: string): void {
    seg.openBatches--;
    if (seg !== this.current && seg.openBatches === 0) {
      this.end(seg, true);
      return;
    }
    if (seg.closed) return;
    try {
      writeLine(seg, writtenLine(id));
    } catch (err) {
      // The batch is in the database either way; its record there says so to whoever replays this file.
      this.fail(err, 'a written batch');
    }
  }

  private begin(): Segment {
    const file = path.join(this.o.dir, journalFileName({ pid: process.pid, startedMs: performance.timeOrigin, tag: `${this.tag}-${this.seq++}` }));
    // Appending: a cut (ftruncate) moves where the next line goes.
    const fd = openSync(file, 'ax');
    const seg: Segment = { file, fd, bytes: 0, assignedBytes: 0, unassigned: 0, openBatches: 0, openedAt: Date.now(), closed: false };
    try {
      writeLine(seg, headerLine(this.o.database));
      seg.assignedBytes = seg.bytes;
      this.segments.add(seg);
      return seg;
    } catch (err) {
      closeSync(fd);
      unlinkSync(file);
      throw err;
    }
  }

  private rotate(): void {
    try {
      this.replaceCurrent();
    } catch (err) {
      this.o.log.warn({ err }, 'could not begin a new settlement journal file; the current one grows');
    }
  }

  /** Begins a new segment; the old one goes as soon as none of its batches is left to write. */
  private replaceCurrent(): void {
    const old = this.current;
    this.current = this.begin();
    if (old.openBatches === 0) this.end(old, true);
  }

  private end(seg: Segment, remove: boolean): void {
    if (!seg.closed) {
      seg.closed = true;
      closeSync(seg.fd);
    }
    this.segments.delete(seg);
    if (remove) rmSync(seg.file, { force: true });
  }

  /**
   * A line could not be written. The settlements in no batch yet are cut from the file — a replay would otherwise
   * give them a batch of their own while their real batch is written from memory, charging them twice — and the
   * journal stays failed until a new segment can be begun.
   */
  private fail(err: unknown, what: string): void {
    this.failedAt = Date.now();
    const seg = this.current;
    this.o.log.error({ err, file: seg.file }, `writing ${what} to the settlement journal failed: taking no new calls until it can be written`);
    this.pending = '';
    try {
      ftruncateSync(seg.fd, seg.assignedBytes);
      seg.bytes = seg.assignedBytes;
      seg.unassigned = 0;
    } catch (cut) {
      // Not even cut: no replay of this file may happen at all (its batches are in memory, written from there).
      this.o.log.error({ err: cut, file: seg.file }, 'could not cut the settlement journal back; removing it');
      seg.unassigned = 0;
      this.end(seg, true);
    }
  }
}

/** One line by one write call; a short write (the disk filled up in the middle) is a failure like any other. */
function writeLine(seg: Segment, line: string): void {
  const bytes = Buffer.byteLength(line);
  const n = writeSync(seg.fd, line);
  seg.bytes += n;
  if (n !== bytes) throw new Error(`short write to the settlement journal (${n} of ${bytes} bytes)`);
}
