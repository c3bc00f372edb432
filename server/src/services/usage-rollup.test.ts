import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { connect } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { testDatabases } from '../test/databases.js';
import { NO_ADDRESS_LIMITS, startTestApp, type TestApp } from '../test/app.js';
import { UsageRollup, type UsageEntry } from './usage-rollup.js';

const H = 3600;
const BASE = 1_700_000_000 - (1_700_000_000 % H);

describe('the usage roll-up in memory', () => {
  it('counts calls, tokens and quota per user, model and hour', async () => {
    const db = await connect('', ':memory:');
    await migrateToLatest(db);
    const rollup = new UsageRollup(db.kysely, db.dialect, { enabled: () => true });
    const call = (userId: number, modelName: string, at: number, tokens: number, quota: number): UsageEntry => ({
      userId, username: `u${userId}`, modelName, at, tokens, quota,
    });
    for (const e of [
      call(1, 'gpt-4o', BASE + 10, 100, 1000),
      call(1, 'gpt-4o', BASE + H - 1, 50, 500), // same hour
      call(1, 'gpt-4o', BASE + H, 7, 70), // next hour
      call(1, 'claude-3', BASE + 20, 3, 30), // other model
      call(2, 'gpt-4o', BASE + 30, 9, 90), // other user
      call(2, 'gpt-4o', BASE + 40, 0, 0), // a call that used nothing still counts as a call
    ]) rollup.record(e);
    expect(rollup.pending).toBe(4);
    await rollup.flush();
    expect(rollup.pending).toBe(0);
    const rows = await db.kysely
      .selectFrom('quota_data')
      .select(['user_id', 'username', 'model_name', 'created_at', 'count', 'token_used', 'quota'])
      .orderBy('user_id')
      .orderBy('created_at')
      .orderBy('model_name')
      .execute();
    expect(rows).toEqual([
      { user_id: 1, username: 'u1', model_name: 'claude-3', created_at: BASE, count: 1, token_used: 3, quota: 30 },
      { user_id: 1, username: 'u1', model_name: 'gpt-4o', created_at: BASE, count: 2, token_used: 150, quota: 1500 },
      { user_id: 1, username: 'u1', model_name: 'gpt-4o', created_at: BASE + H, count: 1, token_used: 7, quota: 70 },
      { user_id: 2, username: 'u2', model_name: 'gpt-4o', created_at: BASE, count: 2, token_used: 9, quota: 90 },
    ]);
    // A second flush adds to the same rows.
    rollup.record(call(1, 'gpt-4o', BASE + 5, 1, 1));
    await rollup.flush();
    const row = await db.kysely.selectFrom('quota_data').selectAll().where('user_id', '=', 1).where('model_name', '=', 'gpt-4o').where('created_at', '=', BASE).executeTakeFirstOrThrow();
    expect([row.count, row.token_used, row.quota]).toEqual([3, 151, 1501]);
    await db.close();
  });

  it('counts nothing while DataExportEnabled is off', async () => {
    const db = await connect('', ':memory:');
    await migrateToLatest(db);
    let enabled = false;
    const rollup = new UsageRollup(db.kysely, db.dialect, { enabled: () => enabled });
    rollup.record({ userId: 1, username: 'u', modelName: 'm', tokens: 1, quota: 1 });
    expect(rollup.pending).toBe(0);
    enabled = true;
    rollup.record({ userId: 1, username: 'u', modelName: 'm', tokens: 1, quota: 1 });
    expect(rollup.pending).toBe(1);
    await db.close();
  });

  it('keeps the cells of a failed write, adds the calls that arrive meanwhile, and writes them all later', async () => {
    const db = await connect('', ':memory:');
    const errors: number[] = [];
    const rollup = new UsageRollup(db.kysely, db.dialect, { enabled: () => true, onError: (_err, rows) => errors.push(rows) });
    rollup.record({ userId: 1, username: 'u', modelName: 'm', at: BASE, tokens: 10, quota: 100 });
    await rollup.flush(); // no tables yet: the write fails
    expect(errors).toEqual([1]);
    expect(rollup.pending).toBe(1);
    rollup.record({ userId: 1, username: 'u', modelName: 'm', at: BASE, tokens: 5, quota: 50 });
    rollup.record({ userId: 1, username: 'u', modelName: 'n', at: BASE, tokens: 1, quota: 1 });
    await migrateToLatest(db);
    await rollup.flush();
    const rows = await db.kysely.selectFrom('quota_data').select(['model_name', 'count', 'token_used', 'quota']).orderBy('model_name').execute();
    expect(rows).toEqual([
      { model_name: 'm', count: 2, token_used: 15, quota: 150 },
      { model_name: 'n', count: 1, token_used: 1, quota: 1 },
    ]);
    await db.close();
  });
});

