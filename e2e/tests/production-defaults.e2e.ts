import { describe, it } from 'vitest';
import { newPage, rootPageAt } from '../support/browser.js';
import { useServerAndBrowser } from '../support/fixture.js';

/*
 * This suite runs every production default, with no test overrides: the per-address limits on (the web limit at
 * 60 requests per 180 s) and one worker per core. Everything in it comes from one address, as an office behind one
 * NAT does.
 */

describe('the console with every production default', () => {
  const env = useServerAndBrowser({}, { productionDefaults: true });

  it('shows the sign-in form on five fresh browser loads in a row from one address, and after a reload', async () => {
    for (let load = 1; load <= 5; load++) {
      // A fresh profile each time: nothing cached, as a colleague's browser or a second machine behind the NAT.
      const { page, context } = await newPage(env.browser(), env.server().baseUrl);
      const answer = await page.goto('/login');
      if (answer?.status() !== 200) throw new Error(`load ${load}: the page answered ${answer?.status()}`);
      await page.getByLabel('用户名').waitFor({ timeout: 15_000 }).catch((err: Error) => {
        throw new Error(`load ${load}: no sign-in form (${err.message})`);
      });
      if (load === 5) {
        await page.reload();
        await page.getByLabel('用户名').waitFor({ timeout: 15_000 });
      }
      await context.close();
    }
  });

  it('keeps a signed-in session across the workers through page loads of every area', async () => {
    const { page, context } = await rootPageAt(env.browser(), env.server().baseUrl, '/token');
    for (const path of ['/token', '/log', '/channel', '/redemption', '/user', '/setting', '/topup', '/token']) {
      const answer = await page.goto(path);
      if (answer?.status() !== 200) throw new Error(`${path}: the page answered ${answer?.status()}`);
      await page.getByRole('menuitem', { name: '令牌' }).waitFor({ timeout: 15_000 });
      if (new URL(page.url()).pathname !== path) throw new Error(`${path}: landed on ${page.url()}`);
    }
    await context.close();
  });
});
