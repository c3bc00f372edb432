import { describe, expect, it } from 'vitest';
import { LOG_TYPE } from '@switchyard/shared';
import { testDatabases } from '../test/databases.js';
import { migratedDatabase } from '../test/migrated-database.js';
import { insertToken } from './tokens.js';
import { insertUser } from './users.js';
import { finishTaskFailed, finishTaskSucceeded, recordChargedTask, updateUnfinishedTask, type RefundableTask } from './task-money.js';

/*
 * The money rule of drawing and music tasks: a row exists with its charge, and a task ends once — a refund and a
 * late success racing give one outcome, in either order and at the same time.
 */
describe.each(testDatabases())('task money on $name', (database) => {
  const db = migratedDatabase(database);
  const PRICE = 50_000;

  async function chargedTask(table: 'midjourneys' | 'tasks', tokenUnlimited = false) {
    const k = db().kysely;
    const userId = await insertUser(k, { username: `u${Math.random().toString(36).slice(2, 10)}`, password: 'x', aff_code: Math.random().toString(36).slice(2, 8), quota: 1_000_000 });
    const token = await insertToken(k, {
      user_id: userId, name: 't', status: 1, expired_time: -1, remain_quota: 200_000, unlimited_quota: tokenUnlimited,
      model_limits_enabled: false, model_limits: '', allow_ips: '', group: '',
    });
    // What the relay's reservation takes before the upstream is asked.
    await k.updateTable('users').set({ quota: 1_000_000 - PRICE }).where('id', '=', userId).execute();
    if (!tokenUnlimited) await k.updateTable('tokens').set({ remain_quota: 200_000 - PRICE }).where('id', '=', token.id).execute();
    const upstreamId = `up-${Math.random().toString(36).slice(2)}`;
    const record =
      table === 'midjourneys'
        ? ({ table, row: { mj_id: upstreamId, action: 'IMAGINE', status: 'SUBMITTED', user_id: userId, channel_id: 0 } } as const)
        : ({ table, row: { task_id: upstreamId, platform: 'suno', action: 'MUSIC', status: 'SUBMITTED', user_id: userId, channel_id: 0 } } as const);
    const id = await recordChargedTask(k, record, {
      userId,
      tokenId: token.id,
      tokenQuota: tokenUnlimited ? 0 : PRICE,
      quota: PRICE,
      channelId: 0,
      log: null,
    });
    const task: RefundableTask = { id, user_id: userId, channel_id: 0, quota: PRICE, token_id: token.id, token_quota: tokenUnlimited ? 0 : PRICE };
    return { userId, tokenId: token.id, id, task, upstreamId };
  }

  async function balances(userId: number, tokenId: number) {
    const k = db().kysely;
    const user = await k.selectFrom('users').select(['quota', 'used_quota', 'request_count']).where('id', '=', userId).executeTakeFirstOrThrow();
    const token = await k.selectFrom('tokens').select(['remain_quota', 'used_quota']).where('id', '=', tokenId).executeTakeFirstOrThrow();
    const refunds = await k.selectFrom('logs').select(['quota', 'content']).where('user_id', '=', userId).where('type', '=', LOG_TYPE.SYSTEM).execute();
    return { user: { ...user, quota: Number(user.quota), used_quota: Number(user.used_quota) }, token: { remain_quota: Number(token.remain_quota), used_quota: Number(token.used_quota) }, refunds };
  }

  for (const table of ['midjourneys', 'tasks'] as const) {
    it(`${table}: records the row with its charge, counted once`, async () => {
      const t = await chargedTask(table);
      const b = await balances(t.userId, t.tokenId);
      expect(b.user).toEqual({ quota: 1_000_000 - PRICE, used_quota: PRICE, request_count: 1 });
      expect(b.token).toEqual({ remain_quota: 200_000 - PRICE, used_quota: PRICE });
      const row = await db().kysely.selectFrom(table).select(['quota', 'token_id', 'token_quota']).where('id', '=', t.id).executeTakeFirstOrThrow();
      expect({ quota: Number(row.quota), token_id: row.token_id, token_quota: Number(row.token_quota) }).toEqual({ quota: PRICE, token_id: t.tokenId, token_quota: PRICE });
    });

    it(`${table}: a failure refunds user and token once, with a system log carrying the amount`, async () => {
      const t = await chargedTask(table);
      const update = { table, set: { fail_reason: 'boom' } } as never;
      expect(await finishTaskFailed(db().kysely, update, { task: t.task, logContent: `failed ${t.upstreamId}` })).toBe(true);
      expect(await finishTaskFailed(db().kysely, update, { task: t.task, logContent: `failed ${t.upstreamId}` })).toBe(false);
      const b = await balances(t.userId, t.tokenId);
      expect(b.user).toEqual({ quota: 1_000_000, used_quota: 0, request_count: 1 });
      expect(b.token).toEqual({ remain_quota: 200_000, used_quota: 0 });
      expect(b.refunds).toEqual([{ quota: PRICE, content: `failed ${t.upstreamId}` }]);
      const row = await db().kysely.selectFrom(table).select(['status', 'fail_reason']).where('id', '=', t.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'FAILURE', fail_reason: 'boom' });
    });

    it(`${table}: a success after the refund changes nothing (the task stays failed)`, async () => {
      const t = await chargedTask(table);
      await finishTaskFailed(db().kysely, { table, set: {} } as never, { task: t.task, logContent: 'timeout' });
      expect(await finishTaskSucceeded(db().kysely, t.id, { table, set: { progress: '100%' } } as never)).toBe(false);
      expect(await updateUnfinishedTask(db().kysely, t.id, { table, set: { progress: '50%' } } as never)).toBe(false);
      const b = await balances(t.userId, t.tokenId);
      expect(b.user.quota).toBe(1_000_000);
      expect(b.refunds).toHaveLength(1);
      const row = await db().kysely.selectFrom(table).select('status').where('id', '=', t.id).executeTakeFirstOrThrow();
      expect(row.status).toBe('FAILURE');
    });

    it(`${table}: a failure after the success refunds nothing (the task stays charged)`, async () => {
      const t = await chargedTask(table);
      expect(await finishTaskSucceeded(db().kysely, t.id, { table, set: { progress: '100%' } } as never)).toBe(true);
      expect(await finishTaskFailed(db().kysely, { table, set: {} } as never, { task: t.task, logContent: 'timeout' })).toBe(false);
      const b = await balances(t.userId, t.tokenId);
      expect(b.user).toEqual({ quota: 1_000_000 - PRICE, used_quota: PRICE, request_count: 1 });
      expect(b.refunds).toHaveLength(0);
    });

    it(`${table}: racing ends at the same moment give exactly one outcome`, async () => {
      for (let round = 0; round < 5; round++) {
        const t = await chargedTask(table);
        const k = db().kysely;
        const results = await Promise.all([
          finishTaskFailed(k, { table, set: {} } as never, { task: t.task, logContent: 'a' }),
          finishTaskFailed(k, { table, set: {} } as never, { task: t.task, logContent: 'b' }),
          finishTaskSucceeded(k, t.id, { table, set: {} } as never),
        ]);
        expect(results.filter(Boolean)).toHaveLength(1);
        const b = await balances(t.userId, t.tokenId);
        const refunded = results[0] || results[1];
        expect(b.refunds).toHaveLength(refunded ? 1 : 0);
        expect(b.user.quota).toBe(refunded ? 1_000_000 : 1_000_000 - PRICE);
        expect(b.token.remain_quota).toBe(refunded ? 200_000 : 200_000 - PRICE);
      }
    });
  }

  it('an unlimited token gets back its used quota only: its remaining quota was never taken', async () => {
    const t = await chargedTask('tasks', true);
    await finishTaskFailed(db().kysely, { table: 'tasks', set: {} }, { task: t.task, logContent: 'x' });
    const b = await balances(t.userId, t.tokenId);
    expect(b.token).toEqual({ remain_quota: 200_000, used_quota: 0 });
    expect(b.user.quota).toBe(1_000_000);
  });
});
