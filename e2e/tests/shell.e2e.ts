import { describe, expect, it } from 'vitest';
import { loginAs, newPage, type Motion } from '../support/browser.js';
import { useServerAndBrowser } from '../support/fixture.js';

describe('the console shell', () => {
  const env = useServerAndBrowser();

  it('sends a signed-out visitor from a private page to the login page', async () => {
    const { page, context } = await newPage(env.browser(), env.server().baseUrl);
    await page.goto('/token');
    await page.waitForURL(/\/login/);
    await page.getByRole('button', { name: '登录', exact: true }).waitFor();
    await context.close();
  });

  it('says the login expired when told so', async () => {
    const { page, context } = await newPage(env.browser(), env.server().baseUrl);
    await page.goto('/login?expired=true');
    await page.getByText('未登录或登录已过期，请重新登录！').first().waitFor();
    await context.close();
  });

  it('asks for both fields on login', async () => {
    const { page, context } = await newPage(env.browser(), env.server().baseUrl);
    await page.goto('/login');
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.getByText('请输入用户名和密码！').first().waitFor();
    await context.close();
  });

  it('lands on /token after a password login and warns about the default root password', async () => {
    const { page, context } = await newPage(env.browser(), env.server().baseUrl);
    await loginAs(page, 'root', '123456');
    await page.waitForURL(/\/token/);
    await page.getByText('登录成功！').first().waitFor();
    await page.getByRole('dialog', { name: /默认密码/ }).waitFor();
    await context.close();
  });

  it.each<[Motion, boolean]>([
    ['reduced', false],
    ['shown', true],
  ])('with the reader’s motion %s, opens and closes a dialog by an animation: %s', async (motion, animated) => {
    const { page, context } = await newPage(env.browser(), env.server().baseUrl, undefined, undefined, motion);
    // Every class a dialog is given on its way in and out, as it is given.
    await context.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { dialogMotion: string[] }).dialogMotion = seen;
      new MutationObserver((changes) => {
        for (const c of changes) {
          const el = c.target as Element;
          if (el.classList.contains('ant-modal')) seen.push(el.className);
        }
      }).observe(document, { attributes: true, attributeFilter: ['class'], subtree: true });
    });
    await loginAs(page, 'root', '123456');
    const dialog = page.getByRole('dialog', { name: /默认密码/ });
    await dialog.waitFor();
    await page.getByRole('button', { name: '我知道了' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const classes = await page.evaluate(() => (window as unknown as { dialogMotion: string[] }).dialogMotion);
    // The active step is the one that runs the animation and waits for its end; without motion there is none.
    expect(classes.some((c) => /ant-zoom-(appear|leave)-active/.test(c)), classes.join(' | ')).toBe(animated);
    await context.close();
  });

  it('shows the register validation messages', async () => {
    const { page, context } = await newPage(env.browser(), env.server().baseUrl);
    await page.goto('/register');
    await page.getByLabel('用户名').fill('newbie');
    await page.getByLabel('密码', { exact: true }).fill('short');
    await page.getByLabel('确认密码').fill('short');
    await page.getByRole('button', { name: '注册', exact: true }).click();
    await page.getByText('密码长度不得小于 8 位！').first().waitFor();
    await page.getByLabel('密码', { exact: true }).fill('longenough1');
    await page.getByLabel('确认密码').fill('longenough2');
    await page.getByRole('button', { name: '注册', exact: true }).click();
    await page.getByText('两次输入的密码不一致').first().waitFor();
    await context.close();
  });

  it('keeps dark mode across a reload', async () => {
    const { page, context } = await newPage(env.browser(), env.server().baseUrl);
    await page.goto('/about');
    const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
    const before = await theme();
    await page.getByLabel('切换主题').click();
    const after = await theme();
    expect(after).not.toBe(before);
    expect(after).toBe('dark');
    await page.reload();
    expect(await theme()).toBe('dark');
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(bg).not.toBe('rgb(255, 255, 255)');
    await context.close();
  });

  it('collapses the sidebar at 600 px wide and keeps it open on a desktop', async () => {
    const { page, context } = await newPage(env.browser(), env.server().baseUrl, { width: 600, height: 900 });
    await loginAs(page, 'root', '123456');
    await page.waitForURL(/\/token/);
    const sider = page.getByLabel('侧边栏');
    await expect.poll(() => sider.getAttribute('class')).toContain('collapsed');
    await page.setViewportSize({ width: 1280, height: 900 });
    await expect.poll(() => sider.getAttribute('class')).not.toContain('collapsed');
    await context.close();
  });

  it('shows the not-found message for an unknown path', async () => {
    const { page, context } = await newPage(env.browser(), env.server().baseUrl);
    await page.goto('/definitely/not/here');
    await page.getByText('页面不存在，请检查你的浏览器地址是否正确').waitFor();
    await context.close();
  });
});
