import { describe, expect, it } from 'vitest';
import { LocalBus } from '../cache/bus.js';
import { Options } from '../options/index.js';
import { testDatabases } from '../test/databases.js';
import { migratedDatabase } from '../test/migrated-database.js';
import { consumeLogRow } from '../store/logs.js';
import { logRetentionJob } from './log-retention.js';

const DAY = 86_400;
const NOW = 1_800_000_000;

describe.each(testDatabases())('log retention on $name', (database) => {
  const db = migratedDatabase(database);

  async function seed(ages: number[]) {
    const k = db().kysely;
    await k.deleteFrom('logs').execute();
    await k.deleteFrom('quota_data').execute();
    for (const [i, days] of ages.entries()) {
      const log = consumeLogRow({
        userId: 1, username: 'u', tokenId: 0, tokenName: 't', modelName: 'm', quota: 1, promptTokens: 0,
        completionTokens: 0, useTime: 0, isStream: false, channelId: 0, group: 'default', createdAt: NOW - days * DAY,
      });
      await k.insertInto('logs').values(log).execute();
      await k.insertInto('quota_data').values({ user_id: 1, username: 'u', model_name: `m${i}`, created_at: NOW - days * DAY, count: 1, token_used: 0, quota: 1 }).execute();
    }
  }

  const count = async (table: 'logs' | 'quota_data') => Number((await db().kysely.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  it('keeps everything while the retention options are 0 (the default)', async () => {
    await seed([1, 40, 400]);
    const options = new Options(db().kysely, new LocalBus());
    await options.load();
    await logRetentionJob(db().kysely, db().kysely, options, () => NOW).run();
    expect([await count('logs'), await count('quota_data')]).toEqual([3, 3]);
  });

  it('deletes logs and roll-ups older than their own retention, in batches', async () => {
    await seed([1, 29, 31, 100, 400, 800]);
    const options = new Options(db().kysely, new LocalBus());
    await options.load();
    expect(await options.set('LogRetentionDays', '30')).toBeNull();
    expect(await options.set('QuotaDataRetentionDays', '365')).toBeNull();
    await logRetentionJob(db().kysely, db().kysely, options, () => NOW).run();
    const logAges = (await db().kysely.selectFrom('logs').select('created_at').orderBy('created_at', 'desc').execute()).map((r) => (NOW - r.created_at) / DAY);
    expect(logAges).toEqual([1, 29]);
    expect(await count('quota_data')).toBe(4);
  });

  it('refuses a negative or fractional retention', async () => {
    const options = new Options(db().kysely, new LocalBus());
    await options.load();
    expect(await options.set('LogRetentionDays', '-1')).toMatch(/日志保留天数/);
    expect(await options.set('QuotaDataRetentionDays', '1.5')).not.toBeNull();
  });
});
