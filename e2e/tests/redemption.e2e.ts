import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loginAs, newPage } from '../support/browser.js';
import { apiAs, useServerAndBrowser } from '../support/fixture.js';

interface Code {
  id: number;
  key: string;
  name: string;
  status: number;
  quota: number;
}

describe('the redemption page', () => {
  const env = useServerAndBrowser();

  async function signedIn() {
    const session = await newPage(env.browser(), env.server().baseUrl);
    await loginAs(session.page, 'root', '123456');
    await session.page.waitForURL(/\/token/);
    // The default-password warning opens after login; acknowledge it.
    await session.page.getByRole('button', { name: '我知道了' }).click();
    await session.page.getByRole('menuitem', { name: '兑换码' }).click();
    await session.page.waitForURL(/\/redemption$/);
    return session;
  }

  async function codesNamed(name: string): Promise<Code[]> {
    const api = await apiAs(env.server().baseUrl, 'root', '123456');
    const list = (await api('GET', '/api/redemption/?p=0&page_size=100')).data as Code[];
    return list.filter((c) => c.name === name);
  }

  it('creates codes in the drawer and downloads them as a .txt named after the name', async () => {
    const { page, context } = await signedIn();
    await page.getByRole('button', { name: '添加兑换码' }).click();
    const drawer = page.getByRole('dialog', { name: '创建新的兑换码' });
    await expect.poll(() => drawer.getByLabel('名称', { exact: true }).inputValue()).toBe('');
    await expect.poll(() => drawer.getByLabel('额度', { exact: true }).inputValue()).toBe('100000');
    await expect.poll(() => drawer.getByLabel('生成数量', { exact: true }).inputValue()).toBe('1');

    // Without a name, submitting does nothing: the only creation sent is the named one below.
    let created = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().includes('/api/redemption/')) created++;
    });
    await drawer.getByRole('button', { name: '提交' }).click();
    await expect(drawer.isVisible()).resolves.toBe(true);

    await drawer.getByLabel('名称', { exact: true }).fill('spring-sale');
    await drawer.getByLabel('额度', { exact: true }).fill('250000');
    await drawer.getByLabel('生成数量', { exact: true }).fill('3');
    const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().includes('/api/redemption/'));
    await drawer.getByRole('button', { name: '提交' }).click();
    expect((await sent).postDataJSON()).toEqual({ name: 'spring-sale', quota: 250000, count: 3 });
    await page.getByText('兑换码创建成功！').first().waitFor();
    expect(created).toBe(1);

    const offer = page.getByRole('dialog', { name: '兑换码创建成功' });
    await offer.getByText('兑换码创建成功，是否下载兑换码？').waitFor();
    const downloading = page.waitForEvent('download');
    await offer.getByRole('button', { name: '下载' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('spring-sale.txt');
    // The browser runs apart from the test (a shared chromium): the file is copied over to be read.
    const saved = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-download-')), download.suggestedFilename());
    await download.saveAs(saved);
    const text = fs.readFileSync(saved, 'utf8');
    fs.rmSync(path.dirname(saved), { recursive: true, force: true });
    const lines = text.split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line).toMatch(/^[0-9a-f]{32}$/);

    // The file holds exactly the codes the server made, and the table lists them.
    const stored = await codesNamed('spring-sale');
    expect(stored.map((c) => c.key).sort()).toEqual([...lines].sort());
    expect(stored.every((c) => c.quota === 250000 && c.status === 1)).toBe(true);
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'spring-sale' }).count()).toBe(3);
    await context.close();
  });

  it('copies the selected codes, and asks for a selection first', async () => {
    const api = await apiAs(env.server().baseUrl, 'root', '123456');
    await api('POST', '/api/redemption/', { name: 'copy-a', quota: 1000, count: 1 });
    await api('POST', '/api/redemption/', { name: 'copy-b', quota: 1000, count: 1 });
    const { page, context } = await signedIn();

    await page.getByRole('button', { name: '复制所选兑换码到剪贴板' }).click();
    await page.getByText('请至少选择一个兑换码！').first().waitFor();

    await page.getByRole('row').filter({ hasText: 'copy-a' }).getByRole('checkbox').check();
    await page.getByRole('row').filter({ hasText: 'copy-b' }).getByRole('checkbox').check();
    await page.getByRole('button', { name: '复制所选兑换码到剪贴板' }).click();
    await page.getByText('已复制到剪贴板！').first().waitFor();
    const copied = (await page.evaluate(() => navigator.clipboard.readText())).split('\n');
    const expected = [...(await codesNamed('copy-a')), ...(await codesNamed('copy-b'))].map((c) => c.key);
    expect(copied.sort()).toEqual(expected.sort());

    // One code from its row.
    await page.getByRole('row').filter({ hasText: 'copy-a' }).getByRole('button', { name: '复制' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe((await codesNamed('copy-a'))[0].key);
    await context.close();
  });

  it('disables a code so that it no longer redeems, and enables it again', async () => {
    const api = await apiAs(env.server().baseUrl, 'root', '123456');
    const [key] = (await api('POST', '/api/redemption/', { name: 'switch-me', quota: 5000, count: 1 })).data as string[];
    await fetch(`${env.server().baseUrl}/api/user/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'redeemer', password: 'redeemer1', password2: 'redeemer1' }),
    });
    const user = await apiAs(env.server().baseUrl, 'redeemer', 'redeemer1');
    const { page, context } = await signedIn();

    const row = page.getByRole('row').filter({ hasText: 'switch-me' });
    await row.getByText('未使用').waitFor();
    await row.getByRole('button', { name: '禁用' }).click();
    await row.getByText('已禁用').waitFor();
    expect((await codesNamed('switch-me'))[0].status).toBe(2);
    await expect(user('POST', '/api/user/topup', { key })).resolves.toEqual({ success: false, message: '兑换失败，该兑换码已被禁用' });
    // A disabled code cannot be edited.
    await expect(row.getByRole('button', { name: '编辑' }).isDisabled()).resolves.toBe(true);

    await row.getByRole('button', { name: '启用' }).click();
    await row.getByText('未使用').waitFor();
    await expect(user('POST', '/api/user/topup', { key })).resolves.toEqual({ success: true, message: '', data: 5000 });

    // Once used, the code can be neither switched on nor edited.
    await page.reload();
    const used = page.getByRole('row').filter({ hasText: 'switch-me' });
    await used.getByText('已使用').waitFor();
    await expect(used.getByRole('button', { name: '启用' }).isDisabled()).resolves.toBe(true);
    await expect(used.getByRole('button', { name: '编辑' }).isDisabled()).resolves.toBe(true);
    await context.close();
  });

  it('edits, searches and deletes a code', async () => {
    const api = await apiAs(env.server().baseUrl, 'root', '123456');
    await api('POST', '/api/redemption/', { name: 'edit-me', quota: 1000, count: 1 });
    const { page, context } = await signedIn();

    await page.getByRole('row').filter({ hasText: 'edit-me' }).getByRole('button', { name: '编辑' }).click();
    const drawer = page.getByRole('dialog', { name: '更新兑换码信息' });
    await expect.poll(() => drawer.getByLabel('名称', { exact: true }).inputValue()).toBe('edit-me');
    await drawer.getByLabel('名称', { exact: true }).fill('edited');
    await drawer.getByLabel('额度', { exact: true }).fill('500000');
    await drawer.getByRole('button', { name: '提交' }).click();
    await page.getByText('兑换码更新成功！').first().waitFor();
    const row = page.getByRole('row').filter({ hasText: 'edited' });
    await row.getByText('$1.00').waitFor();

    await page.getByPlaceholder('搜索兑换码的 ID 和名称 ...').fill('  edited ');
    await page.getByRole('button', { name: '查询' }).click();
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'copy-a' }).count()).toBe(0);
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'edited' }).count()).toBe(1);

    await row.getByRole('button', { name: '删除' }).click();
    await page.getByText('确定是否要删除此兑换码？').waitFor();
    await page.getByRole('tooltip').getByRole('button', { name: '确定' }).click();
    await page.getByText('操作成功完成！').first().waitFor();
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'edited' }).count()).toBe(0);
    expect(await codesNamed('edited')).toEqual([]);
    await context.close();
  });
});
