import type { Browser, Locator, Page } from 'playwright-core';
import { loginAs, newPage } from './browser.js';
import type { apiAs } from './fixture.js';

export type Api = Awaited<ReturnType<typeof apiAs>>;

/** GET /api/option/ as a key → value map. */
export async function optionsOf(api: Api): Promise<Record<string, string>> {
  const list = (await api('GET', '/api/option/')).data as Array<{ key: string; value: string }>;
  return Object.fromEntries(list.map((o) => [o.key, o.value]));
}

/** A page signed in through the login form, on /token. */
export async function signedIn(browser: Browser, baseUrl: string, username: string, password: string): Promise<{ page: Page; close(): Promise<void> }> {
  const { page, context } = await newPage(browser, baseUrl);
  await loginAs(page, username, password);
  await page.waitForURL(/\/token/);
  return { page, close: () => context.close() };
}

/** The card with this title in the settings tab on show (the settings page itself is a card too). */
export const card = (page: Page, title: string): Locator =>
  page
    .getByRole('tabpanel')
    .locator('.ant-card')
    .filter({ has: page.locator('.ant-card-head-title', { hasText: new RegExp(`^${title}$`) }) })
    .last();

/** Waits for a toast with this text. */
export const toast = (page: Page, text: string) => page.locator('.ant-message').getByText(text).first().waitFor();
