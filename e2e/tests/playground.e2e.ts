import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { loginAs, newPage } from '../support/browser.js';
import { apiAs, useServerAndBrowser } from '../support/fixture.js';

/*
 * The playground against a local OpenAI-compatible upstream: a long streamed reply (2,000 chunks), each state of a
 * message, stop, regenerate, a failing channel, and settings that survive a reload.
 */

const LONG_CHUNKS = 2000;
const UPSTREAM_KEY = 'sk-playground-upstream';

interface Upstream {
  url: string;
  /** The JSON bodies received, in order. */
  bodies: Array<Record<string, unknown>>;
  /** Streams the client closed before their end. */
  abandoned: () => number;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Streams chat chunks; what it streams depends on the last user message: "long" 2,000 chunks (a code block among
 * them) a few at a time, "slow" a chunk every 40 ms, "wait" one sentence after a second's silence; anything else a short
 * answer. The model "gpt-4o" fails with a 500.
 */
function startUpstream(): Promise<Upstream> {
  const bodies: Array<Record<string, unknown>> = [];
  let abandoned = 0;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', async () => {
      if (req.headers.authorization !== `Bearer ${UPSTREAM_KEY}`) {
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'bad key' } }));
        return;
      }
      const body = JSON.parse(raw) as { model: string; messages: Array<{ role: string; content: string }> };
      bodies.push(body);
      if (body.model === 'gpt-4o') {
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'upstream exploded', type: 'server_error' } }));
        return;
      }
      const said = body.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
      let gone = false;
      res.on('close', () => {
        if (!res.writableFinished) {
          gone = true;
          abandoned++;
        }
      });
      const event = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
      const delta = (content: string) => event({ id: 'chatcmpl-pg', object: 'chat.completion.chunk', created: 1, model: body.model, choices: [{ index: 0, delta: { content }, finish_reason: null }] });
      if (said === 'wait') await sleep(1000);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      event({ id: 'chatcmpl-pg', object: 'chat.completion.chunk', created: 1, model: body.model, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
      if (said === 'long') {
        const pieces = ['```js\n', 'const answer = 42;\n', '```\n\n'];
        for (let i = 0; i < LONG_CHUNKS && !gone; i++) {
          delta(pieces[i] ?? `w${i} `);
          // Chunks arrive apart, as a model's tokens do: a repaint per chunk would show here.
          if (i % 2 === 1) await sleep(1);
        }
        delta('THE-END');
      } else if (said === 'slow') {
        for (let i = 0; i < 1000 && !gone; i++) {
          delta(`s${i} `);
          await sleep(40);
        }
      } else {
        delta(said === 'wait' ? 'Thanks for waiting.' : `Reply #${bodies.length} to: ${said}`);
      }
      if (gone) return;
      event({ id: 'chatcmpl-pg', object: 'chat.completion.chunk', created: 1, model: body.model, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
      event({ id: 'chatcmpl-pg', object: 'chat.completion.chunk', created: 1, model: body.model, choices: [], usage: { prompt_tokens: 20, completion_tokens: 30, total_tokens: 50 } });
      res.end('data: [DONE]\n\n');
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        bodies,
        abandoned: () => abandoned,
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}

describe('the playground', () => {
  const env = useServerAndBrowser();
  let upstream: Upstream;
  let page: Page;
  let closePage: () => Promise<void>;

  const replies = () => page.getByRole('article', { name: '助手' });
  const lastReply = () => replies().last();
  const input = () => page.getByRole('textbox', { name: '输入消息' });
  const status = (reply: Locator) => reply.getAttribute('data-status');

  async function say(text: string): Promise<void> {
    await input().fill(text);
    await input().press('Enter');
  }

  beforeAll(async () => {
    upstream = await startUpstream();
    const root = await apiAs(env.server().baseUrl, 'root', '123456');
    for (const [name, models] of [['pg-good', 'gpt-4o-mini'], ['pg-bad', 'gpt-4o']] as const) {
      const res = await root('POST', '/api/channel/', { name, type: 1, key: UPSTREAM_KEY, base_url: upstream.url, models, group: 'default', auto_ban: 0 });
      expect(res.success, res.message).toBe(true);
    }
    const opened = await newPage(env.browser(), env.server().baseUrl);
    page = opened.page;
    closePage = () => opened.context.close();
    await loginAs(page, 'root', '123456');
    await page.waitForURL(/\/token/);
    // root still has the default password: the warning comes first.
    await page.getByRole('button', { name: '我知道了' }).click();
    await page.getByRole('menuitem', { name: '操练场' }).click();
    await page.waitForURL(/\/playground/);
  });
  afterAll(async () => {
    await closePage?.();
    await upstream?.close();
  });

  it('opens with the sample exchange and the default settings', async () => {
    await expect.poll(() => replies().count()).toBe(1);
    await replies().first().getByText('你好，请问有什么可以帮助您的吗？').waitFor();
    await page.getByRole('combobox', { name: '模型' }).locator('xpath=ancestor::*[contains(@class,"ant-select")][1]').getByText('gpt-4o-mini').waitFor();
    expect(await page.getByRole('textbox', { name: '系统提示词' }).inputValue()).toContain('helpful assistant');
  });

  it('shows a reply loading, then streaming, then complete', async () => {
    await say('wait');
    await page.locator('[data-role="assistant"][data-status="loading"]').waitFor();
    await lastReply().getByText('Thanks for waiting.').waitFor();
    await expect.poll(() => status(lastReply())).toBe('complete');
    const sent = upstream.bodies.at(-1)!;
    // The sample exchange is part of the conversation; the system prompt leads it; max_tokens 0 is not sent.
    expect(sent.messages).toEqual([
      { role: 'system', content: expect.stringContaining('helpful assistant') },
      { role: 'user', content: '你好' },
      { role: 'assistant', content: '你好，请问有什么可以帮助您的吗？' },
      { role: 'user', content: 'wait' },
    ]);
    expect(sent).not.toHaveProperty('max_tokens');
    expect(sent).not.toHaveProperty('group');
    expect(sent).toMatchObject({ model: 'gpt-4o-mini', stream: true, temperature: 0 });
  });

  it('streams a 2,000-chunk reply, repainting per frame rather than per chunk, and highlights its code when done', async () => {
    // Count DOM changes inside the conversation while the reply streams.
    await page.getByRole('log', { name: '对话' }).waitFor();
    await page.evaluate(() => {
      const log = document.querySelector('[role="log"]')!;
      const w = window as unknown as { __paints: number; __frames: number; __observer: MutationObserver; __counting: boolean };
      // Every batch of DOM changes (one per React commit), and the animation frames meanwhile.
      w.__paints = 0;
      w.__frames = 0;
      w.__counting = true;
      w.__observer = new MutationObserver(() => w.__paints++);
      w.__observer.observe(log, { subtree: true, childList: true, characterData: true });
      const frame = () => {
        w.__frames++;
        if (w.__counting) requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    });
    const before = await replies().count();
    await say('long');
    await page.locator('[data-role="assistant"][data-status="incomplete"]').waitFor();
    await page.getByRole('button', { name: '停止生成' }).waitFor();
    await lastReply().getByText('THE-END').waitFor({ timeout: 30_000 });
    await expect.poll(() => status(lastReply())).toBe('complete');
    const counted = await page.evaluate(() => {
      const w = window as unknown as { __paints: number; __frames: number; __observer: MutationObserver; __counting: boolean };
      w.__observer.disconnect();
      w.__counting = false;
      return { paints: w.__paints, frames: w.__frames };
    });
    // A repaint per chunk would commit several times a frame (chunks arrive faster than frames).
    expect(counted.paints).toBeGreaterThan(0);
    expect(counted.paints).toBeLessThanOrEqual(counted.frames + 5);
    const text = (await lastReply().textContent()) ?? '';
    expect(text).toContain('w1999');
    // The code block is highlighted, and every earlier message is still there.
    await lastReply().locator('code.hljs .hljs-keyword', { hasText: 'const' }).waitFor();
    expect(await replies().count()).toBe(before + 1);
  });

  it('stops a reply under way, keeping what arrived and closing the upstream call', async () => {
    const abandonedBefore = upstream.abandoned();
    await say('slow');
    await lastReply().getByText('s3', { exact: false }).waitFor();
    await page.getByRole('button', { name: '停止生成' }).click();
    await expect.poll(() => status(lastReply())).toBe('complete');
    const kept = (await lastReply().textContent()) ?? '';
    expect(kept).toContain('s3');
    expect(kept).not.toContain('s999');
    await expect.poll(() => upstream.abandoned()).toBe(abandonedBefore + 1);
    await page.getByRole('button', { name: '发送' }).waitFor();
  });

  it('regenerates the last reply from the same conversation', async () => {
    await say('again');
    await lastReply().getByText('to: again').waitFor();
    const count = await replies().count();
    const firstBody = upstream.bodies.at(-1)!;
    const firstText = await lastReply().textContent();
    await lastReply().getByRole('button', { name: '重新生成' }).click();
    await expect.poll(async () => (await lastReply().textContent()) !== firstText && (await status(lastReply())) === 'complete').toBe(true);
    expect(await replies().count()).toBe(count);
    expect(upstream.bodies.at(-1)!.messages).toEqual(firstBody.messages);
  });

  it('shows the error of a failing channel as an error message', async () => {
    const model = page.getByRole('combobox', { name: '模型' });
    await model.click();
    await model.fill('gpt-4o');
    await page.locator('.ant-select-item-option[title="gpt-4o"]').click();
    await say('fail please');
    await expect.poll(() => status(lastReply())).toBe('error');
    expect(await lastReply().textContent()).toContain('upstream exploded');
    // A failed reply can be asked again, and its text is not sent back as part of the conversation.
    await model.click();
    await model.fill('gpt-4o-mini');
    await page.locator('.ant-select-item-option[title="gpt-4o-mini"]').click();
    await lastReply().getByRole('button', { name: '重新生成' }).click();
    await expect.poll(() => status(lastReply())).toBe('complete');
    expect(JSON.stringify(upstream.bodies.at(-1)!.messages)).not.toContain('upstream exploded');
  });

  it('keeps the settings across a reload and sends them', async () => {
    await page.getByRole('spinbutton', { name: 'max_tokens' }).fill('321');
    const prompt = page.getByRole('textbox', { name: '系统提示词' });
    await prompt.fill('Answer in haiku.');
    const slider = page.getByRole('slider', { name: 'temperature' });
    await slider.focus();
    for (let i = 0; i < 7; i++) await slider.press('ArrowRight');
    await page.reload();
    await page.getByRole('textbox', { name: '系统提示词' }).waitFor();
    expect(await page.getByRole('textbox', { name: '系统提示词' }).inputValue()).toBe('Answer in haiku.');
    expect(await page.getByRole('spinbutton', { name: 'max_tokens' }).inputValue()).toBe('321');
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('playground_settings') ?? '{}') as Record<string, unknown>);
    expect(stored).toMatchObject({ model: 'gpt-4o-mini', max_tokens: 321, systemPrompt: 'Answer in haiku.' });
    const temperature = stored.temperature as number;
    expect(temperature).toBeGreaterThan(0.5);
    await say('settings');
    await expect.poll(() => status(lastReply())).toBe('complete');
    const sent = upstream.bodies.at(-1) as { messages: unknown[] };
    expect(sent).toMatchObject({ max_tokens: 321, temperature });
    expect(sent.messages[0]).toEqual({ role: 'system', content: 'Answer in haiku.' });
    expect(sent.messages.at(-1)).toEqual({ role: 'user', content: 'settings' });
  });

  it('clears the conversation', async () => {
    await page.getByRole('button', { name: '清空对话' }).click();
    await page.getByRole('button', { name: '确 定' }).or(page.getByRole('button', { name: '确定' })).click();
    await expect.poll(() => replies().count()).toBe(0);
    await page.getByText('开始新的对话吧').waitFor();
  });

  it('says the session is over when opened with ?expired=true', async () => {
    await page.goto('/playground?expired=true');
    await page.getByText('未登录或登录已过期，请重新登录！').waitFor();
  });

  it('signs in again when the session has ended', async () => {
    await page.context().clearCookies();
    await say('anyone there?');
    await page.waitForURL(/\/login\?expired=true/);
  });
});
