import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { startTestApp, type TestApp } from '../test/app.js';

/*
 * The console's pages and files carry a Content-Security-Policy, X-Frame-Options and nosniff; the API and the relay
 * answer without them.
 */

const [sqlite] = testDatabases(['sqlite']);
const THEME_SCRIPT = "\n      document.documentElement.dataset.theme = 'light';\n    ";

describe('the console build', () => {
  let t: TestApp;
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-web-'));
  beforeAll(async () => {
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(
      path.join(dist, 'index.html'),
      `<!doctype html><head><script>${THEME_SCRIPT}</script><script type="module" crossorigin src="/assets/index-3f2a9c.js"></script></head>`,
    );
    fs.writeFileSync(path.join(dist, 'assets', 'index-3f2a9c.js'), 'console.log(1)');
    fs.writeFileSync(path.join(dist, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    t = await startTestApp(sqlite, { WEB_DIST: dist });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url });
  const directives = (policy: unknown) => Object.fromEntries(String(policy).split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));

  it('sends its pages with a policy that allows its own scripts and the inline theme script by hash, and nothing inline else', async () => {
    const page = await get('/login');
    expect(page.statusCode).toBe(200);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    const policy = directives(page.headers['content-security-policy']);
    const hash = `'sha256-${createHash('sha256').update(THEME_SCRIPT).digest('base64')}'`;
    expect(policy['script-src']).toEqual(["'self'", hash]);
    expect(policy['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
    expect(policy['connect-src']).toEqual(["'self'"]);
    expect(policy['frame-ancestors']).toEqual(["'self'"]);
    expect(policy['object-src']).toEqual(["'none'"]);
    expect(policy['img-src']).toContain('https:');
  });

  it('sends the same headers with every file it serves', async () => {
    for (const url of ['/assets/index-3f2a9c.js', '/logo.svg', '/index.html']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-security-policy'], url).toContain("script-src 'self'");
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
    expect((await get('/index.html')).headers['cache-control']).not.toContain('immutable');
  });

  it('adds Turnstile and Telegram to the scripts only while they are switched on', async () => {
    const set = (key: string, value: string) => t.app.ctx.options.set(key, value);
    const scripts = async () => directives((await get('/login')).headers['content-security-policy'])['script-src'];
    expect(await scripts()).not.toContain('https://challenges.cloudflare.com');
    await set('TurnstileCheckEnabled', 'true');
    expect(await scripts()).toContain('https://challenges.cloudflare.com');
    expect(await scripts()).not.toContain("'unsafe-eval'");
    await set('TelegramOAuthEnabled', 'true');
    expect(await scripts()).toEqual(expect.arrayContaining(['https://telegram.org', "'unsafe-eval'"]));
    await set('TurnstileCheckEnabled', 'false');
    await set('TelegramOAuthEnabled', 'false');
    expect(await scripts()).toHaveLength(2);
  });

  it('leaves the API and relay answers without them', async () => {
    for (const res of [await get('/api/status'), await t.app.inject({ method: 'POST', url: '/v1/chat/completions', payload: {} })]) {
      expect(res.headers['content-security-policy']).toBeUndefined();
      expect(res.headers['x-frame-options']).toBeUndefined();
    }
  });
});
