import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_TYPE } from '@switchyard/shared';
import { testDatabases } from '../../../test/databases.js';
import { startRelay, type RelayFixture } from '../../../test/relay-fixture.js';
import { openAccount } from '../../../test/ledger.js';
import { startSunoStandIn, type SunoStandIn } from '../../../test/suno-stand-in.js';
import { expectBooks, submitMusic, suno, taskRow } from '../../../test/suno-fixture.js';
import { closedPort } from '../../../test/unreachable.js';

/*
 * Suno's client routes against a local Suno-API: submissions charged only when the upstream takes them (and the
 * upstream's refusals relayed in Suno's shape, free), the gateway's own refusals in the same shape, continuations
 * sent to the original task's channel and refused for another user's task, and fetches that show a caller only
 * their own tasks.
 */

const MUSIC_QUOTA = 50_000; // suno_music: $0.1 x 500000
const LYRICS_QUOTA = 5_000; // suno_lyrics: $0.01 x 500000

describe.each(testDatabases())('Suno routes on $name', (database) => {
  let f: RelayFixture;
  let up: SunoStandIn;
  let other: SunoStandIn;
  let channelId: number;
  const db = () => f.t.app.ctx.db.kysely;
  const app = () => f.t.app;
  const account = (quota = 1_000_000, tokenQuota: number | undefined = 500_000, group = 'default') =>
    openAccount(db(), { quota, tokenQuota }).then(async (a) => {
      if (group !== 'default') await db().updateTable('users').set({ group }).where('id', '=', a.userId).execute();
      return a;
    });

  /** A channel of `group` serving suno_music, at `priority` (the higher is chosen first). */
  const musicChannel = (group: string, priority: number, upstream = up, key = upstream.key) =>
    f.channel({ type: 36, base_url: upstream.url, key, models: 'suno_music', group, priority });

  beforeAll(async () => {
    up = await startSunoStandIn();
    other = await startSunoStandIn('other-secret');
    f = await startRelay(database, { TASK_POLL_INTERVAL: '3600' });
    channelId = await f.channel({ type: 36, base_url: up.url, key: up.key, models: 'suno_music,suno_lyrics' });
  }, 60_000);
  afterAll(async () => {
    await f.close();
    await up.close();
    await other.close();
  });

  it('submits a music task, forwards the body as sent with the channel key, records the row and charges it once', async () => {
    const a = await account();
    const before = up.submissions().length;
    const body = { prompt: '[Verse] trains at night', mv: 'chirp-v3-5', title: 'Night Train', tags: 'synthwave', make_instrumental: false, x_extra: 1 };
    const res = await suno(app(), a.key, 'POST', '/suno/submit/music', body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: 'success', message: '', data: expect.any(String) });
    const taskId = res.body.data as string;

    const sent = up.submissions().slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0].path).toBe('/suno/submit/music');
    expect(sent[0].headers.authorization).toBe(`Bearer ${up.key}`);
    expect(JSON.parse(sent[0].body.toString())).toEqual(body);

    const row = await taskRow(app(), taskId);
    expect(row).toMatchObject({ platform: 'suno', user_id: a.userId, channel_id: channelId, action: 'MUSIC', status: 'SUBMITTED', quota: MUSIC_QUOTA, token_id: a.tokenId, token_quota: MUSIC_QUOTA, progress: '0%' });
    expect(Math.abs(row.submit_time - Date.now() / 1000)).toBeLessThan(10);
    expect(JSON.parse(row.properties)).toEqual(body);

    const log = await db().selectFrom('logs').selectAll().where('user_id', '=', a.userId).where('type', '=', LOG_TYPE.CONSUME).executeTakeFirstOrThrow();
    expect(log).toMatchObject({ model_name: 'suno_music', quota: MUSIC_QUOTA, channel_id: channelId, token_id: a.tokenId });
    expect(log.content).toBe(`模型固定价格 0.10，分组倍率 1.00，操作 MUSIC，ID ${taskId}`);
    expect(await expectBooks(app(), a, [channelId])).toMatchObject({ consumed: MUSIC_QUOTA, refunded: 0, consumeLogs: 1 });
  });

  it('takes the action in any case and prices lyrics as suno_lyrics', async () => {
    const a = await account();
    const res = await suno(app(), a.key, 'POST', '/suno/submit/Lyrics', { prompt: 'a poem about rain' });
    expect(res.status).toBe(200);
    const row = await taskRow(app(), res.body.data as string);
    expect(row).toMatchObject({ action: 'LYRICS', quota: LYRICS_QUOTA });
    expect(up.submissions().at(-1)!.path).toBe('/suno/submit/lyrics');
    expect(await expectBooks(app(), a)).toMatchObject({ consumed: LYRICS_QUOTA, consumeLogs: 1 });
  });

  it("refuses, in Suno's shape and without charging, what the gateway itself refuses", async () => {
    const a = await account();
    const poor = await account(100);
    const limited = await account(1_000_000, 100);
    const before = up.submissions().length;
    const cases: Array<[string, () => Promise<{ status: number; body: unknown }>, number, string]> = [
      ['no key', () => app().inject({ method: 'POST', url: '/suno/submit/music', payload: { prompt: 'x' } }).then((r) => ({ status: r.statusCode, body: r.json() })), 401, 'missing_api_key'],
      ['bad key', () => suno(app(), 'sk-nosuchkey', 'POST', '/suno/submit/music', { prompt: 'x' }), 401, 'invalid_api_key'],
      ['unknown action', () => suno(app(), a.key, 'POST', '/suno/submit/video', { prompt: 'x' }), 400, 'invalid_action'],
      ['bad JSON', () => suno(app(), a.key, 'POST', '/suno/submit/music', '{"prompt": '), 400, 'invalid_request'],
      ['not an object', () => suno(app(), a.key, 'POST', '/suno/submit/music', '[1]'), 400, 'invalid_request'],
      ['mistyped field', () => suno(app(), a.key, 'POST', '/suno/submit/music', { prompt: 5 }), 400, 'invalid_request'],
      ['lyrics without prompt', () => suno(app(), a.key, 'POST', '/suno/submit/lyrics', { prompt: ' ' }), 400, 'prompt_empty'],
      ['continuation without task', () => suno(app(), a.key, 'POST', '/suno/submit/music', { continue_clip_id: 'clip', continue_at: 30 }), 400, 'task_id_empty'],
      ['user quota short', () => suno(app(), poor.key, 'POST', '/suno/submit/music', { prompt: 'x' }), 403, 'insufficient_user_quota'],
      ['token quota short', () => suno(app(), limited.key, 'POST', '/suno/submit/music', { prompt: 'x' }), 403, 'insufficient_token_quota'],
      ['unknown path', () => suno(app(), a.key, 'POST', '/suno/submit/music/extra', {}), 404, 'invalid_url'],
      ['wrong method', () => suno(app(), a.key, 'GET', '/suno/submit/music'), 404, 'invalid_url'],
    ];
    for (const [name, call, status, code] of cases) {
      const res = await call();
      expect({ name, ...res }).toMatchObject({ name, status, body: { code, message: expect.any(String), data: null } });
    }
    expect(up.submissions().length).toBe(before);
    for (const who of [a, poor, limited]) expect(await expectBooks(app(), who)).toMatchObject({ consumed: 0, consumeLogs: 0 });
  });

  it("refuses a sensitive word in any text field, in any case, width or zero-width spelling, in Suno's shape and without charging", async () => {
    const a = await account();
    const before = up.submissions().length;
    const cases: Array<[string, Record<string, unknown>]> = [
      ['music', { prompt: '[Verse] TEST_Sensitive at night', mv: 'chirp-v3-5' }],
      ['music', { gpt_description_prompt: 'a song about ｔｅｓｔ＿ｓｅｎｓｉｔｉｖｅ' }],
      ['music', { prompt: 'fine', title: 't\u200best_sensitive', tags: 'pop' }],
      ['music', { prompt: 'fine', tags: 'synthwave, Ｔ\u2060EST_sensitive' }],
      ['lyrics', { prompt: 'a poem about test_sensitive' }],
    ];
    for (const [action, body] of cases) {
      const res = await suno(app(), a.key, 'POST', `/suno/submit/${action}`, body);
      expect({ sent: JSON.stringify(body), ...res }).toMatchObject({ status: 400, body: { code: 'sensitive_words_detected', message: 'sensitive words detected', data: null } });
    }
    expect(up.submissions().length).toBe(before);
    expect(await expectBooks(app(), a)).toMatchObject({ consumed: 0, consumeLogs: 0 });
    // Ids and versions are not text: a word there does not refuse the call.
    await submitMusic(app(), a.key, { prompt: 'a song about trains', mv: 'test_sensitive' });
    // Off, a prompt with the word goes through and is charged as usual.
    await f.setOption('CheckSensitiveOnPromptEnabled', 'false');
    try {
      await submitMusic(app(), a.key, { prompt: 'a song about test_sensitive' });
    } finally {
      await f.setOption('CheckSensitiveOnPromptEnabled', 'true');
    }
    expect(await expectBooks(app(), a)).toMatchObject({ consumed: 2 * MUSIC_QUOTA, consumeLogs: 2 });
  });

  it('refuses a model the token may not use, and a group without a Suno channel', async () => {
    const a = await account();
    await db().updateTable('tokens').set({ model_limits_enabled: 1 as never, model_limits: 'suno_lyrics' }).where('id', '=', a.tokenId).execute();
    f.t.app.ctx.authCache.forgetToken(a.key.slice(3));
    const limited = await suno(app(), a.key, 'POST', '/suno/submit/music', { prompt: 'x' });
    expect(limited).toMatchObject({ status: 403, body: { code: 'model_not_allowed', data: null } });
    const lonely = await account(1_000_000, undefined, 'nochannel');
    const none = await suno(app(), lonely.key, 'POST', '/suno/submit/music', { prompt: 'x' });
    expect(none).toMatchObject({ status: 404, body: { code: 'model_not_found', message: expect.stringContaining('suno_music'), data: null } });
    await expectBooks(app(), lonely);
  });

  describe('upstream refusals and retries', () => {
    const group = 'retries';
    let first: number;
    let second: number;
    beforeAll(async () => {
      // The higher priority is tried first; the retry goes to the other.
      first = await musicChannel(group, 10);
      second = await musicChannel(group, 0);
    });

    const refusals: Array<[string, Parameters<SunoStandIn['submits']['push']>[0], number, string]> = [
      ['400 (never retried)', { kind: 'refuse', status: 400, message: 'bad mv' }, 400, 'invalid_request'],
      ['429', { kind: 'refuse', status: 429, message: 'too many requests' }, 429, 'invalid_request'],
      ['500', { kind: 'refuse', status: 500, message: 'suno is down' }, 500, 'internal_error'],
      ['a 200 whose code is not success', { kind: 'failed-code', message: 'task failed' }, 500, 'internal_error'],
    ];
    for (const [name, answer, status, code] of refusals) {
      it(`relays an upstream ${name} in Suno's shape and charges nothing`, async () => {
        await f.setOption('RetryTimes', '0');
        const a = await account(1_000_000, undefined, group);
        const before = up.submissions().length;
        up.submits.push(answer);
        const res = await suno(app(), a.key, 'POST', '/suno/submit/music', { prompt: 'x' });
        expect(res).toMatchObject({ status, body: { code, message: (answer as { message: string }).message, data: null } });
        expect(up.submissions().length - before).toBe(1);
        expect(await expectBooks(app(), a)).toMatchObject({ consumed: 0, consumeLogs: 0 });
        expect(await db().selectFrom('tasks').select('id').where('user_id', '=', a.userId).execute()).toHaveLength(0);
      });
    }

    it('retries a 429, a 500 and a non-success code on the next channel, charging the one that took it; never a 400', async () => {
      await f.setOption('RetryTimes', '1');
      const a = await account(1_000_000, undefined, group);
      for (const answer of [{ kind: 'refuse', status: 429 }, { kind: 'refuse', status: 500 }, { kind: 'failed-code' }] as const) {
        const before = up.submissions().length;
        up.submits.push(answer);
        const taskId = await submitMusic(app(), a.key);
        expect(up.submissions().length - before).toBe(2);
        expect((await taskRow(app(), taskId)).channel_id).toBe(second);
      }
      const before = up.submissions().length;
      up.submits.push({ kind: 'refuse', status: 400, message: 'bad body' });
      const res = await suno(app(), a.key, 'POST', '/suno/submit/music', { prompt: 'x' });
      expect(res).toMatchObject({ status: 400, body: { code: 'invalid_request', message: 'bad body' } });
      expect(up.submissions().length - before).toBe(1);
      const log = await db().selectFrom('logs').select('other').where('user_id', '=', a.userId).where('type', '=', LOG_TYPE.CONSUME).executeTakeFirstOrThrow();
      expect(JSON.parse(log.other).admin_info.use_channel).toEqual([first, second]);
      expect(await expectBooks(app(), a)).toMatchObject({ consumed: 3 * MUSIC_QUOTA, consumeLogs: 3 });
      await f.setOption('RetryTimes', '0');
    });

    it("answers an upstream that refuses the channel's key with a 502 (not the caller's fault), auto-disables it, and a retry succeeds", async () => {
      const badGroup = 'badkey';
      const bad = await musicChannel(badGroup, 10, up, 'wrong-key');
      await musicChannel(badGroup, 0);
      const a = await account(1_000_000, undefined, badGroup);
      await f.setOption('RetryTimes', '0');
      const res = await suno(app(), a.key, 'POST', '/suno/submit/music', { prompt: 'x' });
      expect(res).toMatchObject({ status: 502, body: { code: 'upstream_auth_failed', data: null } });
      expect(res.body.message).not.toContain('unauthorized secret token');

      await f.setOption('AutomaticDisableChannelEnabled', 'true');
      await f.setOption('RetryTimes', '1');
      const taskId = await submitMusic(app(), a.key);
      expect((await taskRow(app(), taskId)).channel_id).not.toBe(bad);
      const channel = await db().selectFrom('channels').select('status').where('id', '=', bad).executeTakeFirstOrThrow();
      expect(channel.status).toBe(3);
      expect(await expectBooks(app(), a)).toMatchObject({ consumed: MUSIC_QUOTA, consumeLogs: 1 });
      await f.setOption('AutomaticDisableChannelEnabled', 'false');
      await f.setOption('RetryTimes', '0');
    });

    it('answers an unreachable upstream with a 502 and charges nothing', async () => {
      const group2 = 'unreachable';
      await f.channel({ type: 36, base_url: `http://127.0.0.1:${await closedPort()}`, key: 'k', models: 'suno_music', group: group2 });
      const a = await account(1_000_000, 500_000, group2);
      const res = await suno(app(), a.key, 'POST', '/suno/submit/music', { prompt: 'x' });
      expect(res).toMatchObject({ status: 502, body: { code: 'do_request_failed', data: null } });
      expect(await expectBooks(app(), a)).toMatchObject({ consumed: 0 });
    });
  });

  describe('continuations', () => {
    const group = 'continue';
    let origin: number;
    beforeAll(async () => {
      origin = await musicChannel(group, 0);
    });

    it("goes to the original task's channel even when the routing would choose another", async () => {
      const a = await account(1_000_000, 500_000, group);
      const taskId = await submitMusic(app(), a.key);
      expect((await taskRow(app(), taskId)).channel_id).toBe(origin);
      const preferred = await musicChannel(group, 100, other);
      // A fresh task goes to the preferred channel now...
      expect((await taskRow(app(), await submitMusic(app(), a.key))).channel_id).toBe(preferred);
      // ...a continuation to the one that made its clips.
      const before = up.submissions().length;
      const body = { prompt: '[Verse 2]', continue_clip_id: `${taskId}-clip1`, continue_at: 60, task_id: taskId, mv: 'chirp-v3-5' };
      const next = await submitMusic(app(), a.key, body);
      expect(up.submissions().length - before).toBe(1);
      expect(JSON.parse(up.submissions().at(-1)!.body.toString())).toEqual(body);
      expect((await taskRow(app(), next)).channel_id).toBe(origin);
      expect(await expectBooks(app(), a)).toMatchObject({ consumed: 3 * MUSIC_QUOTA, consumeLogs: 3 });
    });

    it("refuses to continue another user's task, or one that does not exist, without calling the upstream", async () => {
      const owner = await account(1_000_000, 500_000, group);
      const intruder = await account(1_000_000, 500_000, group);
      const taskId = await submitMusic(app(), owner.key);
      const submitted = up.submissions().length + other.submissions().length;
      for (const id of [taskId, 'no-such-task']) {
        const res = await suno(app(), intruder.key, 'POST', '/suno/submit/music', { continue_clip_id: 'c', task_id: id, continue_at: 10 });
        expect(res).toMatchObject({ status: 400, body: { code: 'task_not_exist', data: null } });
      }
      expect(up.submissions().length + other.submissions().length).toBe(submitted);
      expect(await expectBooks(app(), intruder)).toMatchObject({ consumed: 0 });
    });

    it("refuses a continuation whose channel was disabled, in Suno's shape", async () => {
      const a = await account(1_000_000, 500_000, group);
      const mine = await musicChannel(group, 1000);
      const taskId = await submitMusic(app(), a.key);
      expect((await taskRow(app(), taskId)).channel_id).toBe(mine);
      const ok = await f.t.call(f.root, { method: 'PUT', url: '/api/channel/', payload: { id: mine, status: 2 } });
      expect(ok.json()).toMatchObject({ success: true });
      const res = await suno(app(), a.key, 'POST', '/suno/submit/music', { continue_clip_id: 'c', task_id: taskId });
      expect(res).toMatchObject({ status: 403, body: { code: 'channel_disabled', data: null } });
      expect(await expectBooks(app(), a)).toMatchObject({ consumed: MUSIC_QUOTA, consumeLogs: 1 });
    });
  });

  describe('fetch', () => {
    it("answers from the gateway's rows, the caller's tasks only, by ids and by one id", async () => {
      const alice = await account();
      const bob = await account();
      const mine = [await submitMusic(app(), alice.key), await submitMusic(app(), alice.key)];
      const lyrics = (await suno(app(), alice.key, 'POST', '/suno/submit/lyrics', { prompt: 'rain' })).body.data as string;
      const his = await submitMusic(app(), bob.key);
      const polls = up.polls;

      const all = await suno(app(), alice.key, 'POST', '/suno/fetch', { ids: [...mine, lyrics, his, 'nope'] });
      expect(all.status).toBe(200);
      expect(all.body.code).toBe('success');
      expect(all.body.message).toBe('');
      const items = all.body.data as Array<Record<string, unknown>>;
      expect(items.map((t) => t.task_id).sort()).toEqual([...mine, lyrics].sort());
      expect(items[0]).toEqual({
        task_id: mine[0],
        action: 'MUSIC',
        status: 'SUBMITTED',
        fail_reason: '',
        submit_time: expect.any(Number),
        start_time: 0,
        finish_time: 0,
        progress: '0%',
        data: null,
      });
      const onlyLyrics = await suno(app(), alice.key, 'POST', '/suno/fetch', { ids: [...mine, lyrics], action: 'lyrics' });
      expect((onlyLyrics.body.data as Array<{ task_id: string }>).map((t) => t.task_id)).toEqual([lyrics]);
      expect((await suno(app(), alice.key, 'POST', '/suno/fetch', {})).body).toEqual({ code: 'success', message: '', data: [] });

      const one = await suno(app(), alice.key, 'GET', `/suno/fetch/${mine[1]}`);
      expect(one).toMatchObject({ status: 200, body: { code: 'success', message: '', data: { task_id: mine[1], action: 'MUSIC' } } });
      for (const [key, id] of [[alice.key, his], [bob.key, mine[0]], [bob.key, 'nope']]) {
        expect(await suno(app(), key, 'GET', `/suno/fetch/${id}`)).toMatchObject({ status: 400, body: { code: 'task_not_exist', data: null } });
      }
      expect((await suno(app(), bob.key, 'POST', '/suno/fetch', { ids: mine })).body.data).toEqual([]);
      // Over HTTP too (not only injected), with a browser's Origin.
      const http = await fetch(`${f.baseUrl}/suno/fetch/${lyrics}`, { headers: { authorization: `Bearer ${alice.key}`, origin: 'https://music.example' } });
      expect(http.status).toBe(200);
      expect(http.headers.get('access-control-allow-origin')).toBe('*');
      expect(await http.json()).toMatchObject({ code: 'success', data: { task_id: lyrics, action: 'LYRICS' } });
      // Never the upstream.
      expect(up.polls).toBe(polls);
    });

    it('never lets a task id or an action from the path reach the upstream’s path', async () => {
      const a = await account();
      const id = await submitMusic(app(), a.key);
      const before = up.requests.length;
      for (const hostile of ['x/../../suno/submit/music', '../fetch', 'a?b=1#c', '..%2F']) {
        expect(await suno(app(), a.key, 'GET', `/suno/fetch/${encodeURIComponent(hostile)}`), hostile).toMatchObject({ status: 400, body: { code: 'task_not_exist' } });
      }
      for (const action of ['music%2F..%2F..%2Ffetch', 'music%3Fx%3D1', 'music%23', 'lyrics%2F']) {
        expect(await suno(app(), a.key, 'POST', `/suno/submit/${action}`, { prompt: 'x' }), action).toMatchObject({ status: 400, body: { code: 'invalid_action' } });
      }
      expect(up.requests.slice(before)).toEqual([]);
      // An id the upstream made up with a path in it is asked for in the poll's body, at the poll's own path.
      const odd = `${id}/../../submit/music?x#y`;
      await db().updateTable('tasks').set({ task_id: odd }).where('task_id', '=', id).execute();
      await app().ctx.jobs.runNow('task-poller:suno');
      const polls = up.requests.slice(before);
      expect(new Set(polls.map((r) => `${r.method} ${r.path}`))).toEqual(new Set(['POST /suno/fetch']));
      expect(polls.filter((r) => (r.json?.ids as string[] | undefined)?.includes(odd))).toHaveLength(1);
    });

    it("refuses a fetch without a valid key or with a malformed body, in Suno's shape", async () => {
      const a = await account();
      const noKey = await app().inject({ method: 'GET', url: '/suno/fetch/x' });
      expect(noKey.statusCode).toBe(401);
      expect(noKey.json()).toMatchObject({ code: 'missing_api_key', data: null });
      expect(await suno(app(), 'sk-wrong', 'POST', '/suno/fetch', { ids: [] })).toMatchObject({ status: 401, body: { code: 'invalid_api_key' } });
      for (const body of [{ ids: 'a' }, { ids: [1] }, { ids: [], action: 3 }, '{']) {
        expect(await suno(app(), a.key, 'POST', '/suno/fetch', body)).toMatchObject({ status: 400, body: { code: 'invalid_request', data: null } });
      }
    });
  });
});
