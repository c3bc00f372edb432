import { beforeAll, describe, expect, it } from 'vitest';
import { loginAs, newPage } from '../support/browser.js';
import { apiAs, useServerAndBrowser } from '../support/fixture.js';

/*
 * Seeded: gpt-4o ratio 1.25 (completion 4 built in), my-model ratio 3 with completion ratio 2, dall-e-3 at $0.04 a
 * call; groups default x1 and vip x0.5. By spec §9 the page must show, per 1M tokens:
 *   default: gpt-4o $2.50 / $10.00, my-model $6.00 / $12.00, dall-e-3 $0.04 a call
 *   vip:     gpt-4o $1.25 / $5.00,  my-model $3.00 / $6.00,  dall-e-3 $0.02 a call
 */
describe('the pricing page', () => {
  const env = useServerAndBrowser();

  beforeAll(async () => {
    const root = await apiAs(env.server().baseUrl, 'root', '123456');
    const options: Record<string, unknown> = {
      ModelRatio: { 'gpt-4o': 1.25, 'my-model': 3 },
      ModelPrice: { 'dall-e-3': 0.04 },
      CompletionRatio: { 'my-model': 2 },
      GroupRatio: { default: 1, vip: 0.5 },
      UserUsableGroups: { default: '默认分组', vip: 'vip分组' },
    };
    for (const [key, value] of Object.entries(options)) {
      expect((await root('PUT', '/api/option/', { key, value: JSON.stringify(value) })).success).toBe(true);
    }
    const channel = await root('POST', '/api/channel/', {
      name: 'main',
      type: 1,
      key: 'sk-upstream',
      group: 'default,vip',
      models: 'my-model,gpt-4o,dall-e-3',
    });
    expect(channel.success).toBe(true);
    expect((await root('POST', '/api/user/', { username: 'vipper', password: 'vipperpass1', display_name: '' })).success).toBe(true);
    const found = ((await root('GET', '/api/user/search?keyword=vipper')).data as { items: Array<{ id: number; username: string }> }).items;
    const id = found.find((u) => u.username === 'vipper')!.id;
    expect((await root('PUT', '/api/user/', { id, group: 'vip' })).success).toBe(true);
  });

  it('shows a visitor the default group prices with a not-logged-in notice, and other groups on a chip', async () => {
    const { page, context } = await newPage(env.browser(), env.server().baseUrl);
    await page.goto('/about');
    await page.getByRole('menuitem', { name: '模型价格' }).click();
    await page.waitForURL(/\/pricing$/);
    await page.getByText('您还未登录，显示的价格为默认分组倍率：1').waitFor();

    const row = (model: string) => page.getByRole('row').filter({ has: page.getByText(model, { exact: true }) });
    await row('gpt-4o').getByText('提示 $2.50 / 1M tokens').waitFor();
    await row('gpt-4o').getByText('补全 $10.00 / 1M tokens').waitFor();
    await row('my-model').getByText('提示 $6.00 / 1M tokens').waitFor();
    await row('my-model').getByText('补全 $12.00 / 1M tokens').waitFor();
    await row('dall-e-3').getByText('模型价格：$0.04 / 次').waitFor();
    await row('dall-e-3').getByText('按次计费').waitFor();
    await row('gpt-4o').getByText('按量计费').waitFor();

    // Per-request models first, then gpt models, then the rest.
    const names = await page.locator('tbody tr[data-row-key]').evaluateAll((rows) =>
      rows.map((r) => r.querySelectorAll('td')[2]?.textContent ?? '').filter((n) => n !== ''),
    );
    expect(names).toEqual(['dall-e-3', 'gpt-4o', 'my-model']);

    await page.getByText('vip x0.5').click();
    await row('gpt-4o').getByText('提示 $1.25 / 1M tokens').waitFor();
    await row('gpt-4o').getByText('补全 $5.00 / 1M tokens').waitFor();
    await row('dall-e-3').getByText('模型价格：$0.02 / 次').waitFor();

    await page.getByLabel('模糊搜索模型名称').fill('MY');
    await expect.poll(() => page.locator('tbody tr[data-row-key]').count()).toBe(1);
    await row('my-model').getByText('提示 $3.00 / 1M tokens').waitFor();
    await context.close();
  });

  it("shows a signed-in user their own group's prices and copies model names", async () => {
    const { page, context } = await newPage(env.browser(), env.server().baseUrl);
    await loginAs(page, 'vipper', 'vipperpass1');
    await page.waitForURL(/\/token/);
    await page.getByRole('menuitem', { name: '模型价格' }).click();
    await page.getByText('您的分组为：vip，分组倍率为：0.5').waitFor();
    const row = (model: string) => page.getByRole('row').filter({ has: page.getByText(model, { exact: true }) });
    await row('gpt-4o').getByText('提示 $1.25 / 1M tokens').waitFor();
    await row('my-model').getByText('补全 $6.00 / 1M tokens').waitFor();

    await row('my-model').getByText('my-model', { exact: true }).click();
    await page.getByText('已复制到剪贴板！').first().waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('my-model');

    await row('gpt-4o').getByRole('checkbox').check();
    await row('dall-e-3').getByRole('checkbox').check();
    await page.getByRole('button', { name: '复制选中模型' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('dall-e-3,gpt-4o');
    await context.close();
  });
});
