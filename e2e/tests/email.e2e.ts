import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { loginAs, newPage } from '../support/browser.js';
import { apiAs, useServerAndBrowser } from '../support/fixture.js';
import { codeIn, resetLinkIn, startSmtpStandIn, type SmtpStandIn } from '../../server/src/test/smtp-stand-in.js';
import {
  GOOD_TOKEN,
  startTurnstileStandIn,
  TURNSTILE_SECRET,
  TURNSTILE_SITE_KEY,
  type TurnstileStandIn,
} from '../../server/src/test/turnstile-stand-in.js';

/*
 * Sign-up with a mailed code, password reset through the mailed link, and Turnstile on the login page. Mail goes to
 * a local SMTP server the test reads; Cloudflare's script and siteverify are local stand-ins (no network here).
 */

const TURNSTILE_SCRIPT = 'https://challenges.cloudflare.com/turnstile/v0/api.js**';

/** Cloudflare's script as the page sees it: a widget that solves itself after a moment with `token`. */
async function fakeTurnstile(page: Page, token: string): Promise<void> {
  await page.route(TURNSTILE_SCRIPT, (route) =>
    route.fulfill({
      contentType: 'application/javascript',
      body: `window.turnstile = {
        render(el, opts) {
          el.innerHTML = '<div role="status">Turnstile 检查中</div>';
          setTimeout(() => { el.innerHTML = '<div role="status">Turnstile 已通过</div>'; opts.callback(${JSON.stringify(token)}); }, 1000);
          return 'fake-widget';
        },
        remove() {},
      };`,
    }),
  );
}

