import { describe, expect, it } from 'vitest';
import { rootPageAt } from '../support/browser.js';
import { apiAs, useServerAndBrowser } from '../support/fixture.js';

/** The fields of a listed channel these tests read. */
type Listed = Record<'id' | 'status' | 'priority', number> & Record<'name' | 'tag' | 'setting' | 'param_override', string>;

describe('the channel list in tag aggregation mode', () => {
  const env = useServerAndBrowser();

  const signedIn = (path = '/channel') => rootPageAt(env.browser(), env.server().baseUrl, path);

  it('shows a row per tag that expands to its channels, and disables and edits the tag', async () => {
    const api = await apiAs(env.server().baseUrl, 'root', '123456');
    for (const [name, models] of [
      ['tagged-one', 'gpt-4o'],
      ['tagged-two', 'gpt-4o,gpt-4o-mini'],
    ]) {
      expect((await api('POST', '/api/channel/', { name, key: `sk-${name}`, models, group: 'default', tag: 'squad' })).success).toBe(true);
    }
    expect((await api('POST', '/api/channel/', { name: 'untagged', key: 'sk-u', models: 'gpt-4o', group: 'default' })).success).toBe(true);
    const list = async () => ((await api('GET', '/api/channel/?p=0&page_size=100')).data as Listed[]).filter((c) => c.tag === 'squad');

    const { page, context } = await signedIn();
    await page.getByRole('row').filter({ hasText: 'untagged' }).waitFor();
    await page.getByLabel('标签聚合模式').click();
    const tagRow = page.getByRole('row').filter({ hasText: 'squad' }).first();
    await tagRow.getByText('已启用 2/2').waitFor();
    await expect(page.getByRole('row').filter({ hasText: 'untagged' }).count()).resolves.toBe(0);

    await tagRow.getByRole('button', { name: /展开|Expand row/ }).click();
    await page.getByRole('row').filter({ hasText: 'tagged-one' }).last().waitFor();
    await page.getByRole('row').filter({ hasText: 'tagged-two' }).last().waitFor();

    await tagRow.getByRole('button', { name: '禁用全部' }).click();
    await page.getByRole('button', { name: /确\s*定|OK/ }).click();
    await tagRow.getByText('已启用 0/2').waitFor();
    expect((await list()).map((c) => c.status)).toEqual([2, 2]);

    await tagRow.getByRole('button', { name: '编辑标签' }).click();
    const modal = page.getByRole('dialog', { name: '编辑标签：squad' });
    await expect.poll(() => modal.getByLabel('模型', { exact: true }).inputValue()).toBe('gpt-4o,gpt-4o-mini');
    await modal.getByLabel('优先级').fill('8');
    await modal.getByRole('button', { name: '提交' }).click();
    await page.getByText('操作成功完成！').first().waitFor();
    await expect.poll(async () => (await list()).map((c) => c.priority)).toEqual([8, 8]);
    await context.close();
  });

  it('checks the proxy and parameter override in the drawer and saves them in the channel', async () => {
    const api = await apiAs(env.server().baseUrl, 'root', '123456');
    expect((await api('POST', '/api/channel/', { name: 'proxied', key: 'sk-p', models: 'gpt-4o', group: 'default' })).success).toBe(true);
    const id = ((await api('GET', '/api/channel/?p=0&page_size=100')).data as Listed[]).find((c) => c.name === 'proxied')!.id;

    const { page, context } = await signedIn(`/channel/edit/${id}`);
    const editor = page.getByRole('dialog', { name: '更新渠道信息' });
    await editor.getByLabel('代理地址').fill('127.0.0.1:1080');
    await editor.getByRole('button', { name: '提交' }).click();
    await page.getByText(/代理地址无效/).first().waitFor();
    await editor.getByLabel('代理地址').fill('socks5://127.0.0.1:1080');
    await editor.getByLabel('参数覆盖').fill('{"stream": false}');
    await editor.getByRole('button', { name: '提交' }).click();
    await page.getByText(/参数覆盖不能设置 stream/).first().waitFor();
    await editor.getByLabel('参数覆盖').fill('{"temperature": 0.2}');
    await editor.getByLabel('系统提示词').fill('你是客服助手。');
    await editor.getByRole('button', { name: '提交' }).click();
    await page.getByText('渠道更新成功！').first().waitFor();

    const saved = (await api('GET', `/api/channel/${id}`)).data as Listed;
    expect(JSON.parse(saved.setting)).toEqual({ proxy: 'socks5://127.0.0.1:1080', system_prompt: '你是客服助手。' });
    expect(JSON.parse(saved.param_override)).toEqual({ temperature: 0.2 });
    await context.close();
  });
});
