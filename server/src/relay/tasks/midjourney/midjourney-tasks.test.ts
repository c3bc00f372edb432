import { Agent, fetch as fetchWith } from 'undici';
import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { testDatabases } from '../../../test/databases.js';
import { closedPort } from '../../../test/unreachable.js';
import { expectBooks, quotaOf, useMjFixture, type MjFixture } from './fixture.js';
import { settleTask, TIMEOUT_REASON } from './poll.js';

/*
 * After the submission: the poller brings tasks to their end through the stand-in proxy, failures and timeouts are
 * refunded exactly once (to the user and the token) even when a late success races them, and the task reads and
 * the image route show each caller only its own drawings.
 */

const HOUR = 3_600_000;

describe.each(testDatabases())('Midjourney tasks on $name', (database) => {
  const fixture = useMjFixture(database);
  let m: MjFixture;
  beforeEach(async () => {
    m = fixture();
    m.stand.script = () => ({ code: 1 });
    await m.f.setOption('MjForwardUrlEnabled', 'true');
    await m.f.setOption('ServerAddress', 'https://gw.example.com/');
  });

  const imagine = async (key: string, prompt = 'cat') => {
    const res = await m.call(key, 'POST', '/mj/submit/imagine', { prompt });
    expect(res.json().code).toBe(1);
    return res.json().result as string;
  };
  const backdate = (mjId: string, ms: number) => m.db.updateTable('midjourneys').set({ submit_time: Date.now() - ms }).where('mj_id', '=', mjId).execute();

  it('follows a task through its progress to success, and serves it with the forwarded image address', async () => {
    const a = await m.account();
    const id = await imagine(a.key);
    const fetch = async () => (await m.call(a.key, 'GET', `/mj/task/${id}/fetch`)).json();
    expect(await fetch()).toMatchObject({ id, action: 'IMAGINE', prompt: 'cat', status: 'SUBMITTED', progress: '0%', imageUrl: '', buttons: null, properties: null });

    await m.poll();
    expect(await m.row(id)).toMatchObject({ status: 'IN_PROGRESS', progress: '30%', code: 1, prompt_en: 'cat (en)', image_url: m.stand.imageUrl(`${id}-preview`) });
    const running = await fetch();
    expect(running.imageUrl).toMatch(new RegExp(`^https://gw\\.example\\.com/mj/image/${id}\\?rand=\\d+$`));

    await m.poll();
    expect((await m.row(id)).progress).toBe('60%');
    await m.poll();
    const done = await m.row(id);
    expect(done).toMatchObject({ status: 'SUCCESS', progress: '100%', image_url: m.stand.imageUrl(id), fail_reason: '' });
    expect(Number(done.finish_time)).toBeGreaterThan(0);
    const view = await fetch();
    expect(view).toMatchObject({ status: 'SUCCESS', imageUrl: `https://gw.example.com/mj/image/${id}`, properties: { finalPrompt: 'cat' } });
    expect(view.buttons[0]).toMatchObject({ customId: `MJ::JOB::upsample::1::${id}`, label: 'U1' });

    // Finished tasks are not asked about again.
    const polledBefore = m.stand.polledIds.length;
    await m.poll();
    expect(m.stand.polledIds.slice(polledBefore).flat()).not.toContain(id);

    await m.f.setOption('MjForwardUrlEnabled', 'false');
    expect((await fetch()).imageUrl).toBe(m.stand.imageUrl(id));
    await expectBooks(m, a, quotaOf(0.1));
  });

  it('refunds a failed task to the user and the token once, with the system log of the amount', async () => {
    const a = await m.account();
    m.stand.script = () => ({ code: 1, plan: { steps: ['10%'], end: 'FAILURE', failReason: 'Banned prompt detected' } });
    const id = await imagine(a.key, 'bad');
    await m.poll();
    await m.poll();
    expect(await m.row(id)).toMatchObject({ status: 'FAILURE', progress: '100%', fail_reason: 'Banned prompt detected' });
    const books = await expectBooks(m, a, 0);
    expect(books.charged).toBe(quotaOf(0.1));
    expect(books.refunds).toEqual([{ content: `构图失败 ${id}，补偿 ＄0.100000 额度`, quota: quotaOf(0.1) }]);
    await m.poll();
    await expectBooks(m, a, 0);
  });

  it('fails and refunds a task that reports a fail reason before 100%', async () => {
    const a = await m.account();
    const id = await imagine(a.key);
    await m.poll();
    const row = await m.row(id);
    expect(await settleTask(m.f.t.app.ctx, row, { id, status: 'IN_PROGRESS', progress: '40%', failReason: 'Job action restricted' })).toBe('failed');
    expect(await m.row(id)).toMatchObject({ status: 'FAILURE', progress: '100%', fail_reason: 'Job action restricted' });
    await expectBooks(m, a, 0);
  });

  it('fails a task unfinished after an hour, and a late success does not undo the refund', async () => {
    const a = await m.account();
    m.stand.script = () => ({ code: 1, plan: { end: 'NEVER' } });
    const id = await imagine(a.key);
    await m.poll();
    const stale = await m.row(id);
    await backdate(id, HOUR + 1000);
    await m.poll();
    expect(await m.row(id)).toMatchObject({ status: 'FAILURE', progress: '100%', fail_reason: TIMEOUT_REASON });
    await expectBooks(m, a, 0);
    // The proxy finishes after all: the poller no longer asks, and an update from a stale copy finds the row ended.
    m.stand.tasks.get(id)!.plan.end = 'SUCCESS';
    expect(await settleTask(m.f.t.app.ctx, stale, { id, status: 'SUCCESS', progress: '100%', imageUrl: m.stand.imageUrl(id) })).toBe('lost');
    await m.poll();
    expect(await m.row(id)).toMatchObject({ status: 'FAILURE', fail_reason: TIMEOUT_REASON });
    const books = await expectBooks(m, a, 0);
    expect(books.refunds).toHaveLength(1);
  });

  it('keeps a success that came first when a stale timeout arrives after it', async () => {
    const a = await m.account();
    const id = await imagine(a.key);
    const stale = { ...(await m.row(id)), submit_time: Date.now() - HOUR - 1000 };
    await m.poll();
    await m.poll();
    await m.poll();
    expect((await m.row(id)).status).toBe('SUCCESS');
    expect(await settleTask(m.f.t.app.ctx, stale, undefined)).toBe('lost');
    expect((await m.row(id)).status).toBe('SUCCESS');
    const books = await expectBooks(m, a, quotaOf(0.1));
    expect(books.refunds).toEqual([]);
  });

  it('ends a task once when a success and a timeout race each other', async () => {
    for (let i = 0; i < 4; i++) {
      const a = await m.account();
      const id = await imagine(a.key);
      const stale = { ...(await m.row(id)), submit_time: Date.now() - HOUR - 1000 };
      const outcomes = await Promise.all([
        settleTask(m.f.t.app.ctx, stale, { id, status: 'SUCCESS', progress: '100%', imageUrl: 'http://x/y.png' }),
        settleTask(m.f.t.app.ctx, stale, undefined),
        settleTask(m.f.t.app.ctx, stale, { id, status: 'FAILURE', failReason: 'late' }),
      ]);
      expect(outcomes.filter((o) => o !== 'lost')).toHaveLength(1);
      const row = await m.row(id);
      await expectBooks(m, a, row.status === 'SUCCESS' ? quotaOf(0.1) : 0);
    }
  });

  it('fails tasks without an upstream id and tasks whose channel is gone, refunding them', async () => {
    const a = await m.account();
    m.stand.script = () => ({ code: 1, result: '' });
    const res = await m.call(a.key, 'POST', '/mj/submit/imagine', { prompt: 'no id' });
    expect(res.json()).toMatchObject({ code: 1, result: '' });
    m.stand.script = () => ({ code: 1 });
    const gone = await m.f.channel({ type: 5, base_url: m.stand.url, key: m.stand.secret, models: 'mj_imagine' });
    const adminKey = (await m.f.token()).key;
    const orphan = (await m.call(`${adminKey}-${gone}`, 'POST', '/mj/submit/imagine', { prompt: 'orphan' })).json().result as string;
    await m.f.t.call(m.f.root, { method: 'DELETE', url: `/api/channel/${gone}` });
    await m.poll();
    const noId = await m.db.selectFrom('midjourneys').selectAll().where('user_id', '=', a.userId).executeTakeFirstOrThrow();
    expect(noId).toMatchObject({ status: 'FAILURE', progress: '100%', fail_reason: '上游未返回任务 ID' });
    await expectBooks(m, a, 0);
    expect(await m.row(orphan)).toMatchObject({ status: 'FAILURE', fail_reason: `获取渠道信息失败，请联系管理员，渠道ID：${gone}` });
  });

  it('shows a caller only its own tasks (fetch, list-by-condition, image-seed, notify)', async () => {
    const a = await m.account();
    const b = await m.account();
    const idA = await imagine(a.key, 'mine');
    const idB = await imagine(b.key, 'theirs');
    expect((await m.call(b.key, 'GET', `/mj/task/${idA}/fetch`)).json()).toEqual({ code: 4, description: 'task_no_found', type: 'new_api_error' });
    const list = await m.call(a.key, 'POST', '/mj/task/list-by-condition', { ids: [idA, idB, 'nothing'] });
    expect(list.json().map((t: { id: string }) => t.id)).toEqual([idA]);
    expect((await m.call(a.key, 'POST', '/mj/task/list-by-condition', { ids: 'x' })).statusCode).toBe(400);
    expect((await m.call(a.key, 'POST', '/mj/task/list-by-condition', {})).json()).toEqual([]);
    expect((await m.call(a.key, 'GET', `/mj/task/${idA}/image-seed`)).json()).toEqual({ code: 1, description: '成功', result: `seed-${idA}` });
    expect((await m.call(b.key, 'GET', `/mj/task/${idA}/image-seed`)).json()).toMatchObject({ code: 4, description: 'task_no_found' });
    expect((await m.call(b.key, 'POST', '/mj/notify', { id: idA, status: 'FAILURE' })).json()).toMatchObject({ code: 4 });
    // Through a mode prefix too.
    expect((await m.call(a.key, 'GET', `/fast/mj/task/${idA}/fetch`)).json()).toMatchObject({ id: idA });
  });

  it('shows a token pinned to a channel only that channel tasks', async () => {
    const admin = (await m.f.token()).key;
    const onMain = (await m.call(`${admin}-${m.channelId}`, 'POST', '/mj/submit/imagine', { prompt: 'main' })).json().result as string;
    const onOther = (await m.call(`${admin}-${m.other.channelId}`, 'POST', '/mj/submit/imagine', { prompt: 'other' })).json().result as string;
    expect((await m.row(onOther)).channel_id).toBe(m.other.channelId);
    const list = async (key: string) => ((await m.call(key, 'POST', '/mj/task/list-by-condition', { ids: [onMain, onOther] })).json() as { id: string }[]).map((t) => t.id).sort();
    expect(await list(`${admin}-${m.channelId}`)).toEqual([onMain]);
    expect(await list(`${admin}-${m.other.channelId}`)).toEqual([onOther]);
    expect(await list(admin)).toEqual([onMain, onOther].sort());
    expect((await m.call(`${admin}-${m.channelId}`, 'GET', `/mj/task/${onOther}/fetch`)).json().code).toBe(4);
  });

  it('brings a task up to date when its proxy calls back, without trusting the callback body', async () => {
    const a = await m.account();
    const id = await imagine(a.key);
    const res = await m.call(a.key, 'POST', '/mj/notify', { id, status: 'FAILURE', failReason: 'forged', imageUrl: 'http://169.254.169.254/' });
    expect(res.json()).toEqual({ code: 1, description: '成功', result: id });
    expect(await m.row(id)).toMatchObject({ status: 'IN_PROGRESS', progress: '30%', fail_reason: '', image_url: m.stand.imageUrl(`${id}-preview`) });
    await expectBooks(m, a, quotaOf(0.1));
  });

  it('streams a stored image without a key, passing its type, and refuses unknown ids', async () => {
    const a = await m.account();
    const id = await imagine(a.key);
    for (let i = 0; i < 3; i++) await m.poll();
    m.stand.holdImages();
    const writtenBefore = m.stand.imageBytesWritten;
    const res = await fetch(`${m.f.baseUrl}/mj/image/${id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const reader = res.body!.getReader();
    let got = 0;
    // The first half arrives while the proxy still holds the second: nothing waits for the whole image.
    while (got < m.stand.imageBytes / 4) {
      const { value, done } = await reader.read();
      if (done) break;
      got += value.length;
    }
    expect(got).toBeGreaterThanOrEqual(m.stand.imageBytes / 4);
    expect(m.stand.imageBytesWritten - writtenBefore).toBeLessThan(m.stand.imageBytes);
    m.stand.releaseImages();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      got += value.length;
    }
    expect(got).toBe(m.stand.imageBytes);

    // A client that leaves mid-way stops the download from the proxy.
    m.stand.holdImages();
    const leaving = new AbortController();
    const startedAt = m.stand.imageBytesWritten;
    // Its own client, closed afterwards: the aborted connection is not replaced by one left waiting on the server.
    const client = new Agent();
    const partial = await fetchWith(`${m.f.baseUrl}/mj/image/${id}`, { signal: leaving.signal, dispatcher: client });
    await partial.body!.getReader().read();
    expect(m.stand.imagesOpen).toBe(1);
    leaving.abort();
    await expect.poll(() => m.stand.imagesOpen, { timeout: 5000 }).toBe(0);
    m.stand.releaseImages();
    expect(m.stand.imageBytesWritten - startedAt).toBeLessThan(m.stand.imageBytes);
    await client.destroy();

    const unknown = await fetch(`${m.f.baseUrl}/mj/image/nope`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'midjourney_task_not_found' });
    // Upstream failures answer cleanly, and only http(s) addresses are ever fetched.
    const setImage = (url: string) => m.db.updateTable('midjourneys').set({ image_url: url }).where('mj_id', '=', id).execute();
    await setImage(`${m.stand.url}/elsewhere.png`);
    const refused = await fetch(`${m.f.baseUrl}/mj/image/${id}`);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: 'http_get_image_failed: HTTP 401' });
    await setImage(`http://127.0.0.1:${await closedPort()}/x.png`);
    const unreachable = await fetch(`${m.f.baseUrl}/mj/image/${id}`);
    expect(unreachable.status).toBe(502);
    expect(await unreachable.json()).toEqual({ error: 'http_get_image_failed' });
    await setImage('file:///etc/passwd');
    const local = await fetch(`${m.f.baseUrl}/mj/image/${id}`);
    expect(local.status).toBe(404);
    await local.body?.cancel();
    // A task with no image yet has nothing to show.
    const fresh = await imagine(a.key);
    const none = await fetch(`${m.f.baseUrl}/mj/image/${fresh}`);
    expect(none.status).toBe(404);
    await none.body?.cancel();
  });

  it('serves a task’s image only as an image, never as a page of the gateway’s origin', async () => {
    const a = await m.account();
    const id = await imagine(a.key);
    for (let i = 0; i < 3; i++) await m.poll();
    const [bytes, type] = [m.stand.imageBytes, m.stand.imageType];
    onTestFinished(() => {
      m.stand.imageBytes = bytes;
      m.stand.imageType = type;
    });
    m.stand.imageBytes = 1024;
    for (const [served, expected] of [
      ['image/png', 'image/png'],
      ['IMAGE/WEBP; q=1', 'image/webp'],
      ['text/html; charset=utf-8', 'application/octet-stream'],
      // An SVG may hold script: the sandboxing CSP below keeps it from running when the image is opened as a page.
      ['image/svg+xml', 'image/svg+xml'],
      ['application/xhtml+xml', 'application/octet-stream'],
      ['image/', 'application/octet-stream'],
      [undefined, 'application/octet-stream'],
    ] as const) {
      m.stand.imageType = served;
      const res = await m.f.t.app.inject({ method: 'GET', url: `/mj/image/${id}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type'], String(served)).toBe(expected);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBe('sandbox');
      expect(res.rawPayload.length).toBe(1024);
    }
  });

  it('polls and fetches images through the channel’s outbound proxy when it has one', async () => {
    await m.behindProxy(async (proxy) => {
      const a = await m.account();
      const id = await imagine(a.key);
      const host = new URL(m.stand.url).host;
      expect(proxy.seen.map((s) => s.target)).toEqual([host]);
      // Each step's call is seen opening a tunnel of its own once the kept-alive one is ended.
      await proxy.dropTunnels();
      for (let i = 0; i < 3; i++) await m.poll();
      expect(await m.row(id)).toMatchObject({ status: 'SUCCESS' });
      const polled = proxy.seen.length;
      expect(polled).toBeGreaterThan(1);
      await proxy.dropTunnels();
      const image = await fetch(`${m.f.baseUrl}/mj/image/${id}`);
      expect(image.status).toBe(200);
      expect((await image.arrayBuffer()).byteLength).toBe(m.stand.imageBytes);
      expect(proxy.seen.length).toBe(polled + 1);
      expect(new Set(proxy.seen.map((s) => s.target))).toEqual(new Set([host]));
    });
  });
});
