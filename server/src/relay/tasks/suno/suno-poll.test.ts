import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_TYPE } from '@switchyard/shared';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../app.js';
import { loadConfig } from '../../../config.js';
import type { Db } from '../../../db/connect.js';
import { NO_ADDRESS_LIMITS } from '../../../test/app.js';
import { testDatabases } from '../../../test/databases.js';
import { openAccount } from '../../../test/ledger.js';
import { ENDLESS_SCRIPT, FAILING_SCRIPT, MUSIC_SCRIPT, startSunoStandIn, type SunoStandIn } from '../../../test/suno-stand-in.js';
import { expectBooks, submitMusic, suno, sunoChannel, taskRow } from '../../../test/suno-fixture.js';
import { deleteChannels } from '../../../store/channels.js';
import { startConnectProxy } from '../../../test/proxy-stand-ins.js';
import { TASK_TIMEOUT_SECONDS, TIMEOUT_REASON } from './poll.js';

/*
 * The Suno poller against a local Suno-API: tasks advance with the upstream's answers and end once — a success
 * stays charged, a failure (the upstream's, a vanished channel, an hour without an end) is refunded once to the
 * user and the token, and a success that arrives after the refund (or a failure after the success) changes nothing.
 * A poller that restarts mid-task picks up where the last one stopped. A channel with an outbound proxy is submitted
 * to and polled through it.
 */

const MUSIC_QUOTA = 50_000;
const JOB = 'task-poller:suno';

