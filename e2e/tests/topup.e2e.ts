import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { loginAs, newPage } from '../support/browser.js';
import { apiAs, useServerAndBrowser } from '../support/fixture.js';
import { startEpaySimulator, type EpaySimulator } from '../../server/src/test/epay-simulator.js';

describe('the wallet page', () => {
  const env = useServerAndBrowser();
  let sim: EpaySimulator;
  let users = 0;

  beforeAll(async () => {
    sim = await startEpaySimulator({ pid: '2002', key: 'e2e-merchant-key', autoPay: true });
  });
  afterAll(async () => {
    await sim?.close();
  });

  const root = () => apiAs(env.server().baseUrl, 'root', '123456');

  async function setOptions(values: Record<string, string>) {
    const api = await root();
    for (const [key, value] of Object.entries(values)) {
      const res = await api('PUT', '/api/option/', { key, value });
      expect(res, key).toMatchObject({ success: true });
    }
  }

  /** A brand-new user, signed in on /topup. */
  async function walletOf(): Promise<{ page: Page; close(): Promise<void>; username: string }> {
    const username = `wallet${++users}`;
    const register = await fetch(`${env.server().baseUrl}/api/user/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: 'password123', password2: 'password123' }),
    });
    expect(((await register.json()) as { success: boolean }).success).toBe(true);
    const { page, context } = await newPage(env.browser(), env.server().baseUrl);
    await loginAs(page, username, 'password123');
    await page.waitForURL(/\/token/);
    await page.getByRole('menuitem', { name: '钱包' }).click();
    await page.waitForURL(/\/topup/);
    await page.getByText('当前余额').waitFor();
    return { page, username, close: () => context.close() };
  }

  /** Waits until the balance figure shows this amount. */
  const balanceShows = (page: Page, amount: string) =>
    page.getByRole('region', { name: '当前余额' }).getByText(amount, { exact: true }).waitFor();

  /**
   * The redeem button, by its text whether antd spaces its two characters or not. Not by accessible name: the click
   * wave antd leaves inside a button made it unfindable by role in long runs.
   */
  const redeemButton = (page: Page) => page.locator('button.ant-btn-primary').filter({ hasText: /^兑\s?换$/ });

  it('redeems a code: asks for one when empty, shows the dialog with the amount, and the new balance', async () => {
    const api = await root();
    const created = await api('POST', '/api/redemption/', { name: 'e2e-wallet', quota: 500_000, count: 1 });
    const [code] = created.data as string[];
    const { page, close } = await walletOf();
    await balanceShows(page, '$0.00');

    await redeemButton(page).click();
    await page.getByText('请输入兑换码！').waitFor();

    await page.getByLabel('兑换码').fill(code);
    await redeemButton(page).click();
    const dialog = page.getByRole('dialog').filter({ hasText: '兑换成功！' });
    await dialog.getByText('成功兑换额度：$1.00').waitFor();
    await dialog.getByRole('button', { name: '确定' }).click();
    await balanceShows(page, '$1.00');
    await expect.poll(() => page.getByLabel('兑换码').inputValue()).toBe('');

    // The same code again: the server's refusal is shown, the balance stays.
    await page.getByLabel('兑换码').fill(code);
    await redeemButton(page).click();
    await page.getByText(/^兑换失败/).waitFor();
    await balanceShows(page, '$1.00');

    // The server cannot be reached.
    await page.route('**/api/user/topup', (route) => route.abort('connectionrefused'));
    await page.getByLabel('兑换码').fill('f'.repeat(32));
    await redeemButton(page).click();
    await page.getByText('请求失败').waitFor();
    await close();
  });

  it('says when online payment is off and when no purchase link is set', async () => {
    const { page, close } = await walletOf();
    await page.getByRole('button', { name: '支付宝' }).click();
    await page.getByText('管理员未开启在线充值！').waitFor();
    await page.getByRole('button', { name: '获取兑换码' }).click();
    await page.getByText('超级管理员未设置充值链接！').waitFor();
    await close();
  });

  it('pays online: the price preview, the minimum, the confirmation, the form posted to the gateway, the new balance', async () => {
    await setOptions({
      PayAddress: sim.url,
      EpayId: sim.pid,
      EpayKey: sim.key,
      ServerAddress: env.server().baseUrl,
      MinTopUp: '2',
      Price: '7.3',
    });
    const { page, close } = await walletOf();
    const amount = page.getByLabel('充值数量');
    // The amount starts at the minimum, priced by the server.
    await expect.poll(() => amount.inputValue()).toBe('2');
    await page.getByText('14.60 元').waitFor();

    // Below 1 becomes 1; below the minimum is refused before any order is made.
    await amount.fill('0');
    await expect.poll(() => amount.inputValue()).toBe('1');
    await page.getByRole('button', { name: '支付宝' }).click();
    await page.getByText('充值数量不能小于2').waitFor();

    await amount.fill('3');
    await page.getByText('21.90 元').waitFor();
    await page.getByRole('button', { name: '支付宝' }).click();
    const dialog = page.getByRole('dialog', { name: '确定要充值吗' });
    await dialog.getByText('$3').waitFor();
    await dialog.getByText('21.90 元').waitFor();
    await dialog.getByText('支付宝').waitFor();

    // The hidden form goes to the gateway's submit URL with the signed fields.
    const posted = page.waitForRequest((req) => req.url().startsWith(sim.url));
    await dialog.getByRole('button', { name: '确定' }).click();
    const request = await posted;
    expect(request.method()).toBe('POST');
    expect(request.url()).toBe(`${sim.url}/submit.php`);
    const fields = Object.fromEntries(new URLSearchParams(request.postData() ?? ''));
    expect(fields).toMatchObject({
      pid: '2002',
      type: 'alipay',
      money: '21.90',
      notify_url: `${env.server().baseUrl}/api/user/epay/notify`,
      return_url: `${env.server().baseUrl}/log`,
      sign_type: 'MD5',
    });
    expect(fields.sign).toMatch(/^[0-9a-f]{32}$/);

    // The gateway (auto-pay) took the order, called our notify URL, and offers the way back.
    await page.getByText('支付成功').waitFor();
    expect(sim.refused).toEqual([]);
    expect(sim.orders.get(fields.out_trade_no)?.paid).toBe(true);
    await page.getByRole('link', { name: '返回商户' }).click();
    await page.waitForURL(/\/log/);
    await page.goto('/topup');
    await balanceShows(page, '$3.00');
    await close();
  });
});
