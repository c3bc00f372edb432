import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBrowser, loginAs, newPage } from '../support/browser.js';
import { apiAs } from '../support/fixture.js';
import { startServer, type RunningServer } from '../support/server.js';

/*
 * The data dashboard, fed the way production feeds it: real calls through the relay to a local OpenAI-shaped
 * upstream, counted in the server's memory, written to quota_data when the server shuts down gracefully (SIGTERM),
 * and read by a second server on the same database file.
 */

const UPSTREAM_KEY = 'sk-upstream-detail';
/** Calls per model; the models are in the built-in ratio table, so every call costs something. */
const CALLS: Record<string, number> = { 'gpt-4o': 3, 'claude-3-5-sonnet-20241022': 2, 'gpt-4o-mini': 1 };
const TOTAL_CALLS = Object.values(CALLS).reduce((a, b) => a + b, 0);
const USAGE = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 };
/** gpt-4o's calls are served 8 of their 11 prompt tokens from OpenAI's cache; the other models' none. */
const CACHED = { model: 'gpt-4o', tokens: 8 };

/** Answers chat completions the way OpenAI does, with usage. */
function startUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.headers.authorization !== `Bearer ${UPSTREAM_KEY}`) {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'bad key', type: 'invalid_request_error', code: 'invalid_api_key' } }));
        return;
      }
      const { model } = JSON.parse(body) as { model: string };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-detail',
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
          usage: model === CACHED.model ? { ...USAGE, prompt_tokens_details: { cached_tokens: CACHED.tokens } } : USAGE,
        }),
      );
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

