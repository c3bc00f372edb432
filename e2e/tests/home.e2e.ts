import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acceptSanitizedHandlerReports, newPage } from '../support/browser.js';
import { apiAs, useServerAndBrowser } from '../support/fixture.js';

const portalDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-portal-'));
fs.writeFileSync(
  path.join(portalDir, 'index.html'),
  '<!doctype html><meta charset="utf-8"><h1>门户首页</h1><p id="ran">脚本未运行</p>' +
    '<script>document.getElementById("ran").textContent = "门户脚本已运行";</script>',
);

describe('the root page with a portal folder', () => {
  const env = useServerAndBrowser({ PORTAL_DIR: portalDir });
  afterAll(() => fs.rmSync(portalDir, { recursive: true, force: true }));

  it('shows the portal page, its own scripts running, over the home page content', async () => {
    const api = await apiAs(env.server().baseUrl, 'root', '123456');
    await api('PUT', '/api/option/', { key: 'HomePageContent', value: '# 不应显示' });
    const { page, context } = await newPage(env.browser(), env.server().baseUrl);
    await page.goto('/');
    const portal = page.frameLocator('iframe');
    await portal.getByRole('heading', { name: '门户首页' }).waitFor();
    await portal.getByText('门户脚本已运行').waitFor();
    expect(await page.getByText('不应显示').count()).toBe(0);
    // No console chrome around it.
    expect(await page.getByRole('complementary', { name: '侧边栏' }).count()).toBe(0);
    await context.close();
  });
});

describe('the root page without a portal', () => {
  const env = useServerAndBrowser();
  const setHome = async (value: string) => {
    const api = await apiAs(env.server().baseUrl, 'root', '123456');
    const res = await api('PUT', '/api/option/', { key: 'HomePageContent', value });
    expect(res.success, res.message).toBe(true);
  };

  it('shows the built-in welcome when no home page content is set', async () => {
    await setHome('');
    const { page, context } = await newPage(env.browser(), env.server().baseUrl);
    await page.goto('/');
    await page.getByRole('heading', { name: '一个入口，连接所有大模型' }).waitFor();
    expect(await page.locator('iframe').count()).toBe(0);
    await page.getByRole('button', { name: '进入控制台' }).click();
    // The console is private: a signed-out visitor lands on the login form.
    await page.waitForURL(/\/login/);
    await context.close();
  });

  it('renders Markdown home page content, sanitized', async () => {
    await setHome(
      '# 欢迎来到本站\n\n**充值**请联系管理员。\n\n' +
        '<img src="/nope.png" onerror="window.__homeXss = 1"><script>window.__homeXss = 2</script>',
    );
    const { page, context } = await newPage(env.browser(), env.server().baseUrl);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto('/');
    await page.getByRole('heading', { name: '欢迎来到本站' }).waitFor();
    await expect.poll(() => page.locator('strong', { hasText: '充值' }).count()).toBe(1);
    // The broken image has failed to load (its error event, had a handler survived, has run).
    await expect
      .poll(() => page.locator('.markdown-content img').evaluateAll((imgs) => imgs.every((img) => (img as HTMLImageElement).complete)))
      .toBe(true);
    expect(await page.evaluate(() => (window as unknown as { __homeXss?: number }).__homeXss)).toBeUndefined();
    expect(await page.locator('.markdown-content script').count()).toBe(0);
    expect(await page.locator('.markdown-content img[onerror]').count()).toBe(0);
    acceptSanitizedHandlerReports();
    // The way into the console stays open.
    await page.getByRole('button', { name: '登录' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows an https:// address as a full-window frame', async () => {
    await setHome('https://home.example.com/landing');
    const { page, context } = await newPage(env.browser(), env.server().baseUrl);
    // No network here: answer the frame's request locally.
    await page.route('https://home.example.com/**', (route) =>
      route.fulfill({ contentType: 'text/html; charset=utf-8', body: '<h1>外部首页</h1>' }),
    );
    await page.goto('/');
    const frame = page.locator('iframe[src="https://home.example.com/landing"]');
    await frame.waitFor();
    await page.frameLocator('iframe').getByRole('heading', { name: '外部首页' }).waitFor();
    const box = await frame.boundingBox();
    expect(box).toMatchObject({ x: 0, y: 0, width: 1280, height: 800 });
    await context.close();
  });
});
