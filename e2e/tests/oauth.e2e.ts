import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAnswer, loginAs, newPage } from '../support/browser.js';
import { apiAs, registerUser, useServerAndBrowser } from '../support/fixture.js';
import { startFakeGitHub, type FakeGitHub } from '../../server/src/test/mocks/github.js';
import { startFakeWeChat, type FakeWeChat } from '../../server/src/test/mocks/wechat.js';
import { telegramHash } from '../../server/src/auth/oauth/telegram.js';

const GITHUB_APP = { clientId: 'Iv1.e2e-client', clientSecret: 'e2e-client-secret' };
const WECHAT_TOKEN = 'e2e-wechat-token';
const BOT_TOKEN = '8000001:e2e-bot-token';
const BOT_NAME = 'switchyard_e2e_bot';

/**
 * Telegram's widget script, as the browser cannot reach telegram.org here: it reads the attributes the console gave
 * its script tag and, on click, hands the page's callback what Telegram would — fields signed with the bot's token.
 */
function fakeTelegramWidget(fields: Record<string, string>): string {
  const user = { ...fields, id: Number(fields.id), auth_date: Number(fields.auth_date), hash: telegramHash(fields, BOT_TOKEN) };
  return `(function () {
  var script = document.currentScript;
  var button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'Log in with Telegram @' + script.dataset.telegramLogin;
  button.onclick = function () { new Function('user', script.dataset.onauth)(${JSON.stringify(user)}); };
  script.parentNode.insertBefore(button, script.nextSibling);
})();`;
}