describe('email and captcha', () => {
  const env: Record<string, string> = {};
  let smtp: SmtpStandIn;
  let siteverify: TurnstileStandIn;
  beforeAll(async () => {
    [smtp, siteverify] = await Promise.all([startSmtpStandIn(), startTurnstileStandIn()]);
    env.TURNSTILE_VERIFY_URL = siteverify.url;
  });
  const app = useServerAndBrowser(env);
  afterAll(async () => {
    await smtp?.close();
    await siteverify?.close();
  });

  const base = () => app.server().baseUrl;
  async function setOptions(values: Record<string, string>) {
    const api = await apiAs(base(), 'root', '123456');
    for (const [key, value] of Object.entries(values)) {
      expect(await api('PUT', '/api/option/', { key, value }), key).toMatchObject({ success: true });
    }
  }

  beforeAll(async () => {
    await setOptions({ ...smtp.settings(), ServerAddress: base(), SystemName: 'Switchyard' });
  });

  it('registers a user with the code mailed to them', async () => {
    await setOptions({ EmailVerificationEnabled: 'true' });
    const { page, context } = await newPage(app.browser(), base());
    await page.goto('/register');
    await page.getByLabel('用户名').fill('mailuser');
    await page.getByLabel('密码', { exact: true }).fill('mailpass123');
    await page.getByLabel('确认密码').fill('mailpass123');
    await page.getByLabel('邮箱').fill('mailuser@example.com');
    await page.getByRole('button', { name: '获取验证码' }).click();
    await page.getByText('验证码发送成功，请检查你的邮箱！').first().waitFor();
    // The resend timer holds the button for 30 seconds.
    await expect(page.getByRole('button', { name: /重新发送 \(\d+\)/ }).isDisabled()).resolves.toBe(true);
    const code = codeIn(await smtp.next('mailuser@example.com'));
    expect(code).toMatch(/^\d{6}$/);
    await page.getByLabel('验证码').fill(code);
    await page.getByRole('button', { name: '注册' }).click();
    await page.getByText('注册成功！').first().waitFor();
    await page.waitForURL(/\/login/);
    await loginAs(page, 'mailuser', 'mailpass123');
    await page.waitForURL(/\/token/);
    await setOptions({ EmailVerificationEnabled: 'false' });
    await context.close();
  });

  it('resets a forgotten password through the mailed link; the new password signs in', async () => {
    const api = await apiAs(base(), 'root', '123456');
    expect(await api('POST', '/api/user/', { username: 'forgetful', password: 'oldpass123', display_name: '' })).toMatchObject({ success: true });
    const users = ((await api('GET', '/api/user/search?keyword=forgetful')).data as { items: Array<{ id: number }> }).items;
    expect(await api('PUT', '/api/user/', { id: users[0].id, email: 'forgetful@example.com', quota: 0 })).toMatchObject({ success: true });

    const { page, context } = await newPage(app.browser(), base());
    await page.goto('/login');
    await page.getByRole('link', { name: '点击重置' }).click();
    await page.waitForURL(/\/reset$/);
    await page.getByLabel('邮箱').fill('forgetful@example.com');
    await page.getByRole('button', { name: '提交' }).click();
    await page.getByText('重置邮件发送成功，请检查邮箱！').first().waitFor();
    await expect(page.getByRole('button', { name: /重试 \(\d+\)/ }).isDisabled()).resolves.toBe(true);

    const link = resetLinkIn(await smtp.next('forgetful@example.com'));
    expect(link.startsWith(`${base()}/user/reset?`)).toBe(true);
    await page.goto(link);
    await expect.poll(() => page.getByLabel('邮箱').inputValue()).toBe('forgetful@example.com');
    await page.getByRole('button', { name: '提交' }).click();
    const shown = page.getByLabel('新密码');
    await shown.waitFor();
    const password = await shown.inputValue();
    expect(password).toMatch(/^[A-Za-z0-9]{12}$/);
    await page.getByText(`新密码已复制到剪贴板：${password}`).first().waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password);
    await expect(page.getByRole('button', { name: '密码重置完成' }).isDisabled()).resolves.toBe(true);

    await loginAs(page, 'forgetful', password);
    await page.waitForURL(/\/token/);
    await context.close();
  });

  it('binds, then changes, the email of the signed-in user from the personal settings', async () => {
    const { page, context } = await newPage(app.browser(), base());
    await loginAs(page, 'mailuser', 'mailpass123');
    await page.waitForURL(/\/token/);
    await page.goto('/setting?tab=personal');
    const bound = page.getByLabel('绑定的邮箱');
    await expect.poll(() => bound.inputValue()).toBe('mailuser@example.com');
    await page.getByRole('button', { name: '修改绑定' }).click();
    const dialog = page.getByRole('dialog', { name: '绑定邮箱地址' });
    await dialog.getByLabel('邮箱').fill('mailuser-new@example.com');
    await dialog.getByRole('button', { name: '获取验证码' }).click();
    await page.getByText('验证码发送成功，请检查你的邮箱！').first().waitFor();
    await dialog.getByLabel('验证码').fill(codeIn(await smtp.next('mailuser-new@example.com')));
    await dialog.getByRole('button', { name: '绑定' }).click();
    await page.getByText('邮箱账户绑定成功！').first().waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => bound.inputValue()).toBe('mailuser-new@example.com');
    await context.close();
  });

  describe('Turnstile on the login page', () => {
    // Signed in before the captcha is on: signing in afterwards would need a token.
    let rootApi: Awaited<ReturnType<typeof apiAs>>;
    beforeAll(async () => {
      rootApi = await apiAs(base(), 'root', '123456');
      await setOptions({ TurnstileSiteKey: TURNSTILE_SITE_KEY, TurnstileSecretKey: TURNSTILE_SECRET, TurnstileCheckEnabled: 'true' });
    });
    afterAll(async () => {
      expect(await rootApi('PUT', '/api/option/', { key: 'TurnstileCheckEnabled', value: 'false' })).toMatchObject({ success: true });
    });

    it('holds the login button until the widget has a token, and signs in with it', async () => {
      const { page, context } = await newPage(app.browser(), base());
      await fakeTurnstile(page, GOOD_TOKEN);
      await page.goto('/login');
      const button = page.getByRole('button', { name: '登录', exact: true });
      await page.getByText('Turnstile 检查中').waitFor();
      await expect(button.isDisabled()).resolves.toBe(true);
      await page.getByLabel('用户名').fill('mailuser');
      await page.getByLabel('密码').fill('mailpass123');
      await page.getByText('Turnstile 已通过').waitFor();
      await expect(button.isEnabled()).resolves.toBe(true);
      const before = siteverify.calls.length;
      await button.click();
      await page.waitForURL(/\/token/);
      expect(siteverify.calls.slice(before)).toEqual([{ secret: TURNSTILE_SECRET, response: GOOD_TOKEN, remoteip: '127.0.0.1' }]);
      await context.close();
    });

    it('refuses the sign-in when Cloudflare refuses the token', async () => {
      const { page, context } = await newPage(app.browser(), base());
      await fakeTurnstile(page, 'a-token-cloudflare-refuses');
      await page.goto('/login');
      await page.getByLabel('用户名').fill('mailuser');
      await page.getByLabel('密码').fill('mailpass123');
      await page.getByText('Turnstile 已通过').waitFor();
      await page.getByRole('button', { name: '登录', exact: true }).click();
      await page.getByText('Turnstile 校验失败，请刷新重试！').first().waitFor();
      expect(page.url()).toMatch(/\/login/);
      await context.close();
    });
  });
});
