import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import pino from 'pino';
import { Writable } from 'node:stream';
import { testDatabases } from '../test/databases.js';
import type { Db } from '../db/connect.js';
import type { NewLog } from '../db/schema.js';
import { migrateToLatest } from '../db/migrate.js';
import { insertUser } from '../store/users.js';
import { insertToken } from '../store/tokens.js';
import type { Settlement } from '../store/quota.js';
import { LogWriter } from '../store/logs.js';
import { Settler } from './settler.js';

/*
 * One row the database refuses must never hold back the other charges: the batch is written again with its rows
 * repaired and each log on its own, so every balance moves and nothing is dropped without a word in the error log.
 */

/** A logger whose lines the test can read. */
function recordingLogger() {
  const lines: Array<{ level: number; msg: string; row?: Record<string, unknown> }> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line) as (typeof lines)[number]);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

/** Makes the database refuse consume logs of one model name, as a constraint it cannot be talked out of. */
async function refuseModel(db: Db, model: string): Promise<void> {
  if (db.dialect === 'sqlite') {
    await sql.raw(`create trigger refuse_model before insert on logs when new.model_name = '${model}' begin select raise(abort, 'refused'); end`).execute(db.kysely);
  } else if (db.dialect === 'postgres') {
    await sql.raw(`create function refuse_model() returns trigger as $$ begin if new.model_name = '${model}' then raise exception 'refused'; end if; return new; end $$ language plpgsql`).execute(db.kysely);
    await sql.raw('create trigger refuse_model before insert on logs for each row execute function refuse_model()').execute(db.kysely);
  } else {
    await sql.raw(`create trigger refuse_model before insert on logs for each row begin if new.model_name = '${model}' then signal sqlstate '45000' set message_text = 'refused'; end if; end`).execute(db.kysely);
  }
}

