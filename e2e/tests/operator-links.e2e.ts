import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiAs, useServerAndBrowser } from '../support/fixture.js';
import { signedIn, toast } from '../support/settings.js';

/*
 * Addresses root sets become links, images and new tabs in the console's origin. A script address (in any of the
 * spellings a browser reads as javascript:) is never opened, framed or kept as a link.
 */

const SCRIPT = 'java\tscript:window.operatorScriptRan=true';

describe('addresses the administrator sets', () => {
  const env = useServerAndBrowser();
  const setOptions = async (values: Record<string, string>) => {
    const root = await apiAs(env.server().baseUrl, 'root', '123456');
    for (const [key, value] of Object.entries(values)) {
      const res = await root('PUT', '/api/option/', { key, value });
      expect(res.success, `${key}: ${res.message}`).toBe(true);
    }
  };
  const ran = (page: Page) =>
    page.evaluate(() => (window as unknown as { operatorScriptRan?: boolean }).operatorScriptRan);

  it('shows the built-in logo for a script address, in the top bar and the tab', async () => {
    await setOptions({ Logo: SCRIPT });
    try {
      const { page, close } = await signedIn(env.browser(), env.server().baseUrl, 'root', '123456');
      await expect.poll(() => page.getByRole('img', { name: '标志' }).getAttribute('src')).toBe('/logo.svg');
      expect(await page.locator('link[rel="icon"]').getAttribute('href')).toBe('/logo.svg');
      await close();
    } finally {
      await setOptions({ Logo: '' });
    }
  });

  it('refuses a script top-up link instead of opening it', async () => {
    await setOptions({ TopUpLink: SCRIPT });
    try {
      const { page, close } = await signedIn(env.browser(), env.server().baseUrl, 'root', '123456');
      await page.goto('/topup');
      let opened = 0;
      page.context().on('page', () => opened++);
      await page.getByRole('button', { name: '获取兑换码' }).click();
      await toast(page, '充值链接配置错误，请联系管理员');
      expect(opened).toBe(0);
      expect(await ran(page)).toBeUndefined();
      await close();
    } finally {
      await setOptions({ TopUpLink: '' });
    }
  });

  it('keeps the web and mail links of a notice and drops its script links', async () => {
    await setOptions({
      Notice:
        '[价格说明](https://docs.example.com/price) <a href="mailto:admin@example.com">写信</a> ' +
        '<a href="java&#9;script:window.operatorScriptRan=true">坏链接一</a> <a href="&#1;javascript:window.operatorScriptRan=true">坏链接二</a> ' +
        '<a href="https://shop.example.com/" target="_blank">商店</a>',
    });
    try {
      const { page, close } = await signedIn(env.browser(), env.server().baseUrl, 'root', '123456');
      const notice = page.getByRole('dialog', { name: '系统公告' });
      await notice.getByText('价格说明').waitFor();
      expect(await notice.getByText('价格说明').getAttribute('href')).toBe('https://docs.example.com/price');
      expect(await notice.getByText('写信').getAttribute('href')).toBe('mailto:admin@example.com');
      expect(await notice.getByText('坏链接一').getAttribute('href')).toBeNull();
      expect(await notice.getByText('坏链接二').getAttribute('href')).toBeNull();
      expect(await notice.getByText('商店').getAttribute('rel')).toBe('noopener noreferrer');
      await close();
    } finally {
      await setOptions({ Notice: '' });
    }
  });
});
