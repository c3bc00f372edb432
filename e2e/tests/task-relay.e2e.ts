import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAILING_SCRIPT, MUSIC_SCRIPT, startSunoStandIn, type SunoStandIn } from '../../server/src/test/suno-stand-in.js';
import { startMidjourneyProxyStandIn, type MidjourneyProxyStandIn } from '../../server/src/test/midjourney-proxy-stand-in.js';
import { apiAs, useServerAndBrowser } from '../support/fixture.js';
import { signedIn as signedInAs } from '../support/settings.js';

/*
 * Drawing and music tasks as a client makes them: submitted through the relay to a midjourney-proxy and a Suno-API
 * stand-in, brought to their end by the server's own pollers (every second here), shown on their pages — the ones
 * that succeeded charged, the ones that failed refunded.
 */

const PRICE = 50_000; // suno_music: 0.1 USD x 500,000 at group ratio 1

describe('drawing and music tasks from submit to finish', () => {
  const env = useServerAndBrowser({ TASK_POLL_INTERVAL: '1' });
  let suno: SunoStandIn;
  let mj: MidjourneyProxyStandIn;
  let key = '';
  let tokenId = 0;
  let root: Awaited<ReturnType<typeof apiAs>>;

  beforeAll(async () => {
    suno = await startSunoStandIn();
    mj = await startMidjourneyProxyStandIn({ imageBytes: 256 * 1024 });
    mj.script = (sub) =>
      String(sub.body.prompt).includes('forbidden')
        ? { code: 1, plan: { end: 'FAILURE', failReason: 'Banned prompt detected' } }
        : { code: 1, plan: { end: 'SUCCESS' } };
    root = await apiAs(env.server().baseUrl, 'root', '123456');
    // Drawings' images are forwarded through the gateway's own address.
    expect((await root('PUT', '/api/option/', { key: 'ServerAddress', value: env.server().baseUrl })).success).toBe(true);
    const proxy = await root('POST', '/api/channel/', { type: 2, name: 'mj-e2e', group: 'default', base_url: mj.url, key: mj.secret, models: 'mj_imagine' });
    expect(proxy.success).toBe(true);
    const channel = await root('POST', '/api/channel/', { type: 36, name: 'suno-e2e', group: 'default', base_url: suno.url, key: suno.key, models: 'suno_music,suno_lyrics' });
    expect(channel.success).toBe(true);
    const token = await root('POST', '/api/token/', { name: 'music', remain_quota: 1_000_000, unlimited_quota: false, expired_time: -1 });
    expect(token, token.message).toMatchObject({ success: true });
    key = `sk-${(token.data as { key: string }).key}`;
    tokenId = (token.data as { id: number }).id;
  });
  afterAll(async () => {
    await suno?.close();
    await mj?.close();
  });

  const balances = async () => {
    const self = (await root('GET', '/api/user/self')).data as { quota: number };
    const token = (await root('GET', `/api/token/${tokenId}`)).data as { remain_quota: number };
    return { user: self.quota, token: token.remain_quota };
  };

  const submit = async (prompt: string) => {
    const res = await fetch(`${env.server().baseUrl}/suno/submit/music`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt, mv: 'chirp-v3-5', title: prompt }),
    });
    const body = (await res.json()) as { code: string; data: string };
    expect(body.code).toBe('success');
    return body.data;
  };

  it('charges the drawing that succeeds, refunds the one that fails, and shows both with the image on the drawing page', async () => {
    const before = await balances();
    const imagine = async (prompt: string) => {
      const res = await fetch(`${env.server().baseUrl}/mj/submit/imagine`, {
        method: 'POST',
        headers: { 'mj-api-secret': key, 'content-type': 'application/json' },
        body: JSON.stringify({ prompt }),
      });
      const body = (await res.json()) as { code: number; result: string };
      expect(body.code).toBe(1);
      return body.result;
    };
    const good = await imagine('a lighthouse at dusk');
    const bad = await imagine('something forbidden');
    expect(await balances()).toEqual({ user: before.user - 2 * PRICE, token: before.token - 2 * PRICE });

    const drawing = async (id: string) => ((await root('GET', `/api/mj/?p=0&mj_id=${id}`)).data as Array<{ status: string; image_url: string }>)[0];
    await expect.poll(async () => (await drawing(good))?.status, { timeout: 30_000 }).toBe('SUCCESS');
    await expect.poll(async () => (await drawing(bad))?.status, { timeout: 30_000 }).toBe('FAILURE');
    await expect.poll(balances, { timeout: 10_000 }).toEqual({ user: before.user - PRICE, token: before.token - PRICE });

    const { page, close } = await signedInAs(env.browser(), env.server().baseUrl, 'root', '123456');
    await page.getByRole('button', { name: '我知道了' }).click();
    await page.getByRole('menuitem', { name: '绘图' }).click();
    await page.waitForURL(/\/midjourney$/);
    const row = (id: string) => page.getByRole('row').filter({ hasText: id });
    for (const text of ['成功', '100%', '绘图']) await row(good).getByText(text, { exact: true }).waitFor();
    await row(bad).getByText('失败', { exact: true }).waitFor();
    await row(bad).getByText('Banned prompt detected').waitFor();
    // The image goes through the gateway, which streams the proxy's bytes.
    await row(good).getByRole('button', { name: '查看图片' }).click();
    const image = page.getByRole('dialog').filter({ hasText: '查看图片' }).getByRole('img', { name: '结果图片' });
    await image.waitFor();
    const src = (await image.getAttribute('src'))!;
    expect(src).toBe(`${env.server().baseUrl}/mj/image/${good}`);
    const served = await fetch(src);
    expect([served.status, served.headers.get('content-type'), (await served.arrayBuffer()).byteLength]).toEqual([200, 'image/png', 256 * 1024]);
    await close();

    const logs = (await root('GET', '/api/log/self/?p=1&type=4')).data as { items: Array<{ content: string; quota: number }> };
    expect(logs.items.find((l) => l.content.startsWith(`构图失败 ${bad}`))?.quota).toBe(PRICE);
  });

  it('charges the task that succeeds, refunds the one that fails, and shows both on the task page', async () => {
    const before = await balances();
    suno.submits = [{ kind: 'accept', script: MUSIC_SCRIPT }, { kind: 'accept', script: FAILING_SCRIPT }];
    const good = await submit('night drive');
    const bad = await submit('unsafe song');
    expect(await balances()).toEqual({ user: before.user - 2 * PRICE, token: before.token - 2 * PRICE });

    const statusOf = async (id: string) => ((await root('GET', `/api/task/?p=0&task_id=${id}`)).data as Array<{ status: string }>)[0]?.status;
    await expect.poll(() => statusOf(good), { timeout: 30_000 }).toBe('SUCCESS');
    await expect.poll(() => statusOf(bad), { timeout: 30_000 }).toBe('FAILURE');
    await expect.poll(balances, { timeout: 10_000 }).toEqual({ user: before.user - PRICE, token: before.token - PRICE });

    const { page, close } = await signedInAs(env.browser(), env.server().baseUrl, 'root', '123456');
    await page.getByRole('button', { name: '我知道了' }).click();
    await page.getByRole('menuitem', { name: '异步任务' }).click();
    await page.waitForURL(/\/task$/);
    const row = (id: string) => page.getByRole('row').filter({ hasText: id });
    for (const text of ['成功', '100%', '生成音乐']) await row(good).getByText(text, { exact: true }).waitFor();
    await row(bad).getByText('失败', { exact: true }).waitFor();
    await row(bad).getByText('Song generation failed: unsafe content').waitFor();
    // The finished task's data: the clips the upstream made.
    await row(good).getByText(good).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`${good}-clip1`, { exact: false }).first().waitFor();
    await close();

    // The refund is in the logs, with its amount.
    const logs = (await root('GET', '/api/log/self/?p=1&type=4')).data as { items: Array<{ content: string; quota: number }> };
    expect(logs.items.find((l) => l.content.startsWith(`异步任务执行失败 ${bad}`))?.quota).toBe(PRICE);
  });
});
