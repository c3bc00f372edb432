import { describe, expect, it } from 'vitest';
import { card, optionsLoaded, optionsOf, settingsSuite, someOptionsOf, toast } from '../support/settings.js';

describe('the system settings tab', () => {
  const { root, asRoot, status } = settingsSuite();

  it('shows its cards in the order of the spec', async () => {
    const { page, close } = await asRoot();
    await page.goto('/setting?tab=system');
    await card(page, '配置 Turnstile').waitFor();
    const titles = await page.getByRole('tabpanel').locator('.ant-card-head-title').allInnerTexts();
    expect(titles).toEqual([
      '通用设置', '代理设置', '支付设置', '配置登录注册', '配置邮箱域名白名单', '配置 SMTP', '配置 GitHub OAuth App',
      '配置 WeChat Server', '配置 Telegram 登录', '配置 Turnstile',
    ]);
    await close();
  });

  it('saves SMTP and the worker; a secret is written, never shown back, and a blank secret keeps it', async () => {
    const api = await root();
    const { page, close } = await asRoot();
    await page.goto('/setting?tab=system');
    const smtp = card(page, '配置 SMTP');
    const token = smtp.getByLabel('SMTP 访问凭证');
    await expect.poll(() => smtp.getByLabel('SMTP 端口').inputValue(), { timeout: 10_000 }).toBe('587');
    await expect.poll(() => token.getAttribute('placeholder')).toBe('敏感信息不会发送到前端显示');
    await smtp.getByRole('button', { name: '保存 SMTP 设置' }).click();
    await toast(page, '你似乎并没有修改什么');

    const secret = 'smtp-secret-e2e-7731';
    await smtp.getByLabel('SMTP 服务器地址').fill('smtp.example.com');
    await smtp.getByLabel('SMTP 端口').fill('465');
    await smtp.getByLabel('SMTP 账户').fill('noreply@example.com');
    await smtp.getByLabel('SMTP 发送者邮箱').fill('noreply@example.com');
    await token.fill(secret);
    await smtp.getByRole('switch', { name: '启用 SMTP SSL' }).click();
    await smtp.getByRole('button', { name: '保存 SMTP 设置' }).click();
    await toast(page, '保存成功');
    await expect.poll(async () => (await optionsOf(api)).SMTPSSLEnabled, { timeout: 10_000 }).toBe('true');
    const stored = await optionsOf(api);
    expect(stored).toMatchObject({ SMTPServer: 'smtp.example.com', SMTPPort: '465', SMTPAccount: 'noreply@example.com', SMTPFrom: 'noreply@example.com' });
    expect(stored).not.toHaveProperty('SMTPToken');
    expect(((await api('GET', '/api/option/secret_status')).data as Record<string, boolean>).SMTPToken).toBe(true);
    await expect.poll(() => token.getAttribute('placeholder'), { timeout: 10_000 }).toBe('已设置，留空则保持不变');
    await expect.poll(() => token.inputValue()).toBe('');

    const worker = card(page, '代理设置');
    await worker.getByLabel('Worker 地址').fill('https://proxy.example.workers.dev');
    await worker.getByLabel('Worker 密钥').fill('worker-secret-e2e');
    await worker.getByRole('button', { name: '更新 Worker 设置' }).click();
    await toast(page, '保存成功');
    await expect.poll(async () => (await optionsOf(api)).WorkerUrl, { timeout: 10_000 }).toBe('https://proxy.example.workers.dev');

    await page.reload();
    await expect.poll(() => smtp.getByLabel('SMTP 服务器地址').inputValue(), { timeout: 10_000 }).toBe('smtp.example.com');
    await expect.poll(() => token.getAttribute('placeholder'), { timeout: 10_000 }).toBe('已设置，留空则保持不变');
    await expect.poll(() => worker.getByLabel('Worker 密钥').getAttribute('placeholder'), { timeout: 10_000 }).toBe('已设置，留空则保持不变');
    const html = await page.content();
    expect(html).not.toContain(secret);
    expect(html).not.toContain('worker-secret-e2e');

    // Saving with the secret left blank changes the port only; the stored secret stays.
    await smtp.getByLabel('SMTP 端口').fill('587');
    await smtp.getByRole('button', { name: '保存 SMTP 设置' }).click();
    await toast(page, '保存成功');
    await expect.poll(async () => (await optionsOf(api)).SMTPPort, { timeout: 10_000 }).toBe('587');
    expect(((await api('GET', '/api/option/secret_status')).data as Record<string, boolean>).SMTPToken).toBe(true);
    await close();
  });

  it('turns sign-in methods on only with their credentials, and asks before turning password login off', async () => {
    const api = await root();
    const { page, close } = await asRoot();
    await page.goto('/setting?tab=system');
    const login = card(page, '配置登录注册');
    const github = login.getByRole('switch', { name: '允许通过 GitHub 账户登录 & 注册' });
    await expect.poll(() => github.isEnabled(), { timeout: 10_000 }).toBe(true);

    await github.click();
    await toast(page, '无法启用 GitHub OAuth，请先填入 GitHub Client Id 以及 GitHub Client Secret！');
    await expect.poll(() => github.getAttribute('aria-checked'), { timeout: 10_000 }).toBe('false');

    const app = card(page, '配置 GitHub OAuth App');
    await app.getByLabel('GitHub Client ID').fill('Iv1.e2eclient');
    await app.getByLabel('GitHub Client Secret').fill('gh-secret-e2e');
    await app.getByRole('button', { name: '保存 GitHub OAuth 设置' }).click();
    await toast(page, '保存成功');
    await expect.poll(async () => (await optionsOf(api)).GitHubClientId, { timeout: 10_000 }).toBe('Iv1.e2eclient');
    await github.click();
    await expect.poll(() => github.getAttribute('aria-checked'), { timeout: 10_000 }).toBe('true');
    expect(await status()).toMatchObject({ github_oauth: true, github_client_id: 'Iv1.e2eclient' });

    // Registration off, at once.
    await login.getByRole('switch', { name: /^允许新用户注册/ }).click();
    await expect.poll(async () => (await status()).register_enabled, { timeout: 10_000 }).toBe(false);

    // Password login: cancelling the question keeps it on; confirming turns it off.
    const password = login.getByRole('switch', { name: '允许通过密码进行登录' });
    const question = page.getByRole('dialog').filter({ hasText: '确定要取消密码登录功能吗？' });
    await password.click();
    await question.waitFor();
    await question.getByRole('button', { name: '取消' }).click();
    await question.waitFor({ state: 'hidden' });
    expect((await optionsOf(api)).PasswordLoginEnabled).toBe('true');
    await expect.poll(() => password.getAttribute('aria-checked')).toBe('true');
    await password.click();
    await question.getByRole('button', { name: '确定' }).click();
    await expect.poll(async () => (await status()).password_login_enabled, { timeout: 10_000 }).toBe(false);
    await expect.poll(() => password.getAttribute('aria-checked'), { timeout: 10_000 }).toBe('false');
    // Turning it back on needs no question (the rest of the suite signs in with a password).
    await password.click();
    await expect.poll(async () => (await status()).password_login_enabled, { timeout: 10_000 }).toBe(true);
    await login.getByRole('switch', { name: /^允许新用户注册/ }).click();
    await expect.poll(async () => (await status()).register_enabled, { timeout: 10_000 }).toBe(true);
    await close();
  });

  it('saves the e-mail domain whitelist before switching the restriction on', async () => {
    const api = await root();
    await api('PUT', '/api/option/', { key: 'EmailDomainWhitelist', value: '' });
    const { page, close } = await asRoot();
    await page.goto('/setting?tab=system');
    const domains = card(page, '配置邮箱域名白名单');
    const input = domains.getByLabel('允许的邮箱域名');
    await optionsLoaded(domains.getByRole('button', { name: '保存邮箱域名白名单设置' }));
    await input.fill('example.com');
    await input.press('Enter');
    await input.fill('corp.example.org');
    await input.press('Enter');
    await domains.getByRole('switch', { name: '启用邮箱域名白名单' }).click();
    await domains.getByRole('button', { name: '保存邮箱域名白名单设置' }).click();
    await toast(page, '保存成功');
    await expect
      .poll(() => someOptionsOf(api, 'EmailDomainRestrictionEnabled', 'EmailDomainWhitelist'), { timeout: 10_000 })
      .toEqual({ EmailDomainRestrictionEnabled: 'true', EmailDomainWhitelist: 'example.com,corp.example.org' });

    await page.reload();
    await domains.getByText('corp.example.org').waitFor({ timeout: 10_000 });
    await expect.poll(() => domains.getByRole('switch', { name: '启用邮箱域名白名单' }).getAttribute('aria-checked')).toBe('true');
    await close();
  });

  it('saves the WeChat, Telegram and Turnstile credentials', async () => {
    const api = await root();
    const { page, close } = await asRoot();
    await page.goto('/setting?tab=system');
    const wechat = card(page, '配置 WeChat Server');
    await optionsLoaded(wechat.getByRole('button', { name: '保存 WeChat Server 设置' }));
    await wechat.getByLabel('WeChat Server 服务器地址').fill('https://wechat.example.com');
    await wechat.getByLabel('WeChat Server 访问凭证').fill('wechat-token-e2e');
    await wechat.getByLabel('微信公众号二维码图片链接').fill('https://wechat.example.com/qr.png');
    await wechat.getByRole('button', { name: '保存 WeChat Server 设置' }).click();
    await toast(page, '保存成功');
    const telegram = card(page, '配置 Telegram 登录');
    await telegram.getByLabel('Telegram Bot 名称').fill('gateway_bot');
    await telegram.getByLabel('Telegram Bot Token').fill('123:telegram-token-e2e');
    await telegram.getByRole('button', { name: '保存 Telegram 登录设置' }).click();
    await toast(page, '保存成功');
    const turnstile = card(page, '配置 Turnstile');
    await turnstile.getByLabel('Turnstile Site Key').fill('0x-site-key');
    await turnstile.getByLabel('Turnstile Secret Key').fill('0x-secret-key');
    await turnstile.getByRole('button', { name: '保存 Turnstile 设置' }).click();
    await toast(page, '保存成功');

    await expect.poll(async () => (await optionsOf(api)).TelegramBotName, { timeout: 10_000 }).toBe('gateway_bot');
    expect(await optionsOf(api)).toMatchObject({
      WeChatServerAddress: 'https://wechat.example.com',
      WeChatAccountQRCodeImageURL: 'https://wechat.example.com/qr.png',
    });
    await expect
      .poll(async () => (await api('GET', '/api/option/secret_status')).data, { timeout: 10_000 })
      .toMatchObject({ WeChatServerToken: true, TelegramBotToken: true, TurnstileSiteKey: true, TurnstileSecretKey: true });
    // With the credentials in place the server lets the methods on.
    expect((await api('PUT', '/api/option/', { key: 'WeChatAuthEnabled', value: 'true' })).success).toBe(true);
    expect((await api('PUT', '/api/option/', { key: 'TelegramOAuthEnabled', value: 'true' })).success).toBe(true);
    expect(await status()).toMatchObject({ wechat_login: true, wechat_qrcode: 'https://wechat.example.com/qr.png', telegram_oauth: true, telegram_bot_name: 'gateway_bot' });
    await close();
  });
});
