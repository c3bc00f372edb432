import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogPage, LogStat } from '@switchyard/shared';
import { connect, type Db } from '../db/connect.js';
import { startTestApp, type Session, type TestApp } from '../test/app.js';
import { testDatabases } from '../test/databases.js';
import { LOG_SHIPPING_JOB } from '../jobs/log-shipping.js';
import { nowSeconds } from '../lib/time.js';
import { recordConsumeLog, type ConsumeLogInput } from '../store/logs.js';

/** LOG_SQL_DSN on a SQLite file and on each server database given; the main database is SQLite. */
const logDatabases = [
  { name: 'sqlite file', open: async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'switchyard-logdb-'));
    return { dsn: `sqlite:${path.join(dir, 'logs.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  } },
  ...testDatabases(['postgres', 'mysql'])
    .map((d) => ({ name: d.name, open: async () => {
      const { db, url, drop } = await d.open();
      await db.close().catch(() => {});
      return { dsn: url!, drop: async () => drop().catch(() => {}) };
    } })),
];
const sqlite = testDatabases(['sqlite'])[0];

describe.each(logDatabases)('logs in a database of their own (LOG_SQL_DSN on $name)', (logDatabase) => {
  let t: TestApp;
  let root: Session;
  let dsn: string;
  let drop: () => Promise<void>;
  const now = nowSeconds();
  const consume = (quota: number, createdAt = now): ConsumeLogInput => ({
    userId: 1, username: 'root', tokenId: 1, tokenName: 'tok', modelName: 'gpt-4o', quota, promptTokens: 10, completionTokens: 5,
    useTime: 1, isStream: false, channelId: 0, group: 'default', createdAt,
  });
  const logCount = async (db: Db) => Number((await db.kysely.selectFrom('logs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    ({ dsn, drop } = await logDatabase.open());
    t = await startTestApp(sqlite, { LOG_SQL_DSN: dsn });
    root = await t.root();
  });
  afterAll(async () => {
    await t?.close();
    await drop?.();
  });

  it('lists, sums and clears the logs of the log database, moved there from the main one', async () => {
    const main = t.app.ctx.db.kysely;
    await main.deleteFrom('logs').execute();
    for (const quota of [100, 200, 300]) await recordConsumeLog(main, consume(quota));
    await recordConsumeLog(main, consume(7, now - 40 * 86_400));
    await t.app.ctx.jobs.runNow(LOG_SHIPPING_JOB);
    // Only the newest row stays behind in the main database (its ids must never restart).
    expect(await logCount(t.app.ctx.db)).toBe(1);
    expect(await logCount(t.app.ctx.logDb)).toBeGreaterThanOrEqual(4);

    const page = (await t.call(root, { method: 'GET', url: '/api/log/?p=1&page_size=50&type=2' })).json() as { data: LogPage };
    expect(page.data.items.map((l) => l.quota).sort((a, b) => a - b)).toEqual([7, 100, 200, 300]);
    const stat = (await t.call(root, { method: 'GET', url: `/api/log/stat?type=2&start_timestamp=${now - 60}` })).json() as { data: LogStat };
    expect(stat.data.quota).toBe(600);

    const cleared = (await t.call(root, { method: 'DELETE', url: `/api/log/?target_timestamp=${now - 86_400}` })).json() as { data: number };
    expect(cleared.data).toBe(1);
    const after = (await t.call(root, { method: 'GET', url: '/api/log/?p=1&page_size=50&type=2' })).json() as { data: LogPage };
    expect(after.data.items.map((l) => l.quota).sort((a, b) => a - b)).toEqual([100, 200, 300]);
  });

  it('moves the logs written while the server closes before it ends', async () => {
    await recordConsumeLog(t.app.ctx.db.kysely, consume(999));
    await recordConsumeLog(t.app.ctx.db.kysely, consume(1000));
    await t.close();
    const logs = await connect(dsn, '');
    try {
      const quotas = (await logs.kysely.selectFrom('logs').select('quota').where('quota', '>=', 999).execute()).map((r) => r.quota);
      expect(quotas.sort((a, b) => a - b)).toEqual([999, 1000]);
    } finally {
      await logs.close();
    }
    t = undefined as unknown as TestApp;
  });
});
