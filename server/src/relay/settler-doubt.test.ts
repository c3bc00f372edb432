import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pino from 'pino';
import type { Db } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { insertUser } from '../store/users.js';
import type * as Quota from '../store/quota.js';
import type { Settlement } from '../store/quota.js';
import { testDatabases } from '../test/databases.js';
import { skippedWithoutServices } from '../test/services.js';
import { Settler } from './settler.js';

/*
 * A settlement batch whose COMMIT went through but whose answer was lost with the connection (a database restart
 * or failover at that instant) must not be written again: its calls would be charged twice.
 */

const lose = vi.hoisted(() => ({ nextAnswer: false }));

vi.mock('../store/quota.js', async (importOriginal) => {
  const real = await importOriginal<typeof Quota>();
  return {
    ...real,
    applySettlements: async (...args: Parameters<typeof real.applySettlements>) => {
      await real.applySettlements(...args);
      if (lose.nextAnswer) {
        lose.nextAnswer = false;
        throw new Error('Connection terminated unexpectedly');
      }
    },
  };
});

// SQLite is in-process: a commit that fails did not happen, so it has no such doubt.
const servers = testDatabases(['postgres', 'mysql']);

if (servers.length === 0) skippedWithoutServices('a settlement batch in doubt on a server database');

describe.each(servers)('a settlement batch in doubt on $name', (database) => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await database.open());
    await migrateToLatest(db);
  });
  afterAll(() => drop());

  it('is looked up before it is written again, so its calls are charged once', async () => {
    const userId = await insertUser(db.kysely, { username: 'doubt', password: 'x', aff_code: 'doubt', quota: 1000 });
    const settler = new Settler(db.kysely, pino({ level: 'silent' }), 10);
    const settlement = (cost: number): Settlement => ({
      reservation: { userId, tokenId: 0, tokenUnlimited: true, amount: 0 },
      cost,
      channelId: 0,
      countsAsRequest: true,
      log: {
        user_id: userId, created_at: 1_700_000_000, type: 2, content: '', username: 'doubt', token_name: 't', model_name: 'gpt-4o',
        quota: cost, prompt_tokens: 1, completion_tokens: 1, use_time: 0, is_stream: 0, channel_id: 0, token_id: 0,
        group: 'default', ip: '127.0.0.1', other: '{}',
      },
    });
    lose.nextAnswer = true;
    settler.add(settlement(30));
    await settler.flush();
    expect(settler.pending).toBe(1);
    settler.add(settlement(12));
    expect(await settler.close(Date.now() + 10_000)).toBe(0);
    const user = await db.kysely.selectFrom('users').select(['quota', 'request_count']).where('id', '=', userId).executeTakeFirstOrThrow();
    const logs = await db.kysely.selectFrom('logs').select('quota').where('user_id', '=', userId).orderBy('id').execute();
    expect(user.quota).toBe(1000 - 42);
    expect(user.request_count).toBe(2);
    expect(logs.map((l) => l.quota)).toEqual([30, 12]);
  });
});
