import { beforeEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../../../test/databases.js';
import { closedPort } from '../../../test/unreachable.js';
import { startMidjourneyProxyStandIn } from '../../../test/midjourney-proxy-stand-in.js';
import { expectBooks, mjBooks, quotaOf, useMjFixture, type MjFixture } from './fixture.js';

/*
 * Submissions through the Midjourney routes against stand-in proxies: what is forwarded, what each answer code
 * costs, follow-ups on the original task's channel, the gateway's own refusals in the proxy's error shape, and a
 * channel's outbound proxy in between.
 */

describe.each(testDatabases())('Midjourney submissions on $name', (database) => {
  const fixture = useMjFixture(database);
  let m: MjFixture;
  beforeEach(async () => {
    m = fixture();
    m.stand.script = () => ({ code: 1 });
    m.other.stand.script = () => ({ code: 1 });
    for (const [k, v] of [['MjAccountFilterEnabled', 'false'], ['MjNotifyEnabled', 'false'], ['MjModeClearEnabled', 'false'], ['MjActionCheckSuccessEnabled', 'true']]) {
      await m.f.setOption(k, v);
    }
  });

  it('charges an accepted imagine once, records the task and forwards the filtered body with the channel key', async () => {
    const a = await m.account();
    const res = await m.call(a.key, 'POST', '/mj/submit/imagine', { prompt: 'a cat --fast', accountFilter: { instanceId: 'x' }, notifyHook: 'http://evil/hook', base64Array: [] });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ code: 1, description: '提交成功' });
    const sent = m.stand.submissions.at(-1)!;
    expect(sent.path).toBe('/mj/submit/imagine');
    expect(sent.headers['mj-api-secret']).toBe(m.stand.secret);
    expect(sent.body).toEqual({ prompt: 'a cat --fast', base64Array: [] });
    const row = await m.row(body.result);
    expect(row).toMatchObject({ user_id: a.userId, action: 'IMAGINE', prompt: 'a cat --fast', code: 1, status: 'SUBMITTED', progress: '0%', channel_id: m.channelId, quota: quotaOf(0.1), token_id: a.tokenId, token_quota: quotaOf(0.1) });
    expect(Math.abs(Number(row.submit_time) - Date.now())).toBeLessThan(60_000);
    const books = await expectBooks(m, a, quotaOf(0.1));
    expect(books.refunds).toEqual([]);
    const log = await m.db.selectFrom('logs').selectAll().where('user_id', '=', a.userId).where('type', '=', 2).executeTakeFirstOrThrow();
    expect(log.model_name).toBe('mj_imagine');
    expect(log.content).toBe(`模型固定价格 0.10，分组倍率 1.00，操作 IMAGINE，ID ${body.result}`);
  });

  it('records and charges an accepted imagine whose prompt holds a NUL once, on every database (PostgreSQL refuses NUL in text)', async () => {
    const a = await m.account();
    const res = await m.call(a.key, 'POST', '/mj/submit/imagine', { prompt: 'a\u0000cat' });
    expect(res.json()).toMatchObject({ code: 1 });
    const row = await m.row(res.json().result);
    expect(row).toMatchObject({ action: 'IMAGINE', prompt: 'acat', quota: quotaOf(0.1) });
    await expectBooks(m, a, quotaOf(0.1));
  });

  it('keeps accountFilter and notifyHook when the options allow them, and clears the speed flags when asked', async () => {
    await m.f.setOption('MjAccountFilterEnabled', 'true');
    await m.f.setOption('MjNotifyEnabled', 'true');
    await m.f.setOption('MjModeClearEnabled', 'true');
    const a = await m.account();
    const res = await m.call(a.key, 'POST', '/mj/submit/imagine', { prompt: 'a dog --relax --turbo --fast', accountFilter: { remix: true }, notifyHook: 'http://hook' });
    expect(res.json().code).toBe(1);
    expect(m.stand.submissions.at(-1)!.body).toEqual({ prompt: 'a dog   ', accountFilter: { remix: true }, notifyHook: 'http://hook' });
  });

  it('takes the key from mj-api-secret and refuses a bad one in the proxy error shape', async () => {
    const a = await m.account();
    const ok = await m.f.t.app.inject({ method: 'POST', url: '/mj/submit/describe', headers: { 'mj-api-secret': a.key }, payload: { base64: 'data:image/png;base64,AAAA' } });
    expect(ok.json().code).toBe(1);
    const bad = await m.f.t.app.inject({ method: 'POST', url: '/mj/submit/imagine', headers: { 'mj-api-secret': 'sk-nope' }, payload: { prompt: 'x' } });
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toEqual({ code: 4, description: '无效的令牌', type: 'new_api_error' });
    const none = await m.f.t.app.inject({ method: 'POST', url: '/mj/submit/imagine', payload: { prompt: 'x' } });
    expect(none.statusCode).toBe(401);
    expect(none.json().type).toBe('new_api_error');
  });

  it('refuses a body that is not a JSON object, and an imagine without a prompt, sending nothing', async () => {
    const a = await m.account();
    const before = m.stand.submissions.length;
    const res = await m.f.t.app.inject({ method: 'POST', url: '/mj/submit/imagine', headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' }, payload: '{"prompt":' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 4, description: '请求体不是合法的 JSON 对象', type: 'new_api_error' });
    const empty = await m.call(a.key, 'POST', '/mj/submit/imagine', { prompt: '  ' });
    expect(empty.json()).toEqual({ code: 4, description: 'prompt_is_required', type: 'new_api_error' });
    expect(m.stand.submissions.length).toBe(before);
    await expectBooks(m, a, 0);
  });

  it('answers 21 (exists) and 22 (queued) as 1 and charges them; a 21 already done is recorded as a success', async () => {
    const a = await m.account();
    m.stand.script = () => ({ code: 22, properties: { numberOfQueues: 1 } });
    const queued = await m.call(a.key, 'POST', '/mj/submit/imagine', { prompt: 'q' });
    expect(queued.json()).toMatchObject({ code: 1, description: '排队中，前面还有1个任务', properties: { numberOfQueues: 1 } });
    expect(await m.row(queued.json().result)).toMatchObject({ code: 22, status: 'NOT_START' });
    m.stand.script = () => ({ code: 21, result: 'existing-1', properties: { status: 'SUCCESS', imageUrl: `${m.stand.url}/attachments/existing-1.png` } });
    const exists = await m.call(a.key, 'POST', '/mj/submit/imagine', { prompt: 'e' });
    expect(exists.json()).toMatchObject({ code: 1, result: 'existing-1' });
    expect(await m.row('existing-1')).toMatchObject({ code: 21, status: 'SUCCESS', progress: '100%', image_url: `${m.stand.url}/attachments/existing-1.png` });
    await expectBooks(m, a, 2 * quotaOf(0.1));
  });

  it('charges nothing for 23 (queue full) and 24 (banned prompt), passing the answer on; 23 tries the next channel', async () => {
    const a = await m.account();
    m.stand.script = () => ({ code: 24, properties: { promptEn: 'bad', bannedWord: 'bad' } });
    const banned = await m.call(a.key, 'POST', '/mj/submit/imagine', { prompt: 'bad' });
    expect(banned.statusCode).toBe(200);
    expect(banned.json()).toEqual({ code: 24, description: '可能包含敏感词', properties: { promptEn: 'bad', bannedWord: 'bad' } });
    m.stand.script = () => ({ code: 23 });
    m.other.stand.script = () => ({ code: 23 });
    const full = await m.call(a.key, 'POST', '/mj/submit/imagine', { prompt: 'full' });
    expect(full.json()).toMatchObject({ code: 23, description: '队列已满，请稍后尝试' });
    expect(m.other.stand.submissions.at(-1)!.body.prompt).toBe('full');
    await expectBooks(m, a, 0);
    expect(await m.db.selectFrom('midjourneys').select('id').where('user_id', '=', a.userId).execute()).toEqual([]);
  });

  it('answers 429 to code 30 and charges nothing', async () => {
    const a = await m.account();
    m.stand.script = () => ({ code: 30, description: '请求过多' });
    m.other.stand.script = () => ({ code: 30, description: '请求过多' });
    const res = await m.call(a.key, 'POST', '/mj/submit/imagine', { prompt: 'busy' });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ code: 30, description: '请求过多 当前分组负载已饱和，请稍后再试，或升级账户以提升服务质量。', type: 'upstream_error' });
    await expectBooks(m, a, 0);
  });

  it('retries an unreachable proxy on the next channel and charges the one that took it', async () => {
    const a = await m.account();
    const dead = await m.f.channel({ type: 5, base_url: `http://127.0.0.1:${await closedPort()}`, key: 'k', models: 'mj_shorten', priority: 20 });
    const res = await m.call(a.key, 'POST', '/mj/submit/shorten', { prompt: 'long prompt' });
    expect(res.json().code).toBe(1);
    const row = await m.row(res.json().result);
    expect(row.channel_id).not.toBe(dead);
    expect(row.action).toBe('SHORTEN');
    await expectBooks(m, a, quotaOf(0.1));
    await m.f.t.call(m.f.root, { method: 'DELETE', url: `/api/channel/${dead}` });
  });

  it('answers 502 when the only channel cannot be reached, and charges nothing', async () => {
    const a = await m.account();
    const dead = await m.f.channel({ type: 5, base_url: `http://127.0.0.1:${await closedPort()}`, key: 'k', models: 'mj_pan' });
    const adminKey = (await m.f.token()).key;
    const res = await m.call(`${adminKey}-${dead}`, 'POST', '/mj/submit/imagine', { prompt: 'p' });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ code: 5, description: '请求上游地址失败', type: 'upstream_error' });
    await expectBooks(m, a, 0);
    await m.f.t.call(m.f.root, { method: 'DELETE', url: `/api/channel/${dead}` });
  });

  it('switches a channel off on code 3 (no account instance) when auto-disable is on, without charging', async () => {
    await m.f.setOption('AutomaticDisableChannelEnabled', 'true');
    const a = await m.account();
    const stand = await startMidjourneyProxyStandIn();
    const lonely = await m.f.channel({ type: 5, base_url: stand.url, key: stand.secret, models: 'mj_blend', auto_ban: 1, priority: 100 });
    stand.script = () => ({ code: 3 });
    const adminKey = (await m.f.token()).key;
    const res = await m.call(`${adminKey}-${lonely}`, 'POST', '/mj/submit/blend', { base64Array: ['a', 'b'] });
    expect(res.json()).toMatchObject({ code: 3, description: '无可用的账号实例' });
    const ch = await m.db.selectFrom('channels').select(['status', 'other_info']).where('id', '=', lonely).executeTakeFirstOrThrow();
    expect(ch.status).toBe(3);
    await stand.close();
    await m.f.t.call(m.f.root, { method: 'DELETE', url: `/api/channel/${lonely}` });
    expect(stand.submissions.length).toBe(1);
    expect(await m.db.selectFrom('midjourneys').select('id').where('channel_id', '=', lonely).execute()).toEqual([]);
    // Retried elsewhere when the caller did not pin the channel: the others took it and charged it.
    const b = await m.account();
    expect((await m.call(b.key, 'POST', '/mj/submit/blend', { base64Array: ['a', 'b'] })).json().code).toBe(1);
    await expectBooks(m, a, 0);
    await expectBooks(m, b, quotaOf(0.1));
  });

  it('refuses a submission the balance cannot pay, in the proxy error shape, sending nothing', async () => {
    const a = await m.account(10, 10);
    const before = m.stand.submissions.length;
    const res = await m.call(a.key, 'POST', '/mj/submit/imagine', { prompt: 'p' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 4, type: 'new_api_error' });
    expect(m.stand.submissions.length).toBe(before);
    await expectBooks(m, a, 0);
  });

  it('refuses a prompt holding a sensitive word, in any case, width or zero-width spelling, with code 24, sending and charging nothing', async () => {
    const a = await m.account();
    const before = m.stand.submissions.length;
    for (const [path, word] of [
      ['/mj/submit/imagine', 'TEST_sensitive'],
      ['/mj/submit/imagine', 'ｔｅｓｔ＿ｓｅｎｓｉｔｉｖｅ'],
      ['/fast/mj/submit/imagine', 't\u200best_sensi\u200dtive'],
      ['/mj/submit/shorten', 'Ｔest_Sensitive'],
    ]) {
      const res = await m.call(a.key, 'POST', path, { prompt: `a cat, ${word} --v 6` });
      expect(res.statusCode, `${path} ${word}`).toBe(400);
      expect(res.json()).toEqual({ code: 24, description: 'sensitive words detected', type: 'new_api_error' });
    }
    expect(m.stand.submissions.length).toBe(before);
    await expectBooks(m, a, 0);
    // Off, the same prompt goes through and is charged as usual.
    await m.f.setOption('CheckSensitiveEnabled', 'false');
    try {
      expect((await m.call(a.key, 'POST', '/mj/submit/imagine', { prompt: 'a cat, test_sensitive' })).json().code).toBe(1);
    } finally {
      await m.f.setOption('CheckSensitiveEnabled', 'true');
    }
    await expectBooks(m, a, quotaOf(0.1));
  });

  it('answers a model the token may not use, and a group without a channel, in the proxy error shape', async () => {
    const a = await m.account();
    await m.db.updateTable('tokens').set({ model_limits_enabled: 1, model_limits: 'mj_describe' }).where('id', '=', a.tokenId).execute();
    m.f.t.app.ctx.authCache.forgetToken(a.key.slice(3));
    const limited = await m.call(a.key, 'POST', '/mj/submit/imagine', { prompt: 'p' });
    expect(limited.statusCode).toBe(403);
    expect(limited.json()).toEqual({ code: 4, description: '该令牌无权访问模型 mj_imagine', type: 'new_api_error' });
    const b = await m.account();
    await m.f.setOption('GroupRatio', JSON.stringify({ default: 1, vip: 1 }));
    await m.db.updateTable('users').set({ group: 'vip' }).where('id', '=', b.userId).execute();
    m.f.t.app.ctx.authCache.forgetUser(b.userId);
    const nowhere = await m.call(b.key, 'POST', '/mj/submit/imagine', { prompt: 'p' });
    expect(nowhere.statusCode).toBe(404);
    expect(nowhere.json()).toMatchObject({ code: 4, type: 'new_api_error' });
    expect(nowhere.json().description).toContain('mj_imagine');
    await expectBooks(m, a, 0);
    await expectBooks(m, b, 0);
  });

  it('forwards /mj-{mode}/mj/... to /mj/... and /{mode}/mj/... as it came', async () => {
    const a = await m.account();
    expect((await m.call(a.key, 'POST', '/mj-fast/mj/submit/imagine', { prompt: 'p' })).json().code).toBe(1);
    expect(m.stand.submissions.at(-1)!.path).toBe('/mj/submit/imagine');
    expect((await m.call(a.key, 'POST', '/relax/mj/submit/imagine', { prompt: 'p' })).json().code).toBe(1);
    expect(m.stand.submissions.at(-1)!.path).toBe('/relax/mj/submit/imagine');
    // A key in the query stays here.
    const keyed = await m.f.t.app.inject({ method: 'POST', url: `/mj/submit/imagine?key=${a.key}`, payload: { prompt: 'p' } });
    expect(keyed.json().code).toBe(1);
    expect(m.stand.submissions.at(-1)!.path).toBe('/mj/submit/imagine');
    // /api/mj/... is the console's, not a mode path.
    const consoleList = await m.f.t.call(m.f.root, { method: 'GET', url: '/api/mj/?p=1' });
    expect(consoleList.json()).toMatchObject({ success: true });
    const consoleUnknown = await m.f.t.call(m.f.root, { method: 'POST', url: '/api/mj/submit/imagine', payload: { prompt: 'p' } });
    expect(consoleUnknown.statusCode).toBe(404);
    expect(consoleUnknown.json()).toMatchObject({ success: false });
    const unknown = await m.call(a.key, 'POST', '/mj/submit/nothing', { prompt: 'p' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ code: 4, description: 'Invalid URL (POST /mj/submit/nothing)', type: 'new_api_error' });
  });

  it('routes follow-ups to the original task channel, only on the caller own finished task', async () => {
    const a = await m.account();
    const b = await m.account();
    // The original lands on the second channel (the first does not serve imagine for this test).
    m.stand.script = () => ({ code: 23 });
    const first = await m.call(a.key, 'POST', '/mj/submit/imagine', { prompt: 'orig' });
    const id = first.json().result as string;
    expect((await m.row(id)).channel_id).toBe(m.other.channelId);
    m.stand.script = () => ({ code: 1 });

    const action = { customId: `MJ::JOB::upsample::1::${id}`, taskId: id };
    expect((await m.call(b.key, 'POST', '/mj/submit/action', action)).json()).toEqual({ code: 4, description: 'task_not_found', type: 'new_api_error' });
    expect((await m.call(a.key, 'POST', '/mj/submit/action', action)).json()).toEqual({ code: 4, description: 'task_status_not_success', type: 'new_api_error' });
    // Without the check, an unfinished task may be followed up (and it is charged).
    await m.f.setOption('MjActionCheckSuccessEnabled', 'false');
    const early = await m.call(a.key, 'POST', '/mj/submit/action', action);
    expect(early.json().code).toBe(1);
    expect(await m.row(early.json().result)).toMatchObject({ action: 'UPSCALE', channel_id: m.other.channelId });
    await m.f.setOption('MjActionCheckSuccessEnabled', 'true');
    // MODAL is exempt from the success check.
    const modal = await m.call(a.key, 'POST', '/mj/submit/modal', { taskId: id, prompt: 'mask' });
    expect(modal.json().code).toBe(1);
    expect(m.other.stand.submissions.at(-1)!.path).toBe('/mj/submit/modal');
    expect(await m.row(modal.json().result)).toMatchObject({ action: 'MODAL', channel_id: m.other.channelId, prompt: 'orig', quota: quotaOf(0.1) });

    await m.db.updateTable('midjourneys').set({ status: 'SUCCESS', progress: '100%' }).where('mj_id', '=', id).execute();
    const upscale = await m.call(a.key, 'POST', '/mj/submit/action', action);
    expect(upscale.json().code).toBe(1);
    expect(m.other.stand.submissions.at(-1)!.body).toEqual(action);
    expect(await m.row(upscale.json().result)).toMatchObject({ action: 'UPSCALE', channel_id: m.other.channelId, quota: quotaOf(0.05) });

    const change = await m.call(a.key, 'POST', '/mj/submit/change', { taskId: id, action: 'VARIATION', index: 2 });
    expect(await m.row(change.json().result)).toMatchObject({ action: 'VARIATION', channel_id: m.other.channelId });
    const simple = await m.call(a.key, 'POST', '/mj/submit/simple-change', { content: `${id} R` });
    expect(await m.row(simple.json().result)).toMatchObject({ action: 'REROLL', channel_id: m.other.channelId });

    // INPAINT and CUSTOM_ZOOM are free: priced by the MODAL that follows them.
    const inpaint = await m.call(a.key, 'POST', '/mj/submit/action', { customId: `MJ::Inpaint::1::${id}::SOLO`, taskId: id });
    const zoom = await m.call(a.key, 'POST', '/mj/submit/action', { customId: `MJ::CustomZoom::${id}`, taskId: id });
    expect(await m.row(inpaint.json().result)).toMatchObject({ action: 'INPAINT', quota: 0 });
    expect(await m.row(zoom.json().result)).toMatchObject({ action: 'CUSTOM_ZOOM', quota: 0 });
    const bookmark = await m.call(a.key, 'POST', '/mj/submit/action', { customId: `MJ::BOOKMARK::${id}`, taskId: id });
    expect(bookmark.json()).toEqual({ code: 4, description: `unknown_action:MJ::BOOKMARK::${id}`, type: 'new_api_error' });

    await expectBooks(m, a, quotaOf(0.1) * 2 + quotaOf(0.05) * 2 + quotaOf(0.1) * 2);
    await expectBooks(m, b, 0);

    // A follow-up whose channel was switched off is refused, not sent elsewhere.
    await m.f.t.call(m.f.root, { method: 'PUT', url: '/api/channel/', payload: { id: m.other.channelId, status: 2 } });
    const off = await m.call(a.key, 'POST', '/mj/submit/action', action);
    expect(off.statusCode).toBe(403);
    expect(off.json()).toMatchObject({ code: 4, type: 'new_api_error' });
    await m.f.t.call(m.f.root, { method: 'PUT', url: '/api/channel/', payload: { id: m.other.channelId, status: 1 } });
  });

  it('records a swap_face as InsightFace and an upload as done at once', async () => {
    const a = await m.account();
    const swap = await m.call(a.key, 'POST', '/mj/insight-face/swap', { sourceBase64: 'a', targetBase64: 'b' });
    expect(await m.row(swap.json().result)).toMatchObject({ action: 'SWAP_FACE', prompt: 'InsightFace' });
    expect((await m.call(a.key, 'POST', '/mj/insight-face/swap', { sourceBase64: 'a' })).json().description).toBe('sour_base64_and_target_base64_is_required');
    const upload = await m.call(a.key, 'POST', '/mj/submit/upload-discord-images', { base64Array: ['x'] });
    expect(upload.json()).toMatchObject({ code: 1 });
    expect(Array.isArray(upload.json().result)).toBe(true);
    const row = await m.db.selectFrom('midjourneys').selectAll().where('user_id', '=', a.userId).where('action', '=', 'UPLOAD').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'SUCCESS', progress: '100%', mj_id: '' });
    const books = await mjBooks(m.db, a);
    expect(books.charged).toBe(quotaOf(0.1) * 2);
  });

  it('submits through the channel’s outbound proxy when it has one', async () => {
    await m.behindProxy(async (proxy) => {
      const a = await m.account();
      const res = await m.call(a.key, 'POST', '/mj/submit/imagine', { prompt: 'a cat behind a proxy' });
      expect(res.json()).toMatchObject({ code: 1 });
      expect(m.stand.submissions.at(-1)!.body).toEqual({ prompt: 'a cat behind a proxy' });
      expect(proxy.seen.map((s) => s.target)).toEqual([new URL(m.stand.url).host]);
    });
  });
});
