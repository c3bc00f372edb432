import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { loginAs, newPage } from '../support/browser.js';
import { apiAs, useServerAndBrowser } from '../support/fixture.js';

describe('invites', () => {
  const env = useServerAndBrowser();

  /** Waits until an item of a settings card reads `label` followed by `value` (e.g. 邀请人数 1). */
  const shows = (page: Page, card: string, label: string, value: string) =>
    page
      .locator('.ant-card')
      .filter({ has: page.getByText(card, { exact: true }) })
      .locator('.ant-descriptions-item')
      .filter({ hasText: new RegExp(`^${label}${value.replace(/[$.]/g, '\\$&')}$`) })
      .first()
      .waitFor();

  it('rewards both sides of a registration through an invite link, and the inviter moves the earnings to the balance', async () => {
    const base = env.server().baseUrl;
    const root = await apiAs(base, 'root', '123456');
    for (const [key, value] of [
      ['QuotaForNewUser', '1000000'],
      ['QuotaForInvitee', '500000'],
      ['QuotaForInviter', '1500000'],
    ]) {
      expect((await root('PUT', '/api/option/', { key, value })).success).toBe(true);
    }
    // The inviter registered before the gifts, with a balance of 0.
    await root('PUT', '/api/option/', { key: 'QuotaForNewUser', value: '0' });
    const made = await fetch(`${base}/api/user/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'host', password: 'hostpass1', password2: 'hostpass1' }),
    });
    expect(((await made.json()) as { success: boolean }).success).toBe(true);
    await root('PUT', '/api/option/', { key: 'QuotaForNewUser', value: '1000000' });

    // The inviter copies the link from the personal settings.
    const host = await newPage(env.browser(), base);
    await loginAs(host.page, 'host', 'hostpass1');
    await host.page.waitForURL(/\/token/);
    await host.page.goto('/setting?tab=personal');
    const linkBox = host.page.getByLabel('邀请链接');
    await expect.poll(() => linkBox.inputValue(), { timeout: 10_000 }).toMatch(/\/register\?aff=[A-Za-z0-9]{4,}$/);
    await host.page.getByRole('button', { name: '复制', exact: true }).click();
    await host.page.getByText('已复制到剪贴板！').first().waitFor();
    const link = await host.page.evaluate(() => navigator.clipboard.readText());
    expect(link).toBe(await linkBox.inputValue());

    // A newcomer follows it and registers.
    const guest = await newPage(env.browser(), base);
    await guest.page.goto(link.replace(base, ''));
    await guest.page.getByLabel('用户名').fill('guest');
    await guest.page.getByLabel('密码', { exact: true }).fill('guestpass1');
    await guest.page.getByLabel('确认密码').fill('guestpass1');
    await guest.page.getByRole('button', { name: '注册', exact: true }).click();
    await guest.page.getByText('注册成功！').first().waitFor();
    await guest.page.waitForURL(/\/login/);
    await loginAs(guest.page, 'guest', 'guestpass1');
    await guest.page.waitForURL(/\/token/);
    await guest.page.goto('/setting?tab=personal');
    // QuotaForNewUser ($2) + QuotaForInvitee ($1).
    await shows(guest.page, '个人信息', '当前余额', '$3.00');
    await guest.context.close();

    // The inviter sees one invitee and $3 of earnings, not yet spendable.
    await host.page.reload();
    await shows(host.page, '邀请信息', '邀请人数', '1');
    await shows(host.page, '邀请信息', '待使用收益', '$3.00');
    await shows(host.page, '邀请信息', '总收益', '$3.00');
    await shows(host.page, '个人信息', '当前余额', '$0.00');

    // Less than one unit is refused; two dollars move.
    await host.page.getByRole('button', { name: '划转到余额' }).click();
    const dialog = host.page.getByRole('dialog', { name: '划转邀请额度' });
    const amount = dialog.getByLabel('划转额度');
    await expect.poll(() => amount.inputValue(), { timeout: 10_000 }).toBe('1500000');
    await amount.fill('400000');
    await dialog.getByRole('button', { name: '划 转' }).or(dialog.getByRole('button', { name: '划转' })).click();
    await host.page.getByText('划转金额最低为 $1.00').first().waitFor();
    await amount.fill('1000000');
    await dialog.getByRole('button', { name: '划 转' }).or(dialog.getByRole('button', { name: '划转' })).click();
    await host.page.getByText('划转成功').first().waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await shows(host.page, '邀请信息', '待使用收益', '$1.00');
    await shows(host.page, '邀请信息', '总收益', '$3.00');
    await shows(host.page, '个人信息', '当前余额', '$2.00');

    // More than the earnings is refused by the server.
    await host.page.getByRole('button', { name: '划转到余额' }).click();
    await amount.fill('1000001');
    await dialog.getByRole('button', { name: '划 转' }).or(dialog.getByRole('button', { name: '划转' })).click();
    await host.page.getByText('邀请额度不足！').first().waitFor();
    await host.context.close();

    const hostRow = ((await root('GET', '/api/user/search?keyword=host')).data as { items: Array<{ username: string; quota: number; aff_quota: number }> }).items.find(
      (u) => u.username === 'host',
    );
    expect(hostRow).toMatchObject({ quota: 1000000, aff_quota: 500000 });
  });
});
