import { expect, describe, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage } from '../support/browser.js';
import { useServerAndBrowser } from '../support/fixture.js';

const DESKTOP = { width: 1280, height: 800 };
const HAN = /[\u3400-\u9fff]/;

/** Headings, tabs, buttons and table headers on screen that still hold Chinese. */
async function chineseInChrome(page: Page): Promise<string[]> {
  const selector = 'h1, h2, h3, h4, h5, button, [role="tab"], th, .ant-card-head-title, .ant-form-item-label';
  const texts = await page.locator(selector).evaluateAll((els) =>
    els.filter((el) => (el as HTMLElement).offsetParent !== null).map((el) => (el as HTMLElement).innerText.trim()),
  );
  return texts.filter((text) => HAN.test(text));
}

/** Picks `to` in the top bar's language menu and waits for the bar to speak it. */
async function switchLanguage(page: Page, current: '切换语言' | 'Language', to: '简体中文' | 'English'): Promise<void> {
  await page.getByRole('button', { name: current, exact: true }).click();
  await page.getByRole('menuitem', { name: to }).click();
  await page.getByRole('button', { name: to === 'English' ? 'Language' : '切换语言', exact: true }).waitFor();
}

async function signInAsRoot(page: Page): Promise<void> {
  await page.getByLabel('Username', { exact: true }).fill('root');
  await page.getByLabel('Password', { exact: true }).fill('123456');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/token/);
  await page.getByRole('dialog', { name: 'You are using the default password!' }).waitFor();
  await page.getByRole('button', { name: 'Got it' }).click();
}

describe('the English console', () => {
  const env = useServerAndBrowser();

  it('switches to English from the top bar, on the login, token and settings pages, and keeps it across a reload', async () => {
    const { page, context } = await newPage(env.browser(), env.server().baseUrl);
    await page.goto('/login');
    await page.getByRole('button', { name: '登录', exact: true }).waitFor();
    expect(await chineseInChrome(page)).not.toEqual([]);

    await switchLanguage(page, '切换语言', 'English');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(await chineseInChrome(page)).toEqual([]);

    await signInAsRoot(page);
    await page.getByRole('button', { name: 'Add token' }).waitFor();
    await page.getByRole('columnheader', { name: 'Remaining quota' }).waitFor();
    // antd's own texts follow too: the empty table of a fresh root account.
    await page.getByText('No data').filter({ visible: true }).first().waitFor();
    expect(await chineseInChrome(page)).toEqual([]);

    await page.goto('/setting');
    await page.getByRole('tab', { name: 'Personal' }).waitFor();
    await page.getByRole('tab', { name: 'Operation' }).click();
    await page.getByRole('button', { name: 'Save general settings' }).waitFor();
    expect(await chineseInChrome(page)).toEqual([]);

    await page.reload();
    await page.getByRole('tab', { name: 'Operation' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('en');

    await switchLanguage(page, 'Language', '简体中文');
    await page.getByRole('tab', { name: '运营设置' }).waitFor();
    await page.reload();
    await page.getByRole('tab', { name: '运营设置' }).waitFor();
    await context.close();
  });

  it('starts in English in a browser that prefers English', async () => {
    const { page, context } = await newPage(env.browser(), env.server().baseUrl, DESKTOP, 'en-US');
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('Please enter username and password!').first().waitFor();
    expect(await chineseInChrome(page)).toEqual([]);
    await context.close();
  });

  it('starts in Chinese in a Chinese browser', async () => {
    const { page, context } = await newPage(env.browser(), env.server().baseUrl);
    await page.goto('/login');
    await page.getByRole('heading', { name: '用户登录' }).waitFor();
    await context.close();
  });
});
