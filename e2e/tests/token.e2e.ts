import { describe, expect, it } from 'vitest';
import { loginAs, newPage } from '../support/browser.js';
import { apiAs, useServerAndBrowser } from '../support/fixture.js';

describe('the token page', () => {
  const env = useServerAndBrowser();

  async function signedIn() {
    const session = await newPage(env.browser(), env.server().baseUrl);
    await loginAs(session.page, 'root', '123456');
    await session.page.waitForURL(/\/token/);
    // The default-password warning opens after login; acknowledge it.
    await session.page.getByRole('button', { name: '我知道了' }).click();
    return session;
  }

  it('creates a token in the drawer, lists it, and copies its sk- key', async () => {
    const { page, context } = await signedIn();
    await page.getByRole('button', { name: '添加令牌' }).click();
    const drawer = page.getByRole('dialog', { name: '创建新的令牌' });
    await drawer.getByLabel('名称', { exact: true }).fill('e2e-key');
    await drawer.getByRole('button', { name: '提交' }).click();
    const row = page.getByRole('row').filter({ hasText: 'e2e-key' });
    await row.waitFor();
    await row.getByText('已启用').waitFor();
    await row.getByText('永不过期').waitFor();

    await row.getByRole('button', { name: '复制' }).click();
    await page.getByText('已复制到剪贴板！').first().waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(/^sk-[A-Za-z0-9]{48}$/);

    // The copied key is the one the server holds for this token.
    const api = await apiAs(env.server().baseUrl, 'root', '123456');
    const list = (await api('GET', '/api/token/?p=0&size=10')).data as Array<{ name: string; key: string }>;
    expect(`sk-${list.find((t) => t.name === 'e2e-key')!.key}`).toBe(copied);
    await context.close();
  });

  it('disables and enables a token from its row', async () => {
    const api = await apiAs(env.server().baseUrl, 'root', '123456');
    await api('POST', '/api/token/', { name: 'toggle-me', remain_quota: 1000, expired_time: -1, unlimited_quota: false });
    const { page, context } = await signedIn();
    const row = page.getByRole('row').filter({ hasText: 'toggle-me' });
    await row.getByRole('button', { name: '禁用' }).click();
    await row.getByText('已禁用').waitFor();
    await row.getByRole('button', { name: '启用' }).click();
    await row.getByText('已启用').waitFor();
    await context.close();
  });
});
