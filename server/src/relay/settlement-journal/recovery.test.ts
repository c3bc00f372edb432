import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { migratedDatabase } from '../../test/migrated-database.js';
import { insertUser } from '../../store/users.js';
import { applySettlements, reserveQuota, type Reservation, type Settlement } from '../../store/quota.js';
import { releaseReservationsOf, reservationHolder } from '../../store/reservations.js';
import { batchLine, headerLine, journalFileName, parseJournal, settlementLine, writtenLine } from './format.js';
import { replayDeadJournals } from './recovery.js';

/*
 * What a dead process journaled is charged once: the batches it never wrote and the settlements in no batch yet,
 * not the batches it wrote (marked, or only recorded in the database: killed between its commit and the mark), and
 * a reservation is never both charged against and given back.
 */

const log = pino({ level: 'silent' });
const DEAD = { pid: 999_999, startedMs: 1_700_000_000_000 };
const ALIVE = { pid: 999_998, startedMs: 1_700_000_000_000 };
const isAlive = (pid: number) => pid === ALIVE.pid;

describe.each(testDatabases())('replaying dead processes’ settlement journals on $name', (database) => {
  const db = migratedDatabase(database);
  let dir: string;
  let userId: number;
  let n = 0;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'replay-test-'));
    userId = await insertUser(db().kysely, { username: `p${++n}x${Date.now() % 100000}`, password: 'x', aff_code: `p${n}x${Date.now() % 100000}`, quota: 1_000_000 });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const settlement = (cost: number, reservation: Partial<Reservation> = {}): Settlement => ({
    reservation: { userId, tokenId: 0, tokenUnlimited: true, amount: 0, ...reservation },
    cost,
    channelId: 0,
    countsAsRequest: true,
    log: {
      user_id: userId, created_at: 1_700_000_000, type: 2, content: '', username: 'p', token_name: 't', model_name: 'gpt-4o',
      quota: cost, prompt_tokens: cost, completion_tokens: 1, use_time: 0, is_stream: 0, channel_id: 0, token_id: 0,
      group: 'default', ip: '127.0.0.1', other: '{}',
    },
  });

  const books = async () => {
    const user = await db().kysely.selectFrom('users').select(['quota', 'used_quota', 'request_count']).where('id', '=', userId).executeTakeFirstOrThrow();
    const logs = await db().kysely.selectFrom('logs').select('prompt_tokens').where('user_id', '=', userId).orderBy('prompt_tokens').execute();
    return { spent: 1_000_000 - Number(user.quota), used: Number(user.used_quota), requests: Number(user.request_count), logs: logs.map((l) => l.prompt_tokens) };
  };

  const journal = (writer: { pid: number; startedMs: number }, lines: string[], database_ = database.name) => {
    const file = path.join(dir, journalFileName({ ...writer, tag: 'a-0' }));
    writeFileSync(file, headerLine(database_) + lines.join(''));
    return file;
  };

  const replay = () => replayDeadJournals({ dir, database: database.name, db: db().kysely, log, isAlive });

  it('charges the batches a dead process had not written and what was in no batch, and nothing it had written', async () => {
    const [a, b, c, d, e] = [settlement(3), settlement(5), settlement(7), settlement(11), settlement(13)];
    // b's batch was committed just before the process died: recorded in the database, not yet marked in the file.
    await applySettlements(db().kysely, [a], 'batch-a');
    await applySettlements(db().kysely, [b], 'batch-b');
    const file = journal(DEAD, [
      settlementLine(a), batchLine('batch-a', 1), writtenLine('batch-a'),
      settlementLine(b), batchLine('batch-b', 1),
      settlementLine(c), settlementLine(d), batchLine('batch-cd', 2),
      settlementLine(e),
      // Killed in the middle of a line: it never reached the client's answer's end.
      '{"s":{"reservation":',
    ]);
    const r = await replay();
    expect(r).toEqual({ files: 1, settlements: 4, left: 0 });
    expect(await books()).toEqual({ spent: 39, used: 39, requests: 5, logs: [3, 5, 7, 11, 13] });
    expect(existsSync(file)).toBe(false);
    // Replayed again (nothing left to replay): nothing changes.
    expect(await replay()).toEqual({ files: 0, settlements: 0, left: 0 });
    expect((await books()).spent).toBe(39);
  });

  it('leaves the journals of live processes and of another database alone', async () => {
    const live = journal(ALIVE, [settlementLine(settlement(2))]);
    const other = path.join(dir, journalFileName({ ...DEAD, tag: 'b-0' }));
    writeFileSync(other, headerLine('another-database') + settlementLine(settlement(4)));
    expect(await replay()).toEqual({ files: 0, settlements: 0, left: 0 });
    expect(existsSync(live) && existsSync(other)).toBe(true);
    expect((await books()).spent).toBe(0);
  });

  it('keeps a journal it could not write (the database away) under its own name, and finishes it on the next try', async () => {
    journal(DEAD, [settlementLine(settlement(6))]);
    const away = database.name === 'mysql' ? 'rename table logs to logs_away' : 'alter table logs rename to logs_away';
    const back = database.name === 'mysql' ? 'rename table logs_away to logs' : 'alter table logs_away rename to logs';
    const { sql } = await import('kysely');
    await sql.raw(away).execute(db().kysely);
    let first;
    try {
      first = await replayDeadJournals({ dir, database: database.name, db: db().kysely, log, isAlive, timeoutMs: 300 });
    } finally {
      await sql.raw(back).execute(db().kysely);
    }
    expect(first).toMatchObject({ files: 1, left: 1 });
    // Taken over: named for this process now, so no other process replays it while this one still may.
    const [name] = readdirSync(dir);
    expect(name).toContain(`~${process.pid}~`);
    expect(await replay()).toEqual({ files: 1, settlements: 1, left: 0 });
    expect(await books()).toMatchObject({ spent: 6, logs: [6] });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('names the batch it replays on a line of its own after a line cut short, so a second replay writes the same batch', async () => {
    const file = journal(DEAD, [settlementLine(settlement(8)), settlementLine(settlement(9)).slice(0, 12)]);
    const away = database.name === 'mysql' ? 'rename table logs to logs_away' : 'alter table logs rename to logs_away';
    const back = database.name === 'mysql' ? 'rename table logs_away to logs' : 'alter table logs_away rename to logs';
    const { sql } = await import('kysely');
    await sql.raw(away).execute(db().kysely);
    try {
      expect(await replayDeadJournals({ dir, database: database.name, db: db().kysely, log, isAlive, timeoutMs: 300 })).toMatchObject({ left: 1 });
    } finally {
      await sql.raw(back).execute(db().kysely);
    }
    expect(existsSync(file)).toBe(false);
    const [kept] = readdirSync(dir);
    const { batches, unassigned } = parseJournal(readFileSync(path.join(dir, kept), 'utf8'));
    expect(unassigned).toEqual([]);
    expect(batches).toEqual([{ id: expect.any(String) as string, settlements: [settlement(8)], written: false }]);
    expect(await replay()).toEqual({ files: 1, settlements: 1, left: 0 });
    expect(await books()).toMatchObject({ spent: 8, logs: [8] });
  });

  for (const order of ['replayed before the release', 'released before the replay'] as const) {
    it(`charges an answered call with a reservation once and gives back only the reservations of calls in flight (${order})`, async () => {
      const holder = reservationHolder(DEAD.pid, DEAD.startedMs);
      const answered: Reservation = { userId, tokenId: 0, tokenUnlimited: true, amount: 100 };
      const inFlight: Reservation = { userId, tokenId: 0, tokenUnlimited: true, amount: 200 };
      expect(await reserveQuota(db().kysely, answered)).toBe('ok');
      expect(await reserveQuota(db().kysely, inFlight)).toBe('ok');
      await db().kysely.updateTable('reservations').set({ holder }).where('id', 'in', [answered.id!, inFlight.id!]).execute();
      journal(DEAD, [settlementLine(settlement(30, answered))]);
      if (order === 'replayed before the release') {
        await replay();
        expect(await releaseReservationsOf(db().kysely, holder)).toEqual({ calls: 1, quota: 200 });
      } else {
        expect(await releaseReservationsOf(db().kysely, holder)).toEqual({ calls: 2, quota: 300 });
        await replay();
      }
      expect(await books()).toEqual({ spent: 30, used: 30, requests: 1, logs: [30] });
      expect(await db().kysely.selectFrom('reservations').select('id').where('holder', '=', holder).execute()).toEqual([]);
    });
  }
});