describe.each(testDatabases())('settlement batches on $name', (database) => {
  let db: Db;
  let drop: () => Promise<void>;
  let n = 0;
  beforeAll(async () => {
    ({ db, drop } = await database.open());
    await migrateToLatest(db);
    await refuseModel(db, 'refused-model');
  });
  afterAll(() => drop());

  async function account() {
    const userId = await insertUser(db.kysely, { username: `s${++n}`, password: 'x', aff_code: `s${n}`, quota: 1_000_000 });
    const token = await insertToken(db.kysely, {
      user_id: userId, name: 't', status: 1, expired_time: -1, remain_quota: 1_000_000, unlimited_quota: false,
      model_limits_enabled: false, model_limits: '', allow_ips: '', group: '',
    });
    return { userId, tokenId: token.id };
  }

  function settlement(a: { userId: number; tokenId: number }, cost: number, log: Partial<NewLog> = {}): Settlement {
    return {
      reservation: { userId: a.userId, tokenId: a.tokenId, tokenUnlimited: false, amount: 0 },
      cost,
      channelId: 0,
      countsAsRequest: true,
      log: {
        user_id: a.userId, created_at: 1_700_000_000, type: 2, content: '', username: `s${n}`, token_name: 't', model_name: 'gpt-4o',
        quota: cost, prompt_tokens: 1, completion_tokens: 1, use_time: 0, is_stream: 0, channel_id: 0, token_id: a.tokenId,
        group: 'default', ip: '127.0.0.1', other: '{}', ...log,
      },
    };
  }

  async function books(a: { userId: number; tokenId: number }) {
    const user = await db.kysely.selectFrom('users').select(['quota', 'used_quota']).where('id', '=', a.userId).executeTakeFirstOrThrow();
    const token = await db.kysely.selectFrom('tokens').select(['remain_quota', 'used_quota']).where('id', '=', a.tokenId).executeTakeFirstOrThrow();
    const logs = await db.kysely.selectFrom('logs').selectAll().where('user_id', '=', a.userId).orderBy('id').execute();
    return { spent: 1_000_000 - user.quota, tokenSpent: 1_000_000 - token.remain_quota, used: user.used_quota, logs };
  }

  it('charges every call of a batch in which one log was built without a client address', async () => {
    const a = await account();
    const b = await account();
    const { logger } = recordingLogger();
    const settler = new Settler(db.kysely, logger);
    settler.add(settlement(a, 10));
    settler.add(settlement(b, 20, { ip: undefined }));
    settler.add(settlement(a, 30));
    await settler.flush();
    expect(settler.pending).toBe(0);
    expect((await books(a)).spent).toBe(40);
    const bBooks = await books(b);
    expect(bBooks.spent).toBe(20);
    expect(bBooks.logs).toHaveLength(1);
    expect(bBooks.logs[0].ip).toBe('');
    // PostgreSQL and MySQL fill a missing column with its default; SQLite's multi-row insert sends NULL.
    if (db.dialect === 'sqlite') expect(settler.stats.repairedRows).toBe(1);
  });

  it('repairs values out of their columns range instead of holding the batch', async () => {
    const a = await account();
    const { logger } = recordingLogger();
    const settler = new Settler(db.kysely, logger);
    settler.add(settlement(a, 5, { model_name: 'm'.repeat(300), prompt_tokens: 2 ** 40, username: 'nul\u0000name', other: 'x'.repeat(70_000) }));
    settler.add(settlement(a, 7));
    await settler.flush();
    const { spent, logs } = await books(a);
    expect(spent).toBe(12);
    expect(logs).toHaveLength(2);
    // SQLite takes such values as they are; the servers refuse them, and then they are cut to fit.
    if (db.dialect !== 'sqlite') {
      expect(logs[0].model_name).toHaveLength(255);
      expect(logs[0].username).toBe('nulname');
      expect(logs[0].prompt_tokens).toBe(2_147_483_647);
    }
  });

  it('sets a row the database refuses aside in the error log and still applies every charge', async () => {
    const a = await account();
    const { logger, lines } = recordingLogger();
    const settler = new Settler(db.kysely, logger);
    settler.add(settlement(a, 11));
    settler.add(settlement(a, 13, { model_name: 'refused-model' }));
    settler.add(settlement(a, 17));
    await settler.flush();
    const { spent, tokenSpent, used, logs } = await books(a);
    expect(spent).toBe(41);
    expect(tokenSpent).toBe(41);
    expect(used).toBe(41);
    expect(logs.map((l) => l.quota)).toEqual([11, 17]);
    expect(settler.stats.setAsideRows).toBe(1);
    const setAside = lines.find((l) => l.level === 50 && l.row?.model_name === 'refused-model');
    expect(setAside?.row).toMatchObject({ quota: 13, user_id: a.userId });
    // Later batches are not held back.
    settler.add(settlement(a, 19));
    await settler.flush();
    expect((await books(a)).spent).toBe(60);
  });

  it('keeps a batch while the database is away and writes it once, in order, when it is back', async () => {
    const a = await account();
    const { logger } = recordingLogger();
    const settler = new Settler(db.kysely, logger, 10);
    await sql`alter table tokens rename to tokens_away`.execute(db.kysely);
    try {
      settler.add(settlement(a, 3));
      settler.add(settlement(a, 4));
      await settler.flush();
      expect(settler.pending).toBe(2);
      settler.add(settlement(a, 5));
    } finally {
      await sql`alter table tokens_away rename to tokens`.execute(db.kysely);
    }
    const left = await settler.close(Date.now() + 10_000);
    expect(left).toBe(0);
    const { spent, tokenSpent, logs } = await books(a);
    expect(spent).toBe(12);
    expect(tokenSpent).toBe(12);
    expect(logs.map((l) => l.quota)).toEqual([3, 4, 5]);
  });

  // A log table that is away (renamed by a migration, locked, restored) refuses every row alike: that is the database
  // being unable to write, not each row being bad, so the batch waits rather than its logs being set aside.
  it('keeps a batch while the consume log table is away and writes every charge with its log once it is back', async () => {
    const a = await account();
    const { logger } = recordingLogger();
    const settler = new Settler(db.kysely, logger, 10);
    const rename = (from: string, to: string) =>
      db.dialect === 'mysql' ? sql`rename table ${sql.id(from)} to ${sql.id(to)}` : sql`alter table ${sql.id(from)} rename to ${sql.id(to)}`;
    await rename('logs', 'logs_away').execute(db.kysely);
    try {
      settler.add(settlement(a, 6));
      settler.add(settlement(a, 7));
      await settler.flush();
      expect(settler.pending).toBe(2);
      const user = await db.kysely.selectFrom('users').select('quota').where('id', '=', a.userId).executeTakeFirstOrThrow();
      expect(user.quota).toBe(1_000_000);
    } finally {
      await rename('logs_away', 'logs').execute(db.kysely);
    }
    expect(await settler.close(Date.now() + 10_000)).toBe(0);
    const { spent, logs } = await books(a);
    expect(spent).toBe(13);
    expect(logs.map((l) => l.quota)).toEqual([6, 7]);
    expect(settler.stats.setAsideRows).toBe(0);
  });

  it('writes the other rows of a log batch when the database refuses one, and reports the refused row', async () => {
    const a = await account();
    const refused: NewLog[] = [];
    const writer = new LogWriter(db.kysely, { onRefused: (row) => refused.push(row) });
    for (const model of ['gpt-4o', 'refused-model', 'gpt-4o-mini']) writer.add(settlement(a, 1, { model_name: model, type: 4 }).log!);
    await writer.flush();
    expect((await books(a)).logs.map((l) => l.model_name)).toEqual(['gpt-4o', 'gpt-4o-mini']);
    expect(refused.map((r) => r.model_name)).toEqual(['refused-model']);
  });
});
