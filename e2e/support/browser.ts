import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';

/** Debian's chromium; CHROMIUM_PATH overrides. */
export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean) as string[];
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found) throw new Error('chromium not found: install Debian chromium (apt-get install chromium) or set CHROMIUM_PATH');
  return found;
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** The run's shared chromium (support/shared-browser.ts); close() only lets go of the connection. */
export async function connectBrowser(): Promise<Browser> {
  return chromium.connect(inject('chromiumEndpoint'));
}

export interface PageSession {
  context: BrowserContext;
  page: Page;
}

/** What the console's Content-Security-Policy blocked since the last look, one line each (frame, directive, what). */
const cspViolations: string[] = [];

/** The violations recorded so far, forgotten as they are handed over. */
export function takeCspViolations(): string[] {
  return cspViolations.splice(0);
}

/**
 * For a test that feeds the sanitizer HTML with an event handler on purpose: Chromium reports the handler to the
 * policy as the sanitizer parses it (in an inert document, where it could never run). Those reports are dropped;
 * any other stays for the end-of-test check.
 */
export function acceptSanitizedHandlerReports(): void {
  const others = takeCspViolations().filter((v) => !v.includes('script-src-attr blocked inline'));
  cspViolations.push(...others);
}

/** Records every `securitypolicyviolation` of every page and frame the context opens. */
async function recordCspViolations(context: BrowserContext): Promise<void> {
  await context.exposeBinding('__recordCspViolation', ({ frame }, text: string) => {
    cspViolations.push(`${frame.url()}: ${text}`);
  });
  await context.addInitScript(() => {
    document.addEventListener(
      'securitypolicyviolation',
      (e) => {
        const record = (window as unknown as { __recordCspViolation(text: string): void }).__recordCspViolation;
        record(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile || '?'}:${e.lineNumber}`);
      },
      true,
    );
  });
}

/**
 * Every keyframe animation left on the console's pages (with motion shown: antd's popups, drawers, modals and
 * messages opening and closing) runs for a millisecond: what a test waits for appears at once instead of after frames that are CPU-bound on a loaded
 * machine, and the end events antd waits on still fire (a zero-length animation sends none). Infinite ones (spinners)
 * stop after one turn. Transitions are left alone: forcing a duration on every element would make every property
 * change of every element a transition (transition-property defaults to all), and a popup measured while its left
 * and top slide is placed off screen. The product is unchanged; only the test browser gets this style.
 */
const INSTANT_MOTION = `*, *::before, *::after {
  animation-duration: 1ms !important; animation-delay: 0s !important; animation-iteration-count: 1 !important;
}`;

async function makeMotionInstant(context: BrowserContext): Promise<void> {
  await context.addInitScript((css: string) => {
    const install = (): boolean => {
      if (!document.documentElement) return false;
      const style = document.createElement('style');
      style.textContent = css;
      document.documentElement.append(style);
      return true;
    };
    if (!install()) {
      const waiting = new MutationObserver(() => {
        if (install()) waiting.disconnect();
      });
      waiting.observe(document, { childList: true });
    }
  }, INSTANT_MOTION);
}

/** How long one action or wait of a page may take (Playwright's own default is 30 s). */
const ACTION_TIMEOUT_MS = 20_000;

/**
 * How the console moves in a test browser. `reduced`: the browser asks for reduced motion (as a reader can in their
 * system settings), which the console honours by switching antd's motion off, so a popup, dialog or drawer opens and
 * closes at once and nothing waits on an animation's end event: with motion on, an end event a loaded machine delivers
 * before the component listens for it leaves a closed dialog on screen, catching every click. `shown`: the motion
 * path, run instantly (INSTANT_MOTION); the shell suite keeps it covered.
 */
export type Motion = 'reduced' | 'shown';

/** A fresh browser profile (empty storage and cookies) with clipboard access granted; a Chinese browser unless told. */
export async function newPage(
  browser: Browser,
  baseURL: string,
  viewport = { width: 1280, height: 800 },
  locale = 'zh-CN',
  motion: Motion = 'reduced',
): Promise<PageSession> {
  const context = await browser.newContext({ baseURL, viewport, locale, reducedMotion: motion === 'reduced' ? 'reduce' : 'no-preference' });
  // Under a test's 60 s: a step that never comes fails naming its locator, not as the test's timeout with no step named.
  context.setDefaultTimeout(ACTION_TIMEOUT_MS);
  await recordCspViolations(context);
  await makeMotionInstant(context);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  const page = await context.newPage();
  return { context, page };
}

/**
 * Runs `action` (a navigation or a click) and waits until the page holds the answer to its request for `path` and has
 * drawn what follows from it: the page applies an answer in tasks of its own (the body's parse, then React's commit
 * and effects), all done by the second frame after. For checking that something is not shown once the data that
 * would show it are in.
 */
export async function afterAnswer(page: Page, path: string, action: () => Promise<unknown>): Promise<void> {
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === path);
  await action();
  await (await answer).finished();
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

/**
 * Runs `action` (a click on a link of the console's own routes) until the page is at `url`, three times at most: on a
 * loaded machine a click on a menu that was still settling was taken by the menu and no route change followed (the
 * page waited the whole action timeout at the old address). Clicking a link to the route it is on again is harmless.
 */
export async function navigateBy(page: Page, url: RegExp, action: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await action();
    try {
      await page.waitForURL(url, { timeout: attempt < 3 ? 6000 : ACTION_TIMEOUT_MS });
      return;
    } catch (err) {
      if (attempt >= 3) throw err;
    }
  }
}

/** Signs in through the login form. */
export async function loginAs(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('用户名').fill(username);
  await page.getByLabel('密码').fill(password);
  await page.getByRole('button', { name: '登录', exact: true }).click();
}

/** A new page signed in as root (default password, its warning acknowledged), opened at `path`. */
export async function rootPageAt(browser: Browser, baseURL: string, path: string): Promise<PageSession> {
  const session = await newPage(browser, baseURL);
  await loginAs(session.page, 'root', '123456');
  await session.page.waitForURL(/\/token/);
  await session.page.getByRole('button', { name: '我知道了' }).click();
  await session.page.goto(path);
  return session;
}