describe('the data dashboard', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-detail-'));
  const env = { SQLITE_PATH: path.join(dir, 'detail.db') };
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [upstream, browser] = await Promise.all([startUpstream(), connectBrowser()]);
    const first = await startServer(env);
    const root = await apiAs(first.baseUrl, 'root', '123456');
    const channel = await root('POST', '/api/channel/', {
      name: 'upstream',
      type: 1,
      key: UPSTREAM_KEY,
      base_url: upstream.url,
      group: 'default',
      models: Object.keys(CALLS).join(','),
    });
    expect(channel.success).toBe(true);
    const token = await root('POST', '/api/token/', { name: 'dash', remain_quota: 0, unlimited_quota: true, expired_time: -1 });
    expect(token.success).toBe(true);
    const key = (token.data as { key: string }).key;
    for (const [model, n] of Object.entries(CALLS)) {
      for (let i = 0; i < n; i++) {
        const res = await fetch(`${first.baseUrl}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
        });
        expect(res.status).toBe(200);
      }
    }
    // Nothing is in quota_data yet (the flush interval is minutes): the graceful shutdown writes it.
    await first.stop();
    server = await startServer(env);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await upstream?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function openDashboard(): Promise<Page> {
    const { page } = await newPage(browser, server.baseUrl);
    await loginAs(page, 'root', '123456');
    await page.waitForURL(/\/token/);
    await page.getByRole('button', { name: '我知道了' }).click();
    await page.getByRole('menuitem', { name: '数据看板' }).click();
    await page.waitForURL(/\/detail/);
    return page;
  }

  /** The chart's canvas is drawn, and ECharts' description of it (aria-label) names every model. */
  async function expectChart(page: Page, title: string): Promise<void> {
    const chart = page.locator(`[data-chart="${title}"]`);
    await chart.locator('canvas').first().waitFor();
    const box = await chart.locator('canvas').first().boundingBox();
    expect(box!.width).toBeGreaterThan(100);
    expect(box!.height).toBeGreaterThan(100);
    await expect.poll(() => chart.getAttribute('aria-label')).toContain('gpt-4o');
    const description = (await chart.getAttribute('aria-label')) ?? '';
    for (const model of Object.keys(CALLS)) expect(description).toContain(model);
  }

  it('draws the quota, call and share charts with the totals of the calls the relay counted', async () => {
    const page = await openDashboard();
    await page.getByText('模型消耗分布').waitFor();
    await page.getByText('模型调用次数排行').waitFor();
    await page.getByText('模型调用次数占比').waitFor();
    await expectChart(page, '模型消耗分布');
    await expectChart(page, '模型调用次数排行');
    await expectChart(page, '模型调用次数占比');

    const statistic = (title: string) => page.locator('.ant-statistic').filter({ hasText: title }).locator('.ant-statistic-content');
    await expect.poll(() => statistic('统计次数').textContent()).toBe(String(TOTAL_CALLS));
    expect(await statistic('统计Tokens').textContent()).toBe(String(TOTAL_CALLS * USAGE.total_tokens));
    // The page's quota total is the consume logs' total.
    const api = await apiAs(server.baseUrl, 'root', '123456');
    const stat = (await api('GET', '/api/log/stat?type=2')).data as { quota: number };
    expect(stat.quota).toBeGreaterThan(0);
    const data = (await api('GET', '/api/data/')).data as Array<{ quota: number; count: number }>;
    expect(data.reduce((s, r) => s + r.quota, 0)).toBe(stat.quota);
    expect(data.reduce((s, r) => s + r.count, 0)).toBe(TOTAL_CALLS);

    // The cache hit rate: cache reads over prompt tokens, in all and per model.
    const cachedCalls = CALLS[CACHED.model];
    const percent = (part: number, whole: number) => `${((part / whole) * 100).toFixed(1)}%`;
    expect(await statistic('缓存命中率').textContent()).toBe(percent(cachedCalls * CACHED.tokens, TOTAL_CALLS * USAGE.prompt_tokens));
    const rateOf = (model: string) => page.getByRole('row').filter({ has: page.getByRole('cell', { name: model, exact: true }) }).getByRole('cell').last();
    expect(await rateOf(CACHED.model).textContent()).toBe(percent(CACHED.tokens, USAGE.prompt_tokens));
    expect(await rateOf('gpt-4o-mini').textContent()).toBe('0.0%');

    // A coarser granularity redraws from the same rows.
    await page.getByLabel('时间粒度').click();
    await page.getByTitle('天', { exact: true }).click();
    await expectChart(page, '模型消耗分布');
    expect(await statistic('统计次数').textContent()).toBe(String(TOTAL_CALLS));
    await page.context().close();
  });

  it('shows the cache hit rate of the calls the log page selects: all of them, then one model', async () => {
    const page = await openDashboard();
    await page.goto('/log');
    const rate = page.locator('.ant-tag').filter({ hasText: '缓存命中率' });
    const cachedCalls = CALLS[CACHED.model];
    await expect.poll(() => rate.textContent()).toBe(`缓存命中率: ${((cachedCalls * CACHED.tokens * 100) / (TOTAL_CALLS * USAGE.prompt_tokens)).toFixed(1)}%`);
    await page.getByLabel('模型名称').fill(CACHED.model);
    await page.getByRole('button', { name: '查询' }).click();
    await expect.poll(() => rate.textContent()).toBe(`缓存命中率: ${((CACHED.tokens * 100) / USAGE.prompt_tokens).toFixed(1)}%`);
    await page.context().close();
  });

  it('shows an ordinary user only their own usage', async () => {
    const root = await apiAs(server.baseUrl, 'root', '123456');
    expect((await root('POST', '/api/user/', { username: 'viewer', password: 'viewerpass1', display_name: '' })).success).toBe(true);
    const { page } = await newPage(browser, server.baseUrl);
    await loginAs(page, 'viewer', 'viewerpass1');
    await page.waitForURL(/\/token/);
    await page.goto('/detail');
    await page.getByText('模型消耗分布').waitFor();
    // The three charts and the cache hit rate table.
    await expect.poll(() => page.locator('.ant-empty-description').filter({ hasText: '暂无数据' }).count()).toBe(4);
    expect(await page.locator('[data-chart] canvas').count()).toBe(0);
    await expect(page.getByLabel('用户名称').count()).resolves.toBe(0);
    await page.context().close();
  });
});