describe.each(testDatabases())('the Suno poller on $name', (database) => {
  let db: Db;
  let drop: () => Promise<void>;
  let app: FastifyInstance;
  let up: SunoStandIn;
  let channelId: number;
  const kysely = () => app.ctx.db.kysely;

  const start = async () => {
    const config = loadConfig({ SESSION_SECRET: 'test-secret-test-secret-test-secret', LOG_LEVEL: 'silent', TASK_POLL_INTERVAL: '3600', ...NO_ADDRESS_LIMITS });
    return buildApp(config, { db, logger: false });
  };
  const poll = () => app.ctx.jobs.runNow(JOB);
  const account = () => openAccount(kysely(), { quota: 1_000_000, tokenQuota: 400_000 });
  const refundLog = (userId: number) =>
    kysely().selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', LOG_TYPE.SYSTEM).execute();

  beforeAll(async () => {
    ({ db, drop } = await database.open());
    up = await startSunoStandIn();
    app = await start();
    channelId = await sunoChannel(app, { base_url: up.url, key: up.key });
  }, 60_000);
  afterAll(async () => {
    await app.close();
    await up.close();
    await drop();
  });

  it('follows a task to its success: status, progress, times and clips, charged once', async () => {
    const a = await account();
    up.submits.push({ kind: 'accept', script: MUSIC_SCRIPT });
    const taskId = await submitMusic(app, a.key, { prompt: 'trains', title: 'Night Train' });
    const polls = up.polls;

    await poll();
    expect(await taskRow(app, taskId)).toMatchObject({ status: 'QUEUED', progress: '0%', finish_time: 0 });
    const fetched = up.requests.filter((r) => r.path === '/suno/fetch').at(-1)!;
    expect(fetched.headers.authorization).toBe(`Bearer ${up.key}`);
    expect(fetched.json?.ids).toContain(taskId);

    await poll();
    const running = await taskRow(app, taskId);
    expect(running).toMatchObject({ status: 'IN_PROGRESS', progress: '50%' });
    expect(running.start_time).toBeGreaterThan(0);

    await poll();
    const done = await taskRow(app, taskId);
    expect(done).toMatchObject({ status: 'SUCCESS', progress: '100%', fail_reason: '' });
    expect(done.finish_time).toBeGreaterThanOrEqual(running.start_time);
    const clips = JSON.parse(done.data) as Array<{ id: string; audio_url: string; image_url: string; title: string; status: string }>;
    expect(clips).toHaveLength(2);
    expect(clips[0]).toMatchObject({ id: `${taskId}-clip1`, status: 'complete', title: 'Night Train', audio_url: expect.stringMatching(/\.mp3$/), image_url: expect.any(String) });

    const answer = await suno(app, a.key, 'GET', `/suno/fetch/${taskId}`);
    expect(answer.body.data).toMatchObject({ task_id: taskId, status: 'SUCCESS', progress: '100%', data: clips });
    expect(up.polls - polls).toBe(3);

    // Ended: polled no more.
    await poll();
    expect(up.polls - polls).toBe(3);
    expect(await expectBooks(app, a, [channelId])).toMatchObject({ consumed: MUSIC_QUOTA, refunded: 0, refundLogs: 0 });
  });

  it('refunds a task the upstream failed, once, to the user and the token, with the reason and the amount', async () => {
    const a = await account();
    up.submits.push({ kind: 'accept', script: FAILING_SCRIPT });
    const taskId = await submitMusic(app, a.key);
    await poll();
    expect(await taskRow(app, taskId)).toMatchObject({ status: 'IN_PROGRESS', progress: '30%' });
    await poll();
    expect(await taskRow(app, taskId)).toMatchObject({ status: 'FAILURE', progress: '100%', fail_reason: 'Song generation failed: unsafe content' });
    await poll();
    const logs = await refundLog(a.userId);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ quota: MUSIC_QUOTA, token_id: a.tokenId, content: `异步任务执行失败 ${taskId}，补偿 ＄0.100000 额度` });
    expect(await expectBooks(app, a)).toMatchObject({ consumed: MUSIC_QUOTA, refunded: MUSIC_QUOTA, refundLogs: 1 });
  });

  it('keeps a task the upstream no longer knows until an hour has passed, then fails and refunds it', async () => {
    const a = await account();
    const lost = await submitMusic(app, a.key);
    const endless = (up.submits.push({ kind: 'accept', script: ENDLESS_SCRIPT }), await submitMusic(app, a.key));
    up.forget(lost);
    await poll();
    expect(await taskRow(app, lost)).toMatchObject({ status: 'SUBMITTED' });
    expect(await taskRow(app, endless)).toMatchObject({ status: 'IN_PROGRESS' });
    const old = Math.floor(Date.now() / 1000) - TASK_TIMEOUT_SECONDS - 1;
    await kysely().updateTable('tasks').set({ submit_time: old }).where('task_id', 'in', [lost, endless]).execute();
    await poll();
    for (const id of [lost, endless]) expect(await taskRow(app, id)).toMatchObject({ status: 'FAILURE', fail_reason: TIMEOUT_REASON, progress: '100%' });
    expect(await expectBooks(app, a)).toMatchObject({ consumed: 2 * MUSIC_QUOTA, refunded: 2 * MUSIC_QUOTA, refundLogs: 2 });
  });

  it('keeps polling a task the upstream calls UNKNOWN (not an end: nothing is refunded yet)', async () => {
    const a = await account();
    up.submits.push({ kind: 'accept', script: [{ status: 'UNKNOWN' }, { status: 'SUCCESS' }] });
    const taskId = await submitMusic(app, a.key);
    await poll();
    expect(await taskRow(app, taskId)).toMatchObject({ status: 'UNKNOWN', finish_time: 0 });
    await poll();
    expect(await taskRow(app, taskId)).toMatchObject({ status: 'SUCCESS' });
    expect(await expectBooks(app, a)).toMatchObject({ consumed: MUSIC_QUOTA, refunded: 0 });
  });

  it('fails and refunds an hour-old task even while its upstream cannot be reached', async () => {
    const a = await account();
    up.submits.push({ kind: 'accept', script: ENDLESS_SCRIPT });
    const taskId = await submitMusic(app, a.key);
    await kysely().updateTable('tasks').set({ submit_time: 1 }).where('task_id', '=', taskId).execute();
    up.pollFailures.push(500);
    await poll();
    expect(await taskRow(app, taskId)).toMatchObject({ status: 'FAILURE', fail_reason: TIMEOUT_REASON });
    expect(await expectBooks(app, a)).toMatchObject({ refunded: MUSIC_QUOTA });
  });

  it('fails and refunds the tasks of a channel that was deleted', async () => {
    const a = await account();
    const goneId = await sunoChannel(app, { base_url: up.url, key: up.key, group: 'gone' });
    await kysely().updateTable('users').set({ group: 'gone' }).where('id', '=', a.userId).execute();
    app.ctx.authCache.forgetUser(a.userId);
    const taskId = await submitMusic(app, a.key);
    expect((await taskRow(app, taskId)).channel_id).toBe(goneId);
    await deleteChannels(kysely(), [goneId]);
    await app.ctx.routing.load();
    await poll();
    expect(await taskRow(app, taskId)).toMatchObject({ status: 'FAILURE', fail_reason: `获取渠道信息失败，请联系管理员，渠道ID：${goneId}` });
    expect(await expectBooks(app, a)).toMatchObject({ consumed: MUSIC_QUOTA, refunded: MUSIC_QUOTA, refundLogs: 1 });
  });

  // Two polls in flight at once, the upstream telling one SUCCESS and the other FAILURE: whichever answer is
  // written first ends the task; the other changes nothing. Refunded exactly when it ended as a failure.
  for (const first of ['SUCCESS', 'FAILURE'] as const) {
    it(`ends a task once when a success and a failure race, the ${first.toLowerCase()} first`, async () => {
      const a = await account();
      up.submits.push({ kind: 'accept', script: [{ status: 'SUCCESS' }, { status: 'FAILURE', reason: 'late failure' }] });
      const taskId = await submitMusic(app, a.key);
      const polls = up.polls;
      // The first fetch answers SUCCESS, the second FAILURE; the delays decide which is written first.
      up.pollDelays.push(...(first === 'SUCCESS' ? [100, 600] : [600, 100]));
      await Promise.all([app.ctx.jobs.runNow(JOB), sunoPoll()]);
      expect(up.polls - polls).toBe(2);
      const row = await taskRow(app, taskId);
      expect(row.status).toBe(first);
      const books = await expectBooks(app, a);
      expect(books).toMatchObject({ consumed: MUSIC_QUOTA, refunded: first === 'FAILURE' ? MUSIC_QUOTA : 0, refundLogs: first === 'FAILURE' ? 1 : 0 });
    });
  }
  // The poll of the job and a second poller of the same platform (another node whose lease ran out).
  const sunoPoll = () => import('./index.js').then(({ sunoPlatform }) => sunoPlatform.poll(app.ctx));

  it('picks a task up after the poller restarts mid-task', async () => {
    const a = await account();
    up.submits.push({ kind: 'accept', script: MUSIC_SCRIPT });
    const taskId = await submitMusic(app, a.key);
    await poll();
    await poll();
    expect(await taskRow(app, taskId)).toMatchObject({ status: 'IN_PROGRESS' });
    // The process stops (its lease given up) and another starts on the same database.
    await app.close();
    app = await start();
    const polls = up.polls;
    await poll();
    expect(up.polls - polls).toBe(1);
    expect(await taskRow(app, taskId)).toMatchObject({ status: 'SUCCESS', progress: '100%' });
    expect(await expectBooks(app, a)).toMatchObject({ consumed: MUSIC_QUOTA, refunded: 0 });
  });

  it('submits and polls through the channel’s proxy when it has one', async () => {
    const proxy = await startConnectProxy();
    const setting = (value: string) => kysely().updateTable('channels').set({ setting: value }).where('id', '=', channelId).execute();
    try {
      await setting(JSON.stringify({ proxy: proxy.url }));
      await app.ctx.routing.load();
      const a = await account();
      up.submits.push({ kind: 'accept', script: MUSIC_SCRIPT });
      const taskId = await submitMusic(app, a.key);
      expect(proxy.seen).toHaveLength(1);
      // The kept-alive tunnel ended: the poller's call is seen opening its own.
      await proxy.dropTunnels();
      await poll();
      expect(proxy.seen).toHaveLength(2);
      await poll();
      await poll();
      expect(await taskRow(app, taskId)).toMatchObject({ status: 'SUCCESS' });
      expect(new Set(proxy.seen.map((s) => s.target))).toEqual(new Set([new URL(up.url).host]));
    } finally {
      await setting('');
      await app.ctx.routing.load();
      await proxy.close();
    }
  });
});
