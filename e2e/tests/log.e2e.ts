import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { loginAs, newPage } from '../support/browser.js';
import { apiAs, useServerAndBrowser } from '../support/fixture.js';
import { optionsLoaded } from '../support/settings.js';

/** Two OpenAI-compatible upstreams on one port: /bad answers 500 (so the relay retries), /good answers a completion. */
function startUpstreams(): Promise<{ bad: string; good: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url?.startsWith('/bad/')) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'upstream exploded', type: 'server_error' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-log-e2e',
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: 'gpt-4o-mini',
          choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 },
        }),
      );
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        bad: `http://127.0.0.1:${port}/bad`,
        good: `http://127.0.0.1:${port}/good`,
        close: () => new Promise<void>((r) => server.close(() => r())),
      });
    });
  });
}

type Api = Awaited<ReturnType<typeof apiAs>>;

describe('the log page', () => {
  const env = useServerAndBrowser();
  let upstreams: Awaited<ReturnType<typeof startUpstreams>>;
  let badId = 0;
  let goodId = 0;

  async function relayAs(api: Api, tokenName: string): Promise<void> {
    const created = await api('POST', '/api/token/', { name: tokenName, remain_quota: 0, expired_time: -1, unlimited_quota: true });
    expect(created.success, created.message).toBe(true);
    const tokens = (await api('GET', '/api/token/?p=0&size=50')).data as Array<{ name: string; key: string }>;
    const key = tokens.find((tk) => tk.name === tokenName)!.key;
    const res = await fetch(`${env.server().baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
  }

  beforeAll(async () => {
    upstreams = await startUpstreams();
    const root = await apiAs(env.server().baseUrl, 'root', '123456');
    // The failing channel sits in the higher priority tier, so every call tries it first and then retries.
    for (const [name, url, priority] of [['log-bad', upstreams.bad, 10], ['log-good', upstreams.good, 0]] as const) {
      const res = await root('POST', '/api/channel/', { name, type: 1, key: `sk-${name}`, base_url: url, models: 'gpt-4o-mini', group: 'default', auto_ban: 0, priority });
      expect(res.success, res.message).toBe(true);
    }
    const channels = (await root('GET', '/api/channel/?p=0&page_size=50')).data as Array<{ id: number; name: string }>;
    badId = channels.find((c) => c.name === 'log-bad')!.id;
    goodId = channels.find((c) => c.name === 'log-good')!.id;
    expect((await root('PUT', '/api/option/', { key: 'RetryTimes', value: '1' })).success).toBe(true);

    const register = await fetch(`${env.server().baseUrl}/api/user/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'logger', password: 'password123', password2: 'password123' }),
    });
    expect(((await register.json()) as { success: boolean }).success).toBe(true);
    const found = ((await root('GET', '/api/user/search?keyword=logger')).data as { items: Array<{ id: number }> }).items;
    const logger = (await root('GET', `/api/user/${found[0].id}`)).data as Record<string, unknown>;
    expect((await root('PUT', '/api/user/', { ...logger, quota: 5_000_000 })).success).toBe(true);

    await relayAs(await apiAs(env.server().baseUrl, 'logger', 'password123'), 'logger-key');
    await relayAs(root, 'root-key');
    // Consume logs are written in batches (within a second).
    const deadline = Date.now() + 10_000;
    while (((await root('GET', '/api/log/?type=2')).data as { total: number }).total < 2) {
      if (Date.now() > deadline) throw new Error('the consume logs were not written');
      await new Promise((r) => setTimeout(r, 200));
    }
  });
  afterAll(async () => {
    await upstreams?.close();
  });

  async function signedIn(username: string, password: string): Promise<{ page: Page; close(): Promise<void> }> {
    const { page, context } = await newPage(env.browser(), env.server().baseUrl);
    await loginAs(page, username, password);
    await page.waitForURL(/\/token/);
    if (username === 'root') await page.getByRole('button', { name: '我知道了' }).click();
    return { page, close: () => context.close() };
  }

  const rows = (page: Page) => page.getByRole('row').filter({ hasText: 'gpt-4o-mini' });
  const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 20_000 });
  /** An item of the open antd select dropdown. */
  const choose = (page: Page, label: string) => page.locator('.ant-select-dropdown:visible').getByTitle(label, { exact: true }).click();

  it('shows an admin every consume row with its channel and retry chain, filters it, and opens the user info', async () => {
    const { page, close } = await signedIn('root', '123456');
    await page.goto('/log');
    await page.getByText(/^消耗额度: \$/).waitFor();
    await page.getByText(/^RPM: \d+$/).waitFor();
    await page.getByText(/^TPM: \d+$/).waitFor();
    await poll(() => rows(page).count()).toBe(2);
    const loggerRow = rows(page).filter({ hasText: 'logger' });
    await loggerRow.getByText(`渠道：${badId} → ${goodId}`).waitFor();
    await loggerRow.getByText(String(goodId), { exact: true }).waitFor();
    await loggerRow.getByText('消费').waitFor();
    await loggerRow.getByText('模型倍率', { exact: false }).waitFor();
    for (const header of ['渠道', '用户', '重试', '用时/首字', '花费']) {
      await page.getByRole('columnheader', { name: header, exact: true }).waitFor();
    }

    await page.getByLabel('用户名称').fill('logger');
    await page.getByRole('button', { name: '查询' }).click();
    await poll(() => rows(page).count()).toBe(1);
    await poll(() => rows(page).first().textContent()).toContain('logger');

    await page.getByLabel('模型名称').fill('no-such-model');
    await page.getByRole('button', { name: '查询' }).click();
    await poll(() => rows(page).count()).toBe(0);
    await page.getByLabel('模型名称').fill('');
    await page.getByLabel('用户名称').fill('');
    await page.getByRole('button', { name: '查询' }).click();
    await poll(() => rows(page).count()).toBe(2);

    // The type dropdown: top-ups only hides both consume rows.
    await page.getByLabel('日志类型').click();
    await choose(page, '充值');
    await poll(() => rows(page).count()).toBe(0);
    await page.getByLabel('日志类型').click();
    await choose(page, '消费');
    await poll(() => rows(page).count()).toBe(2);

    await rows(page).filter({ hasText: 'logger' }).getByText('logger', { exact: true }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: '用户信息' });
    await dialog.waitFor();
    await dialog.getByText('logger', { exact: true }).waitFor();
    await dialog.getByText('请求次数').waitFor();
    await close();
  });

  it('shows a user only their own consume row, without channel or retry chain', async () => {
    const { page, close } = await signedIn('logger', 'password123');
    await page.goto('/log');
    await poll(() => rows(page).count()).toBe(1);
    const row = rows(page).first();
    await row.getByText('logger-key').waitFor();
    await row.getByText('消费').waitFor();
    await page.getByText(/^RPM: \d+$/).waitFor();
    expect(await page.getByText(/渠道：/).count()).toBe(0);
    expect(await row.getByText(String(badId), { exact: true }).count()).toBe(0);
    for (const header of ['渠道', '用户', '重试']) {
      expect(await page.getByRole('columnheader', { name: header, exact: true }).count()).toBe(0);
    }
    expect(await page.getByLabel('用户名称').count()).toBe(0);
    expect(await page.getByLabel('渠道 ID').count()).toBe(0);
    // The page size chosen here is remembered under page-size.
    await page.locator('.ant-pagination-options').getByRole('combobox').click();
    await choose(page, '20 条/页');
    await poll(() => page.evaluate(() => localStorage.getItem('page-size'))).toBe('20');
    await close();
  });

  it('clears old logs from the operation settings', async () => {
    const root = await apiAs(env.server().baseUrl, 'root', '123456');
    const before = ((await root('GET', '/api/log/')).data as { total: number }).total;
    const { page, close } = await signedIn('root', '123456');
    await page.goto('/setting?tab=operation');
    // The innermost card titled 日志设置 (the settings page itself is a card too).
    const card = page.locator('.ant-card').filter({ hasText: '日志设置' }).last();
    await card.waitFor();
    const picker = card.getByLabel('日志记录时间');
    // Without a time the card asks for one.
    await card.locator('.ant-picker-clear').click({ force: true });
    await card.getByRole('button', { name: '清除历史日志' }).click();
    await page.getByText('请选择日志记录时间').first().waitFor();
    // A time ahead of every log clears them all.
    await picker.click();
    await picker.fill('2099-01-01 00:00:00');
    await picker.press('Enter');
    await card.getByRole('button', { name: '清除历史日志' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: '清除', exact: true }).click();
    await page.getByText(`${before} 条日志已清理！`).first().waitFor();
    expect(((await root('GET', '/api/log/')).data as { total: number }).total).toBe(0);
    await close();
  });

  it('sets how long logs and dashboard data are kept', async () => {
    const root = await apiAs(env.server().baseUrl, 'root', '123456');
    const { page, close } = await signedIn('root', '123456');
    await page.goto('/setting?tab=operation');
    const card = page.locator('.ant-card').filter({ hasText: '日志设置' }).last();
    await optionsLoaded(card.getByRole('button', { name: '保存日志保留设置' }));
    await card.getByLabel('日志保留天数').fill('90');
    await card.getByLabel('数据看板保留天数').fill('400');
    await card.getByRole('button', { name: '保存日志保留设置' }).click();
    await page.getByText('保存成功').first().waitFor();
    const stored = async () => {
      const options = (await root('GET', '/api/option/')).data as Array<{ key: string; value: string }>;
      return Object.fromEntries(options.filter((o) => o.key.endsWith('RetentionDays') && !o.key.startsWith('Responses')).map((o) => [o.key, o.value]));
    };
    await poll(stored).toEqual({ LogRetentionDays: '90', QuotaDataRetentionDays: '400' });
    // The saved values are what the card shows next time.
    await page.reload();
    await expect.poll(() => card.getByLabel('日志保留天数').inputValue()).toBe('90');
    await close();
  });
});
