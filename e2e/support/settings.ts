import type { Browser, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { loginAs, newPage } from './browser.js';
import { apiAs, useServerAndBrowser } from './fixture.js';

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

/** Only these options, for comparing what a save wrote to several keys at once. */
export async function someOptionsOf(api: Api, ...keys: string[]): Promise<Record<string, string>> {
  const all = await optionsOf(api);
  return Object.fromEntries(keys.map((key) => [key, all[key]]));
}

/** The card with this title in the settings tab on show (the settings page itself is a card too). */
export const card = (page: Page, title: string): Locator =>
  page
    .getByRole('tabpanel')
    .locator('.ant-card')
    .filter({ has: page.locator('.ant-card-head-title', { hasText: new RegExp(`^${title}$`) }) })
    .last();

/**
 * Waits until a settings card holds the stored options: its save button stays disabled until they arrive, and they
 * overwrite whatever was typed before.
 */
export const optionsLoaded = (save: Locator) => expect.poll(() => save.isEnabled()).toBe(true);

/** Waits for a toast with this text. */
export const toast = (page: Page, text: string) => page.locator('.ant-message').getByText(text).first().waitFor();

/** GET /api/status's data, as anyone sees it. */
export async function statusOf(baseUrl: string): Promise<Record<string, unknown>> {
  return ((await (await fetch(`${baseUrl}/api/status`)).json()) as { data: Record<string, unknown> }).data;
}

/** Registers an ordinary user with the password password123 (and an invite code when given). */
export async function registerUser(baseUrl: string, username: string, affCode?: string): Promise<void> {
  const res = await fetch(`${baseUrl}/api/user/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'password123', password2: 'password123', aff_code: affCode }),
  });
  const body = (await res.json()) as { success: boolean; message: string };
  if (!body.success) throw new Error(`register ${username} failed: ${body.message}`);
}

/** One server and browser for a settings suite, with the calls every such suite makes as root. */
export function settingsSuite() {
  const env = useServerAndBrowser();
  const baseUrl = () => env.server().baseUrl;
  return {
    env,
    /** The console API as root. */
    root: () => apiAs(baseUrl(), 'root', '123456'),
    /** A browser page signed in as root. */
    asRoot: () => signedIn(env.browser(), baseUrl(), 'root', '123456'),
    status: () => statusOf(baseUrl()),
  };
}