describe('sign-in with GitHub, WeChat and Telegram', () => {
  let github: FakeGitHub;
  let wechat: FakeWeChat;
  const serverEnv: Record<string, string> = {};
  beforeAll(async () => {
    github = await startFakeGitHub(GITHUB_APP, { id: 31337, login: 'e2e-octocat', name: 'E2E Octocat', email: null });
    wechat = await startFakeWeChat(WECHAT_TOKEN);
    serverEnv.GITHUB_OAUTH_URL = github.url;
    serverEnv.GITHUB_API_URL = github.url;
  });
  const env = useServerAndBrowser(serverEnv);
  beforeAll(() => {
    github.callbackUrl = `${env.server().baseUrl}/oauth/github`;
  });
  afterAll(async () => {
    await github?.close();
    await wechat?.close();
  });

  const root = () => apiAs(env.server().baseUrl, 'root', '123456');
  let users = 0;

  async function setOptions(values: Array<[string, string]>) {
    const api = await root();
    for (const [key, value] of values) expect(await api('PUT', '/api/option/', { key, value }), key).toMatchObject({ success: true });
  }
  const enableGitHub = () =>
    setOptions([
      ['GitHubClientId', GITHUB_APP.clientId],
      ['GitHubClientSecret', GITHUB_APP.clientSecret],
      ['GitHubOAuthEnabled', 'true'],
    ]);
  const enableWeChat = () =>
    setOptions([
      ['WeChatServerAddress', wechat.url],
      ['WeChatServerToken', WECHAT_TOKEN],
      ['WeChatAccountQRCodeImageURL', '/logo.svg'],
      ['WeChatAuthEnabled', 'true'],
    ]);
  const enableTelegram = () =>
    setOptions([
      ['TelegramBotToken', BOT_TOKEN],
      ['TelegramBotName', BOT_NAME],
      ['TelegramOAuthEnabled', 'true'],
    ]);

  /** A fresh browser whose Telegram widget signs in as this Telegram account. */
  async function browserAs(telegramId: number): Promise<{ page: Page; context: BrowserContext }> {
    const session = await newPage(env.browser(), env.server().baseUrl);
    await session.context.route(/telegram\.org\/js\/telegram-widget\.js/, (route) =>
      route.fulfill({
        contentType: 'application/javascript',
        body: fakeTelegramWidget({ id: String(telegramId), first_name: 'Tele', username: `tg${telegramId}`, auth_date: String(Math.floor(Date.now() / 1000)) }),
      }),
    );
    return session;
  }

  /** A new account signed in on its personal settings. */
  async function newUserOnSettings(page: Page): Promise<string> {
    const username = `oauth${++users}`;
    await registerUser(env.server().baseUrl, username);
    await loginAs(page, username, 'password123');
    await page.waitForURL(/\/token/);
    await page.goto('/setting?tab=personal');
    return username;
  }

  const storedUser = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null') as { username: string } | null);
  const toast = (page: Page, text: string) => page.locator('.ant-message').getByText(text).first().waitFor();
  const binding = (page: Page, label: string) => page.getByRole('group', { name: label });

  it('shows on the login page exactly the sign-in methods that are switched on', async () => {
    const { page, context } = await browserAs(1);
    // The sign-in methods come with the status record: absent once it is in.
    await afterAnswer(page, '/api/status', () => page.goto('/login'));
    await page.getByRole('button', { name: '登录', exact: true }).waitFor();
    await expect(page.getByText('第三方登录').count()).resolves.toBe(0);

    await enableGitHub();
    await page.reload();
    await page.getByRole('button', { name: '使用 GitHub 登录' }).waitFor();
    await expect(page.getByRole('button', { name: '使用 微信 登录' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: `Log in with Telegram @${BOT_NAME}` }).count()).resolves.toBe(0);

    await enableWeChat();
    await enableTelegram();
    await page.reload();
    await page.getByRole('button', { name: '使用 微信 登录' }).waitFor();
    await page.getByRole('button', { name: `Log in with Telegram @${BOT_NAME}` }).waitFor();
    await page.getByRole('button', { name: '使用 GitHub 登录' }).waitFor();

    await setOptions([['GitHubOAuthEnabled', 'false']]);
    await page.reload();
    await page.getByRole('button', { name: '使用 微信 登录' }).waitFor();
    await expect(page.getByRole('button', { name: '使用 GitHub 登录' }).count()).resolves.toBe(0);
    await enableGitHub();
    await context.close();
  });

  it('binds GitHub through the authorize page, then signs in with it', async () => {
    await enableGitHub();
    const first = await browserAs(2);
    const username = await newUserOnSettings(first.page);
    await binding(first.page, 'GitHub').getByText('未绑定').waitFor();
    const [popup] = await Promise.all([first.context.waitForEvent('page'), binding(first.page, 'GitHub').getByRole('button', { name: '绑定 GitHub 账户' }).click()]);
    await popup.waitForURL(/\/setting\?tab=personal/);
    await toast(popup, '绑定成功！');
    await binding(popup, 'GitHub').getByText('31337').waitFor();
    await first.context.close();

    // A browser with nobody signed in: GitHub's button signs in to the bound account.
    const second = await browserAs(3);
    await second.page.goto('/login');
    const [login] = await Promise.all([second.context.waitForEvent('page'), second.page.getByRole('button', { name: '使用 GitHub 登录' }).click()]);
    await login.waitForURL(/\/token/);
    await toast(login, '登录成功！');
    expect((await storedUser(login))?.username).toBe(username);
    // The login page that opened the window follows it.
    await second.page.waitForURL(/\/token/);
    await second.context.close();
  });

  it('retries a failed GitHub callback after 2 s x the attempt, then goes to /setting', async () => {
    await enableGitHub();
    const { page, context } = await browserAs(7);
    // The page's own clock times each exchange (a fake one, moved on by runFor; it also flows with real time).
    await page.clock.install();
    await page.addInitScript(() => {
      const calls: { start: number; end?: number }[] = [];
      (window as unknown as { githubCalls: typeof calls }).githubCalls = calls;
      const original = window.fetch.bind(window);
      window.fetch = async (input, init) => {
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
        if (!url.includes('/api/oauth/github?')) return original(input, init);
        const call: { start: number; end?: number } = { start: Date.now() };
        calls.push(call);
        try {
          return await original(input, init);
        } finally {
          call.end = Date.now();
        }
      };
    });
    const calls = () => page.evaluate(() => (window as unknown as { githubCalls: { start: number; end?: number }[] }).githubCalls);
    await page.goto('/oauth/github?code=stale-code&state=not-this-browsers');
    const waits = [2000, 4000, 6000];
    for (const [i, ms] of waits.entries()) {
      // The prompt shows once the answer is in and the wait has begun.
      await page.getByText(`出现错误，第 ${i + 1} 次重试中...`).waitFor();
      await page.clock.runFor(ms);
      await expect.poll(async () => (await calls()).length).toBe(i + 2);
    }
    // No attempt left: to /setting, which sends a signed-out visitor on to the login page.
    await page.waitForURL(/\/login/);
    const made = await calls();
    expect(made).toHaveLength(4);
    for (const [i, ms] of waits.entries()) {
      // From one answer to the next try: the wait itself, plus the page's own work in between.
      const waited = made[i + 1].start - made[i].end!;
      expect(waited).toBeGreaterThanOrEqual(ms);
      expect(waited).toBeLessThan(ms + 1000);
    }
    await context.close();
  });

  it('binds WeChat with the code the official account gives, then signs in with one', async () => {
    await enableWeChat();
    const openId = 'oE2E-wechat-openid';
    const first = await browserAs(4);
    const username = await newUserOnSettings(first.page);
    await binding(first.page, 'GitHub').waitFor();
    await binding(first.page, '微信').getByRole('button', { name: '绑定微信账户' }).click();
    const bindDialog = first.page.getByRole('dialog');
    await bindDialog.getByText('三分钟内有效').waitFor();
    await bindDialog.getByLabel('验证码').fill(wechat.issueCode(openId));
    await bindDialog.getByRole('button', { name: '绑定' }).click();
    await toast(first.page, '微信账户绑定成功！');
    await binding(first.page, '微信').getByRole('button', { name: '已绑定' }).waitFor();
    await first.context.close();

    const second = await browserAs(5);
    await second.page.goto('/login');
    await second.page.getByRole('button', { name: '使用 微信 登录' }).click();
    const dialog = second.page.getByRole('dialog');
    await dialog.getByAltText('微信二维码').waitFor();
    await dialog.getByLabel('验证码').fill('111111');
    await dialog.getByRole('button', { name: '登录' }).click();
    await toast(second.page, '验证码错误或已过期');
    await dialog.getByLabel('验证码').fill(wechat.issueCode(openId));
    await dialog.getByRole('button', { name: '登录' }).click();
    await second.page.waitForURL((url) => url.pathname === '/');
    expect((await storedUser(second.page))?.username).toBe(username);
    await second.context.close();
  });

  it('lets the WeChat code dialog expire after three minutes', async () => {
    await enableWeChat();
    const { page, context } = await browserAs(6);
    await page.clock.install();
    await page.goto('/login');
    await page.getByRole('button', { name: '使用 微信 登录' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('剩余有效时间：3:00').waitFor();
    await page.clock.runFor('03:01');
    await dialog.getByText('验证码已过期').waitFor();
    await expect(dialog.getByLabel('验证码').count()).resolves.toBe(0);
    await dialog.getByRole('button', { name: '重新获取' }).click();
    await dialog.getByText('剩余有效时间：3:00').waitFor();
    await context.close();
  });

  it('binds Telegram through the widget, then signs in with it', async () => {
    await enableTelegram();
    const telegramId = 777000123;
    const first = await browserAs(telegramId);
    const username = await newUserOnSettings(first.page);
    await binding(first.page, 'Telegram').getByRole('button', { name: `Log in with Telegram @${BOT_NAME}` }).click();
    await toast(first.page, 'Telegram 账户绑定成功！');
    await binding(first.page, 'Telegram').getByText(String(telegramId)).waitFor();
    await first.context.close();

    const second = await browserAs(telegramId);
    await second.page.goto('/login');
    await second.page.getByRole('button', { name: `Log in with Telegram @${BOT_NAME}` }).click();
    await second.page.waitForURL((url) => url.pathname === '/');
    expect((await storedUser(second.page))?.username).toBe(username);
    await second.context.close();

    // An unbound Telegram account is not let in.
    const stranger = await browserAs(telegramId + 1);
    await stranger.page.goto('/login');
    await stranger.page.getByRole('button', { name: `Log in with Telegram @${BOT_NAME}` }).click();
    await toast(stranger.page, '该 Telegram 账户未绑定');
    expect(await storedUser(stranger.page)).toBeNull();
    await stranger.context.close();
  });
});
