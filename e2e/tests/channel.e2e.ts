import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { loginAs, newPage } from '../support/browser.js';
import { apiAs, useServerAndBrowser } from '../support/fixture.js';

/** A tiny OpenAI-compatible upstream: answers every chat completion with a fixed reply and its usage. */
function startUpstream(): Promise<{ url: string; calls: () => number; close(): Promise<void> }> {
  let calls = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url?.startsWith('/v1/chat/completions')) {
        calls++;
        let model = 'gpt-4o-mini';
        try {
          model = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model?: string }).model ?? model;
        } catch {
          // keep the default
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: 'chatcmpl-e2e',
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model,
            choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
            usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
          }),
        );
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'not found', type: 'invalid_request_error' } }));
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        calls: () => calls,
        close: () => new Promise<void>((r) => server.close(() => r())),
      });
    });
  });
}

interface ChannelRow {
  id: number;
  name: string;
  status: number;
  base_url: string;
  models: string;
  group: string;
  response_time: number;
}

describe('the channel page', () => {
  const env = useServerAndBrowser();
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  beforeAll(async () => {
    upstream = await startUpstream();
  });
  afterAll(async () => {
    await upstream?.close();
  });

  async function signedIn(path = '/channel') {
    const session = await newPage(env.browser(), env.server().baseUrl);
    await loginAs(session.page, 'root', '123456');
    await session.page.waitForURL(/\/token/);
    // The default-password warning opens after login; acknowledge it.
    await session.page.getByRole('button', { name: '我知道了' }).click();
    await session.page.goto(path);
    return session;
  }

  async function channels(): Promise<ChannelRow[]> {
    const api = await apiAs(env.server().baseUrl, 'root', '123456');
    const res = await api('GET', '/api/channel/?p=0&page_size=100');
    expect(res.success).toBe(true);
    return res.data as ChannelRow[];
  }

  const rowOf = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });

  it('creates a channel in the drawer, lists it, and edits it through its deep link', async () => {
    const { page, context } = await signedIn();
    await page.getByRole('link', { name: '渠道' }).first().waitFor();

    await page.getByRole('button', { name: '添加渠道' }).click();
    await page.waitForURL(/\/channel\/add$/);
    const drawer = page.getByRole('dialog', { name: '创建新的渠道' });
    // Submitting empty says what is missing.
    await drawer.getByRole('button', { name: '提交' }).click();
    await page.getByText('请填写渠道名称和渠道密钥！').first().waitFor();

    await drawer.getByLabel('名称', { exact: true }).fill('e2e-channel');
    await drawer.getByLabel('密钥', { exact: true }).fill('sk-upstream-one');
    await drawer.getByRole('button', { name: '提交' }).click();
    await page.getByText('请至少选择一个模型！').first().waitFor();

    await drawer.getByLabel('自定义模型名称').fill('gpt-4o-mini, e2e-model');
    await drawer.getByRole('button', { name: '填入', exact: true }).click();
    await drawer.getByLabel('自定义模型名称').fill('e2e-model');
    await drawer.getByRole('button', { name: '填入', exact: true }).click();
    await page.getByText('某些模型已存在！').first().waitFor();

    await drawer.getByRole('button', { name: '提交' }).click();
    await page.getByText('渠道创建成功！').first().waitFor();
    await page.waitForURL(/\/channel$/);
    const row = rowOf(page, 'e2e-channel');
    await row.waitFor();
    await row.getByText('已启用').waitFor();
    await row.getByText('OpenAI').waitFor();
    await row.getByText('default', { exact: true }).waitFor();
    await row.getByText('未测试').waitFor();

    const created = (await channels()).find((c) => c.name === 'e2e-channel')!;
    expect(created.models.split(',')).toEqual(['gpt-4o-mini', 'e2e-model']);
    expect(created.group).toBe('default');

    // Edit from the row; the drawer carries the stored values.
    await row.getByRole('button', { name: '编辑' }).click();
    await page.waitForURL(new RegExp(`/channel/edit/${created.id}$`));
    const editor = page.getByRole('dialog', { name: '更新渠道信息' });
    await expect.poll(() => editor.getByLabel('名称', { exact: true }).inputValue()).toBe('e2e-channel');
    await editor.getByLabel('名称', { exact: true }).fill('e2e-renamed');
    await editor.getByLabel('Base URL').fill(`${upstream.url}/`);
    await editor.getByRole('button', { name: '提交' }).click();
    await page.getByText('渠道更新成功！').first().waitFor();
    await rowOf(page, 'e2e-renamed').waitFor();
    const edited = (await channels()).find((c) => c.id === created.id)!;
    expect(edited.name).toBe('e2e-renamed');
    // The trailing slash is stripped on submit.
    expect(edited.base_url).toBe(upstream.url);

    // A deep link opens the page with the drawer open on that channel.
    await page.goto(`/channel/edit/${created.id}`);
    await expect.poll(() => page.getByRole('dialog', { name: '更新渠道信息' }).getByLabel('名称', { exact: true }).inputValue()).toBe('e2e-renamed');
    await context.close();
  });

  it('shows the key format and region of Tencent Hunyuan and the plugin field of DashScope, and stores the plugin in other', async () => {
    const { page, context } = await signedIn('/channel/add');
    const drawer = page.getByRole('dialog', { name: '创建新的渠道' });
    const chooseType = async (name: string) => {
      await drawer.getByLabel('类型').click();
      await drawer.getByLabel('类型').fill(name);
      await page.locator('.ant-select-dropdown:visible').getByTitle(name, { exact: true }).click();
    };

    await chooseType('腾讯混元');
    await drawer.getByText('格式：AppId|SecretId|SecretKey，例如 1300000000|AKIDxxxx|xxxx（在腾讯云访问管理中创建 API 密钥）。').waitFor();
    await drawer.getByLabel('地域').waitFor();

    await chooseType('阿里通义千问');
    await drawer.getByText('阿里云百炼（DashScope）的 API Key，例如 sk-xxxx。').waitFor();
    await drawer.getByLabel('插件参数').fill('{"pdf_extracter":{}}');
    await drawer.getByLabel('名称', { exact: true }).fill('e2e-dashscope');
    await drawer.getByLabel('密钥', { exact: true }).fill('sk-dashscope-e2e');
    await drawer.getByRole('button', { name: '提交' }).click();
    await page.getByText('渠道创建成功！').first().waitFor();
    const api = await apiAs(env.server().baseUrl, 'root', '123456');
    const created = (await channels()).find((c) => c.name === 'e2e-dashscope')!;
    const detail = await api('GET', `/api/channel/${created.id}`);
    expect(detail.data).toMatchObject({ type: 17, other: '{"pdf_extracter":{}}' });
    await context.close();
  });

  it('starts an OpenRouter channel with this console’s address and the system name as its attribution, and saves them', async () => {
    const { page, context } = await signedIn('/channel/add');
    const drawer = page.getByRole('dialog', { name: '创建新的渠道' });
    await drawer.getByLabel('类型').click();
    await drawer.getByLabel('类型').fill('OpenRouter');
    await page.locator('.ant-select-dropdown:visible').getByTitle('OpenRouter', { exact: true }).click();
    const referer = drawer.getByLabel('应用地址（HTTP-Referer）');
    const title = drawer.getByLabel('应用名称（X-Title）');
    await expect.poll(() => referer.inputValue()).toBe(env.server().baseUrl);
    await expect.poll(() => title.inputValue()).toBe('Switchyard');

    await drawer.getByLabel('名称', { exact: true }).fill('e2e-openrouter');
    await drawer.getByLabel('密钥', { exact: true }).fill('sk-or-v1-e2e');
    await title.fill('夜猫子');
    await drawer.getByRole('button', { name: '提交' }).click();
    await page.getByText(/应用名称只能包含/).first().waitFor();
    await title.fill('Night Owl Chat');
    await referer.fill('https://chat.example.org');
    await drawer.getByRole('button', { name: '提交' }).click();
    await page.getByText('渠道创建成功！').first().waitFor();

    const api = await apiAs(env.server().baseUrl, 'root', '123456');
    const created = (await channels()).find((c) => c.name === 'e2e-openrouter')!;
    const detail = (await api('GET', `/api/channel/${created.id}`)).data as { type: number; setting: string };
    expect(detail.type).toBe(20);
    expect(JSON.parse(detail.setting)).toEqual({ http_referer: 'https://chat.example.org', x_title: 'Night Owl Chat' });
    await context.close();
  });

  it('tells the key format of the types whose key is not a plain API key', async () => {
    const { page, context } = await signedIn('/channel/add');
    const drawer = page.getByRole('dialog', { name: '创建新的渠道' });
    const type = drawer.getByRole('combobox', { name: '类型' });
    const pick = async (name: string) => {
      await type.click();
      await type.fill(name);
      await page.locator(`.ant-select-item-option[title="${name}"]`).click();
    };
    await drawer.getByText('一行一个密钥：每个密钥都会创建一个渠道。').waitFor();
    await pick('百度文心千帆');
    await drawer.getByText('格式：APIKey|SecretKey（千帆 v1 应用的 API Key 与 Secret Key，用竖线分隔）。').waitFor();
    await pick('智谱 GLM-4V');
    await drawer.getByText('格式：id.secret（智谱开放平台的 API Key 原样填写，调用时由它签出访问令牌）。').waitFor();
    await pick('AWS Claude');
    await drawer.getByText('格式：AccessKeyID|SecretAccessKey|Region，例如 AKIA...|wJal...|us-east-1（可在末尾追加 |SessionToken）。').waitFor();
    await context.close();
  });

  it('tests a channel against a local upstream and shows its response time', async () => {
    const api = await apiAs(env.server().baseUrl, 'root', '123456');
    const res = await api('POST', '/api/channel/', {
      name: 'e2e-tested',
      type: 1,
      key: 'sk-upstream-test',
      base_url: upstream.url,
      models: 'gpt-4o-mini',
      group: 'default',
      auto_ban: 1,
    });
    expect(res.success).toBe(true);
    const { page, context } = await signedIn();
    const row = rowOf(page, 'e2e-tested');
    await row.getByText('未测试').waitFor();
    const before = upstream.calls();
    await row.getByRole('button', { name: '测试', exact: true }).click();
    await page.getByText(/测试成功/).first().waitFor({ timeout: 20_000 });
    await row.getByText(/^\d+\.\d{2} 秒$/).waitFor();
    expect(upstream.calls()).toBeGreaterThan(before);
    const tested = (await channels()).find((c) => c.name === 'e2e-tested')!;
    expect(tested.response_time).toBeGreaterThan(0);
    await context.close();
  });

  it('disables a channel from its row and batch deletes two selected channels', async () => {
    const api = await apiAs(env.server().baseUrl, 'root', '123456');
    for (const name of ['e2e-batch-a', 'e2e-batch-b', 'e2e-keep']) {
      const res = await api('POST', '/api/channel/', {
        name,
        type: 1,
        key: `sk-${name}`,
        models: 'gpt-4o-mini',
        group: 'default',
        auto_ban: 1,
      });
      expect(res.success).toBe(true);
    }
    const { page, context } = await signedIn();

    const keep = rowOf(page, 'e2e-keep');
    await keep.getByRole('button', { name: '禁用' }).click();
    await keep.getByText('已禁用').waitFor();
    await keep.getByRole('button', { name: '启用' }).waitFor();
    expect((await channels()).find((c) => c.name === 'e2e-keep')!.status).toBe(2);

    // Nothing selected yet.
    await page.getByRole('button', { name: '批量删除' }).click();
    await page.getByText('请先选择要删除的通道！').first().waitFor();

    await rowOf(page, 'e2e-batch-a').getByRole('checkbox').check();
    await rowOf(page, 'e2e-batch-b').getByRole('checkbox').check();
    await page.getByRole('button', { name: '批量删除' }).click();
    await page.getByRole('tooltip').getByRole('button', { name: '确定' }).click();
    await page.getByText('已删除 2 个通道！').first().waitFor();
    await rowOf(page, 'e2e-batch-a').waitFor({ state: 'detached' });
    await rowOf(page, 'e2e-batch-b').waitFor({ state: 'detached' });
    await keep.waitFor();
    const names = (await channels()).map((c) => c.name);
    expect(names).not.toContain('e2e-batch-a');
    expect(names).not.toContain('e2e-batch-b');
    expect(names).toContain('e2e-keep');
    await context.close();
  });
});
