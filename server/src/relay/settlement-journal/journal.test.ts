import type * as Fs from 'node:fs';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { testDatabases } from '../../test/databases.js';
import { migratedDatabase } from '../../test/migrated-database.js';
import { insertUser } from '../../store/users.js';
import type { Settlement } from '../../store/quota.js';
import { Settler } from '../settler.js';
import { parseJournal } from './format.js';
import { SettlementJournal } from './journal.js';

/*
 * Each settlement is in the journal from the moment it is queued, each batch is named when it is formed and marked
 * once it is written, and the files go once everything in them is written. A journal that cannot be written stops
 * the node taking calls, and leaves nothing a replay could charge twice.
 */

const disk = vi.hoisted(() => ({ full: false, writes: 0 }));

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof Fs>();
  const writeSync = ((...args: Parameters<typeof real.writeSync>) => {
    if (disk.full) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    disk.writes++;
    return (real.writeSync as (...a: unknown[]) => number)(...args);
  }) as typeof real.writeSync;
  return { ...real, default: { ...real, writeSync }, writeSync };
});

const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;

describe.each(testDatabases())('the settlement journal on $name', (database) => {
  const db = migratedDatabase(database);
  let dir: string;
  let userId: number;
  let n = 0;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'journal-test-'));
    userId = await insertUser(db().kysely, { username: `j${++n}x${Date.now() % 100000}`, password: 'x', aff_code: `j${n}x${Date.now() % 100000}`, quota: 1_000_000 });
    disk.full = false;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const settlement = (cost: number): Settlement => ({
    reservation: { userId, tokenId: 0, tokenUnlimited: true, amount: 0 },
    cost,
    channelId: 0,
    countsAsRequest: true,
    log: null,
  });

  const journalOn = (rotateBytes?: number) => {
    const settler = new Settler(db().kysely, log, 60_000);
    const journal = new SettlementJournal({ dir, database: 'test', log, rotateBytes });
    settler.record = journal;
    return { settler, journal };
  };

  /** Until the lines appended so far are written (an answer's last write waits the same way). */
  const journaled = (settler: Settler) => new Promise<void>((resolve) => settler.whenJournaled(resolve));
  const files = () => readdirSync(dir).filter((f) => f.endsWith('.journal'));
  const contents = () => files().map((f) => parseJournal(readFileSync(path.join(dir, f), 'utf8')));
  const quota = async () => (await db().kysely.selectFrom('users').select('quota').where('id', '=', userId).executeTakeFirstOrThrow()).quota;

  it('has each settlement on disk before an answer waiting for it ends, names its batch, and marks the batch written', async () => {
    const { settler } = journalOn();
    settler.add(settlement(5));
    settler.add(settlement(7));
    await journaled(settler);
    // Nothing is in the database yet (the interval is a minute): the journal alone holds them.
    expect(contents()).toEqual([{ batches: [], unassigned: [settlement(5), settlement(7)] }]);
    await settler.flush();
    const [file] = contents();
    expect(file.unassigned).toEqual([]);
    expect(file.batches).toEqual([{ id: expect.any(String) as string, settlements: [settlement(5), settlement(7)], written: true }]);
    expect(await quota()).toBe(1_000_000 - 12);
    expect(await settler.close()).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('journals no line for a refund that only gives a reservation back (the release of a dead process does that)', async () => {
    const { settler } = journalOn();
    settler.add({ reservation: { userId, tokenId: 0, tokenUnlimited: true, amount: 40, id: 'r1' }, cost: 0, channelId: 0, countsAsRequest: false, log: null });
    await journaled(settler);
    expect(contents()).toEqual([{ batches: [], unassigned: [] }]);
  });

  it('writes the lines of one turn of the loop at once, and lets an answer end only once its line is in the file', async () => {
    const { settler } = journalOn();
    let seenAtEnd: unknown[] = [];
    const before = disk.writes;
    settler.add(settlement(1));
    settler.add(settlement(2));
    settler.whenJournaled(() => (seenAtEnd = contents().flatMap((c) => c.unassigned)));
    settler.add(settlement(3));
    expect(seenAtEnd).toEqual([]);
    await journaled(settler);
    expect(seenAtEnd).toEqual([settlement(1), settlement(2), settlement(3)]);
    expect(disk.writes - before).toBe(1);
    // Nothing waits: an answer ends at once.
    let ended = false;
    settler.whenJournaled(() => (ended = true));
    expect(ended).toBe(true);
    await settler.close();
  });

  it('begins a new file past its size and deletes the old one once its batches are written', async () => {
    const { settler } = journalOn(100);
    settler.add(settlement(1));
    settler.add(settlement(2));
    await settler.flush();
    // The first file was past 100 bytes at its batch: a new one was begun, and the old one went with its batch.
    expect(files()).toHaveLength(1);
    settler.add(settlement(3));
    await journaled(settler);
    expect(contents()).toEqual([{ batches: [], unassigned: [settlement(3)] }]);
    await settler.flush();
    expect(await quota()).toBe(1_000_000 - 6);
    await settler.close();
  });

  it('leaves its files for a replay when it closes with settlements unwritten', () => {
    const { settler, journal } = journalOn();
    settler.add(settlement(9));
    journal.close(false);
    expect(contents()).toEqual([{ batches: [], unassigned: [settlement(9)] }]);
  });

  it('refuses new calls while it cannot be written, cuts what is in no batch, and takes calls again once it can', async () => {
    const { settler } = journalOn();
    settler.add(settlement(1));
    await journaled(settler);
    disk.full = true;
    settler.add(settlement(2));
    // The answer of the call is not held back by the failure.
    await journaled(settler);
    expect(settler.full).toBe(true);
    // Neither is left in the file: a replay would give them a batch of their own while memory writes them too.
    expect(contents()).toEqual([{ batches: [], unassigned: [] }]);
    await settler.flush();
    expect(await quota()).toBe(1_000_000 - 3);
    disk.full = false;
    vi.useFakeTimers({ now: Date.now() + 1_500, toFake: ['Date'] });
    try {
      expect(settler.full).toBe(false);
    } finally {
      vi.useRealTimers();
    }
    settler.add(settlement(4));
    await journaled(settler);
    expect(contents().flatMap((c) => c.unassigned)).toEqual([settlement(4)]);
    await settler.flush();
    expect(await settler.close()).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
  });
});
