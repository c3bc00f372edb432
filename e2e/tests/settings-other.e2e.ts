import { describe, expect, it } from 'vitest';
import { acceptSanitizedHandlerReports, afterAnswer } from '../support/browser.js';
import { card, optionsLoaded, optionsOf, registerUser, settingsSuite, signedIn, toast } from '../support/settings.js';

describe('the other settings tab', () => {
  const { env, root, asRoot } = settingsSuite();

  const register = (username: string) => registerUser(env.server().baseUrl, username);

  it('renames the system: the top bar and the page title change at once and after a reload', async () => {
    const api = await root();
    const { page, close } = await asRoot();
    await page.goto('/setting?tab=other');
    await expect.poll(() => page.title(), { timeout: 10_000 }).toBe('Switchyard');
    const site = card(page, '个性化设置');
    const name = site.getByLabel('系统名称');
    await expect.poll(() => name.inputValue(), { timeout: 10_000 }).toBe('Switchyard');
    await site.getByRole('button', { name: '设置系统名称' }).click();
    await toast(page, '你似乎并没有修改什么');

    await name.fill('星河网关');
    await site.getByRole('button', { name: '设置系统名称' }).click();
    await toast(page, '保存成功');
    const topBar = page.locator('header');
    await topBar.getByText('星河网关').waitFor({ timeout: 10_000 });
    await expect.poll(() => page.title(), { timeout: 10_000 }).toBe('星河网关');

    await site.getByLabel('Logo 图片地址').fill('/logo.svg?custom=1');
    await site.getByRole('button', { name: '设置 Logo' }).click();
    await toast(page, '保存成功');
    await expect.poll(() => topBar.getByRole('img', { name: '标志' }).getAttribute('src'), { timeout: 10_000 }).toBe('/logo.svg?custom=1');

    await site.getByLabel('页脚').fill('<span>© 星河 <b>2026</b></span><script>window.pwned = 1</script>');
    await site.getByRole('button', { name: '设置页脚' }).click();
    await toast(page, '保存成功');
    await page.locator('footer').getByText('© 星河').waitFor({ timeout: 10_000 });
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();

    await page.reload();
    await topBar.getByText('星河网关').waitFor({ timeout: 10_000 });
    await expect.poll(() => page.title(), { timeout: 10_000 }).toBe('星河网关');
    await expect.poll(() => name.inputValue(), { timeout: 10_000 }).toBe('星河网关');
    expect(await optionsOf(api)).toMatchObject({ SystemName: '星河网关', Logo: '/logo.svg?custom=1' });
    await close();
  });

  it('saves the about text as Markdown and the about page renders it sanitized', async () => {
    const api = await root();
    const { page, close } = await asRoot();
    await page.goto('/setting?tab=other');
    const site = card(page, '个性化设置');
    await optionsLoaded(site.getByRole('button', { name: '保存关于' }));
    await site.getByLabel('关于').fill('# 关于我们\n\n**稳定**的接口网关 <img src=x onerror="window.pwned=2">');
    await site.getByRole('button', { name: '保存关于' }).click();
    await toast(page, '保存成功');
    await site.getByLabel('首页内容').fill('<h1>欢迎</h1>');
    await site.getByRole('button', { name: '保存首页内容' }).click();
    await toast(page, '保存成功');
    await expect.poll(async () => (await optionsOf(api)).HomePageContent, { timeout: 10_000 }).toBe('<h1>欢迎</h1>');

    await page.goto('/about');
    await page.getByRole('heading', { name: '关于我们' }).waitFor({ timeout: 10_000 });
    await expect(page.locator('strong').filter({ hasText: '稳定' }).count()).resolves.toBe(1);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    acceptSanitizedHandlerReports();
    await close();
  });

  it('shows a new notice once to a signed-in user, and again when it changes', async () => {
    await register('reader1');
    const { page, close } = await asRoot();
    await page.goto('/setting?tab=other');
    const notice = card(page, '公告设置');
    await optionsLoaded(notice.getByRole('button', { name: '保存公告' }));
    await notice.getByLabel('公告').fill('## 维护通知\n\n本周六 **22:00** 停机维护');
    await notice.getByRole('button', { name: '保存公告' }).click();
    await toast(page, '保存成功');
    await close();

    const reader = await signedIn(env.browser(), env.server().baseUrl, 'reader1', 'password123');
    const dialog = reader.page.getByRole('dialog', { name: '系统公告' });
    await dialog.waitFor({ timeout: 10_000 });
    await dialog.getByRole('heading', { name: '维护通知' }).waitFor();
    await dialog.locator('strong').filter({ hasText: '22:00' }).waitFor();
    await dialog.getByRole('button', { name: '关闭公告' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // Read once: not shown again on a reload or another page.
    await reader.page.reload();
    await reader.page.getByRole('menuitem', { name: '令牌' }).waitFor();
    await afterAnswer(reader.page, '/api/notice', () => reader.page.goto('/log'));
    await expect(reader.page.getByRole('dialog', { name: '系统公告' }).count()).resolves.toBe(0);

    // A changed notice is shown again.
    const api = await root();
    expect((await api('PUT', '/api/option/', { key: 'Notice', value: '新的公告：价格调整' })).success).toBe(true);
    await reader.page.reload();
    await dialog.waitFor({ timeout: 10_000 });
    await dialog.getByText('新的公告：价格调整').waitFor();
    await reader.close();
  });
});