describe.each(testDatabases())('the usage roll-up of several server processes on $name', (database) => {
  let t: TestApp;
  const config = loadConfig({ SESSION_SECRET: 'test-secret-test-secret-test-secret', LOG_LEVEL: 'silent', ...NO_ADDRESS_LIMITS });
  beforeAll(async () => {
    t = await startTestApp(database);
  });
  afterAll(() => t.close());

  /** A second server process on the same database (its own roll-up, jobs and caches). */
  const secondApp = (): Promise<FastifyInstance> => buildApp(config, { db: t.app.ctx.db, logger: false });

  async function totals(userId: number) {
    const rows = await t.app.ctx.db.kysely
      .selectFrom('quota_data')
      .select(['model_name', 'created_at', 'count', 'token_used', 'quota'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('model_name')
      .execute();
    return rows.map((r) => ({ model: r.model_name, hour: Number(r.created_at), count: Number(r.count), tokens: Number(r.token_used), quota: Number(r.quota) }));
  }

  it('loses nothing when two processes flush the same hours at the same time', async () => {
    const other = await secondApp();
    const apps = [t.app, other];
    const userId = 9001;
    const models = ['gpt-4o', 'gpt-4o-mini', 'claude-3-5-sonnet'];
    const hours = [BASE, BASE + H, BASE + 2 * H];
    const rounds = 5;
    for (let round = 0; round < rounds; round++) {
      apps.forEach((app, a) => {
        for (const modelName of models) {
          for (const hour of hours) {
            for (let i = 0; i < 4; i++) app.ctx.usage.record({ userId, username: 'multi', modelName, at: hour + i * 60 + a, tokens: 10, quota: 100 + a });
          }
        }
      });
      await Promise.all(apps.map((app) => app.ctx.usage.flush()));
    }
    await other.close();
    const rows = await totals(userId);
    expect(rows).toHaveLength(models.length * hours.length);
    for (const row of rows) {
      expect(row.count).toBe(rounds * 2 * 4);
      expect(row.tokens).toBe(rounds * 2 * 4 * 10);
      expect(row.quota).toBe(rounds * 4 * (100 + 101));
    }
  });

  it('writes what it holds when the process shuts down', async () => {
    const other = await secondApp();
    other.ctx.usage.record({ userId: 9002, username: 'late', modelName: 'gpt-4o', at: BASE, tokens: 12, quota: 345 });
    expect(await totals(9002)).toEqual([]);
    await other.close();
    expect(await totals(9002)).toEqual([{ model: 'gpt-4o', hour: BASE, count: 1, tokens: 12, quota: 345 }]);
  });

  it('flushes on the DataExportInterval schedule through the job runner', async () => {
    expect(t.app.ctx.jobs.names).toContain('usage-flush');
    t.app.ctx.usage.record({ userId: 9003, username: 'sched', modelName: 'gpt-4o', at: BASE, tokens: 1, quota: 2 });
    await t.app.ctx.jobs.runNow('usage-flush');
    expect(await totals(9003)).toEqual([{ model: 'gpt-4o', hour: BASE, count: 1, tokens: 1, quota: 2 }]);
  });
});
