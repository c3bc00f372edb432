import { describe, expect, it } from 'vitest';
import { loginAs, newPage } from '../support/browser.js';
import { apiAs, useServerAndBrowser } from '../support/fixture.js';

/* A multi-key channel made in the drawer, and its keys switched off and on in 多密钥管理. */

describe('multi-key channels in the console', () => {
  const env = useServerAndBrowser();

  it('creates one channel from several keys and manages its keys in the dialog', async () => {
    const { page, context } = await newPage(env.browser(), env.server().baseUrl);
    await loginAs(page, 'root', '123456');
    await page.waitForURL(/\/token/);
    await page.getByRole('button', { name: '我知道了' }).click();
    await page.goto('/channel/add');

    const drawer = page.getByRole('dialog', { name: '创建新的渠道' });
    await drawer.getByLabel('名称', { exact: true }).fill('e2e-pool');
    await drawer.getByText('多密钥渠道').click();
    await drawer.getByText('轮询').click();
    await drawer.getByLabel('密钥', { exact: true }).fill('sk-pool-key-0001\nsk-pool-key-0002\nsk-pool-key-0003');
    await drawer.getByLabel('自定义模型名称').fill('gpt-4o-mini');
    await drawer.getByRole('button', { name: '填入', exact: true }).click();
    await drawer.getByRole('button', { name: '提交' }).click();
    await page.getByText('渠道创建成功！').first().waitFor();

    const api = await apiAs(env.server().baseUrl, 'root', '123456');
    const list = (await api('GET', '/api/channel/?p=0&page_size=100')).data as Array<{ id: number; name: string; channel_info?: { multi_key_mode: string } }>;
    const pools = list.filter((c) => c.name === 'e2e-pool');
    expect(pools).toHaveLength(1);
    expect(pools[0].channel_info?.multi_key_mode).toBe('polling');

    const row = page.getByRole('row').filter({ hasText: 'e2e-pool' });
    await row.getByText('多密钥 3/3').waitFor();
    await row.getByRole('button', { name: '多密钥管理' }).click();
    const dialog = page.getByRole('dialog', { name: /多密钥管理/ });
    const keyRow = (index: number) => dialog.getByRole('row').filter({ hasText: `sk-pool-ke...` }).nth(index);
    await keyRow(1).waitFor();
    await keyRow(1).getByRole('button', { name: '禁用' }).click();
    await dialog.getByText('手动禁用 1').waitFor();
    await keyRow(1).getByText('已禁用').waitFor();
    await row.getByText('多密钥 2/3').waitFor();

    const status = (await api('POST', '/api/channel/multi_key/manage', { channel_id: pools[0].id, action: 'get_key_status' })).data as {
      keys: Array<{ index: number; status: number }>;
    };
    expect(status.keys.map((k) => k.status)).toEqual([1, 2, 1]);

    await keyRow(1).getByRole('button', { name: '启用' }).click();
    await dialog.getByText('已启用 3').waitFor();
    await row.getByText('多密钥 3/3').waitFor();
    await context.close();
  });
});
