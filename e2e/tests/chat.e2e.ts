import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs, navigateBy, newPage } from '../support/browser.js';
import { apiAs, registerUser, useServerAndBrowser } from '../support/fixture.js';

const NO_TOKEN = '当前没有可用的启用令牌，请确认是否有令牌处于启用状态！';

/** A stand-in chat app: answers every path with a page and remembers the URLs it was asked for. */
function startChatApp(): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>chat app</title><h1>聊天应用</h1>');
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        requests,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}

/** Both the token row's chat button and the chat page refuse with this message, and no frame opens. */
async function expectChatRefused(page: Page, message: string): Promise<void> {
  const row = page.getByRole('row').filter({ hasText: 'chat-key' });
  await row.getByRole('button', { name: '聊天' }).click();
  await page.getByText(message).first().waitFor();
  await page.goto('/chat/0');
  await page.getByText(message).first().waitFor();
  expect(await page.locator('iframe').count()).toBe(0);
}

describe('chat links', () => {
  const env = useServerAndBrowser();
  let chatApp: Awaited<ReturnType<typeof startChatApp>>;
  let root: Awaited<ReturnType<typeof apiAs>>;
  let rootKey: string;

  const setOption = async (key: string, value: string) => {
    const res = await root('PUT', '/api/option/', { key, value });
    expect(res.success, `${key}: ${res.message}`).toBe(true);
  };
  const useTwoChats = () =>
    setOption(
      'Chats',
      JSON.stringify([
        { 本地聊天: `${chatApp.url}/first/?key={key}&url={address}` },
        { 第二个聊天: `${chatApp.url}/second/?api_key={key}&server={address}` },
      ]),
    );
  const encodedOrigin = () => encodeURIComponent(env.server().baseUrl);

  beforeAll(async () => {
    chatApp = await startChatApp();
    root = await apiAs(env.server().baseUrl, 'root', '123456');
    await root('POST', '/api/token/', { name: 'chat-key', remain_quota: 500000, expired_time: -1, unlimited_quota: true });
    const tokens = (await root('GET', '/api/token/?p=0&size=100')).data as Array<{ name: string; key: string }>;
    rootKey = tokens.find((t) => t.name === 'chat-key')!.key;
  });
  afterAll(async () => {
    await chatApp?.close();
  });

  async function rootPage(): Promise<{ page: Page; close(): Promise<void> }> {
    const { page, context } = await newPage(env.browser(), env.server().baseUrl);
    await loginAs(page, 'root', '123456');
    await page.waitForURL(/\/token/);
    await page.getByRole('button', { name: '我知道了' }).click();
    return { page, close: () => context.close() };
  }

  it('lists the chat targets in the sidebar and opens the chosen one in a frame with the token filled in', async () => {
    await useTwoChats();
    const { page, close } = await rootPage();
    const sidebar = page.getByRole('complementary', { name: '侧边栏' });
    const link = sidebar.getByRole('link', { name: '第二个聊天' });
    await navigateBy(page, /\/chat\/1$/, async () => {
      // The submenu opens on a click of its title; a later attempt finds it open already.
      if (!(await link.isVisible())) await sidebar.getByText('聊天', { exact: true }).click();
      await link.click();
    });
    const frame = page.locator('iframe[title="第二个聊天"]');
    await frame.waitFor();
    const expected = `${chatApp.url}/second/?api_key=sk-${rootKey}&server=${encodedOrigin()}`;
    expect(await frame.getAttribute('src')).toBe(expected);
    await page.frameLocator('iframe[title="第二个聊天"]').getByText('聊天应用').waitFor();
    expect(chatApp.requests).toContain(`/second/?api_key=sk-${rootKey}&server=${encodedOrigin()}`);
    // The frame fills the content area rather than a small box.
    const box = await frame.boundingBox();
    expect(box!.height).toBeGreaterThan(480);
    await close();
  });

  it('fills {address} with the configured server address when there is one', async () => {
    await useTwoChats();
    await setOption('ServerAddress', 'https://api.example.com/');
    try {
      const { page, close } = await rootPage();
      await page.goto('/chat/0');
      const frame = page.locator('iframe[title="本地聊天"]');
      await frame.waitFor();
      expect(await frame.getAttribute('src')).toBe(
        `${chatApp.url}/first/?key=sk-${rootKey}&url=${encodeURIComponent('https://api.example.com')}`,
      );
      await close();
    } finally {
      await setOption('ServerAddress', '');
    }
  });

  it('sends /chat2link straight to the first chat target with the token', async () => {
    await useTwoChats();
    const { page, close } = await rootPage();
    await page.goto('/chat2link');
    await page.waitForURL(`${chatApp.url}/first/?key=sk-${rootKey}&url=${encodedOrigin()}`);
    await page.getByText('聊天应用').waitFor();
    await close();
  });

  it('opens the chosen target of the token row chat dropdown in a new tab', async () => {
    await useTwoChats();
    const { page, close } = await rootPage();
    const row = page.getByRole('row').filter({ hasText: 'chat-key' });
    await row.getByRole('button', { name: '聊天' }).click();
    const popup = page.context().waitForEvent('page');
    await page.getByRole('menuitem', { name: '第二个聊天' }).click();
    const tab = await popup;
    await tab.waitForLoadState();
    expect(tab.url()).toBe(`${chatApp.url}/second/?api_key=sk-${rootKey}&server=${encodedOrigin()}`);
    await close();
  });

  it('uses the single chat link when the list is empty, with the Next Web settings added', async () => {
    await setOption('Chats', '[]');
    await setOption('ChatLink', `${chatApp.url}/next`);
    try {
      const { page, close } = await rootPage();
      const sidebar = page.getByRole('complementary', { name: '侧边栏' });
      await sidebar.getByRole('link', { name: '聊天', exact: true }).click();
      await page.waitForURL(/\/chat$/);
      const frame = page.locator('iframe');
      await frame.waitFor();
      expect(await frame.getAttribute('src')).toBe(
        `${chatApp.url}/next/#/?settings={"key":"sk-${rootKey}","url":"${encodedOrigin()}"}`,
      );
      await close();
    } finally {
      await setOption('ChatLink', '');
    }
  });

  it('asks for the administrator when no chat link is configured', async () => {
    await setOption('Chats', '[]');
    const { page, close } = await rootPage();
    await expectChatRefused(page, '请联系管理员配置聊天链接');
    await close();
  });

  it('says the chat configuration is wrong when the list is not a list of {name: URL}', async () => {
    await useTwoChats();
    const { page, close } = await rootPage();
    // A server that hands the list over as its raw (and broken) stored text.
    await page.route('**/api/status', async (route) => {
      const res = await route.fetch();
      const body = (await res.json()) as { data: Record<string, unknown> };
      body.data.chats = '[{"坏的": ';
      await route.fulfill({ response: res, json: body });
    });
    await page.goto('/token');
    await expectChatRefused(page, '聊天链接配置错误，请联系管理员');
    await close();
  });

  it('never runs a javascript: template set by root, however the scheme is spelled', async () => {
    const { page, close } = await rootPage();
    const ran = () => page.evaluate(() => (window as unknown as { chatScriptRan?: boolean }).chatScriptRan);
    // A tab, a newline or a leading control character inside the scheme: browsers read each as javascript:.
    for (const template of ['java\tscript:window.chatScriptRan=true//{key}', 'jav\nascript:window.chatScriptRan=true//{key}', '\u0001javascript:window.chatScriptRan=true//{key}']) {
      await setOption('Chats', JSON.stringify([{ 坏链接: template }]));
      await page.goto('/chat2link');
      await page.getByText('聊天链接配置错误，请联系管理员').first().waitFor();
      expect(await ran(), JSON.stringify(template)).toBeUndefined();
      expect(new URL(page.url()).pathname).toBe('/chat2link');
      await page.goto('/token');
      let opened = 0;
      const countTabs = () => opened++;
      page.context().on('page', countTabs);
      await page.getByRole('row').filter({ hasText: 'chat-key' }).getByRole('button', { name: '聊天' }).click();
      await page.getByRole('menuitem', { name: '坏链接' }).click();
      await page.getByText('聊天链接配置错误，请联系管理员').first().waitFor();
      page.context().off('page', countTabs);
      expect(opened).toBe(0);
      await page.goto('/chat/0');
      await page.getByText('聊天链接配置错误，请联系管理员').first().waitFor();
      expect(await page.locator('iframe').count()).toBe(0);
      expect(await ran(), JSON.stringify(template)).toBeUndefined();
    }
    await close();
  });

  it('tells a user without an enabled token so, then moves to /token after 1.5 s', async () => {
    await useTwoChats();
    await registerUser(env.server().baseUrl, 'nochat');
    const user = await apiAs(env.server().baseUrl, 'nochat', 'password123');
    await user('POST', '/api/token/', { name: 'off-key', remain_quota: 1000, expired_time: -1, unlimited_quota: false });
    const own = (await user('GET', '/api/token/?p=0&size=100')).data as Array<{ id: number }>;
    for (const token of own) await user('PUT', '/api/token/?status_only=true', { id: token.id, status: 2 });

    const { page, context } = await newPage(env.browser(), env.server().baseUrl);
    await loginAs(page, 'nochat', 'password123');
    await page.waitForURL(/\/token/);
    await page.goto('/chat/0');
    await page.getByText(NO_TOKEN).first().waitFor();
    const shownAt = Date.now();
    expect(new URL(page.url()).pathname).toBe('/chat/0');
    await page.waitForURL(/\/token$/);
    expect(Date.now() - shownAt).toBeGreaterThan(1000);
    expect(await page.locator('iframe').count()).toBe(0);

    // The same for the direct redirect.
    await page.goto('/chat2link');
    await page.getByText(NO_TOKEN).first().waitFor();
    await page.waitForURL(/\/token$/);
    expect(chatApp.requests.some((r) => r.includes('sk-') && !r.includes(rootKey))).toBe(false);
    await context.close();
  });
});
