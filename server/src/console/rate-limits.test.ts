import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { testDatabases } from '../test/databases.js';
import { describeWithServices } from '../test/services.js';
import { startTestApp, type TestApp } from '../test/app.js';
import { startPrivateRedis, type PrivateRedis } from '../test/private-redis.js';

/*
 * The per-address limits of the console API, the web pages and the critical routes (GLOBAL_API_RATE_LIMIT*,
 * GLOBAL_WEB_RATE_LIMIT*, CRITICAL_RATE_LIMIT*), each address as TRUSTED_PROXIES tells it (here X-Forwarded-For
 * from the loopback test client, so each test has addresses of its own).
 */

const [sqlite] = testDatabases(['sqlite']);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const REFUSED = { success: false, message: '请求次数过多，请稍后再试' };

const LIMITS = {
  GLOBAL_API_RATE_LIMIT: '5',
  GLOBAL_API_RATE_LIMIT_DURATION: '1',
  GLOBAL_WEB_RATE_LIMIT: '3',
  GLOBAL_WEB_RATE_LIMIT_DURATION: '1',
  CRITICAL_RATE_LIMIT: '2',
  CRITICAL_RATE_LIMIT_DURATION: '1',
};
const ON = { GLOBAL_API_RATE_LIMIT_ENABLE: 'true', GLOBAL_WEB_RATE_LIMIT_ENABLE: 'true', CRITICAL_RATE_LIMIT_ENABLE: 'true' };

const from = (app: TestApp, ip: string, opts: InjectOptions) => app.app.inject({ ...opts, headers: { ...(opts.headers ?? {}), 'x-forwarded-for': ip } });

/** The critical routes: sign-in, registration, mailed codes, password reset, third-party sign-in and binding. */
const CRITICAL: InjectOptions[] = [
  { method: 'POST', url: '/api/user/login', payload: { username: 'root', password: 'wrong' } },
  { method: 'POST', url: '/api/user/register', payload: { username: 'someone', password: 'password123', password2: 'password123' } },
  { method: 'GET', url: '/api/verification?email=a@example.com' },
  { method: 'GET', url: '/api/reset_password?email=a@example.com' },
  { method: 'POST', url: '/api/user/reset', payload: { email: 'a@example.com', token: 'x' } },
  { method: 'GET', url: '/api/oauth/email/bind?email=a@example.com&code=1' },
  { method: 'GET', url: '/api/oauth/state' },
  { method: 'GET', url: '/api/oauth/github?code=x&state=y' },
  { method: 'GET', url: '/api/oauth/wechat?code=x' },
  { method: 'GET', url: '/api/oauth/wechat/bind?code=x' },
  { method: 'GET', url: '/api/oauth/telegram/login?id=1' },
  { method: 'GET', url: '/api/oauth/telegram/bind?id=1' },
];

describe('per-address limits on one node', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(sqlite, { ...ON, ...LIMITS, GLOBAL_API_RATE_LIMIT: '5', CRITICAL_RATE_LIMIT: '2' });
  });
  afterAll(() => t.close());

  it('answers the console API 429 with the envelope after the limit, per address, and again after the duration', async () => {
    for (let i = 0; i < 5; i++) expect((await from(t, '203.0.113.1', { method: 'GET', url: '/api/status' })).statusCode).toBe(200);
    const refused = await from(t, '203.0.113.1', { method: 'GET', url: '/api/status' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual(REFUSED);
    expect(refused.headers['retry-after']).toBe('1');
    // Another address has its own budget; the API's does not touch the pages'.
    expect((await from(t, '203.0.113.2', { method: 'GET', url: '/api/status' })).statusCode).toBe(200);
    expect((await from(t, '203.0.113.1', { method: 'GET', url: '/some/page' })).statusCode).not.toBe(429);
    await sleep(1050);
    expect((await from(t, '203.0.113.1', { method: 'GET', url: '/api/status' })).statusCode).toBe(200);
  });

  it('limits the web pages and files on their own budget', async () => {
    for (let i = 0; i < 3; i++) expect((await from(t, '203.0.113.3', { method: 'GET', url: `/page-${i}` })).statusCode).not.toBe(429);
    const refused = await from(t, '203.0.113.3', { method: 'GET', url: '/portal/' });
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toBe('请求次数过多，请稍后再试');
    expect((await from(t, '203.0.113.3', { method: 'GET', url: '/api/status' })).statusCode).toBe(200);
    await sleep(1050);
    expect((await from(t, '203.0.113.3', { method: 'GET', url: '/page-again' })).statusCode).not.toBe(429);
  });

  it('counts the legacy billing endpoints against the API budget and answers them in OpenAI format', async () => {
    for (let i = 0; i < 5; i++) await from(t, '203.0.113.4', { method: 'GET', url: '/api/status' });
    const refused = await from(t, '203.0.113.4', { method: 'GET', url: '/v1/dashboard/billing/subscription' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: { message: '请求次数过多，请稍后再试', code: 'rate_limit_exceeded' } });
    expect(refused.headers['retry-after']).toBe('1');
  });

  it('leaves relay calls to the model request limit', async () => {
    for (let i = 0; i < 8; i++) {
      const res = await from(t, '203.0.113.5', { method: 'POST', url: '/v1/chat/completions', payload: { model: 'x', messages: [] } });
      expect(res.statusCode).toBe(401);
    }
  });

  it('gives every critical route a budget of its own on top of the API one', async () => {
    for (const [i, route] of CRITICAL.entries()) {
      const ip = `203.0.113.${100 + i}`;
      const name = `${route.method} ${route.url}`;
      for (let n = 0; n < 2; n++) expect((await from(t, ip, route)).statusCode, name).not.toBe(429);
      const res = await from(t, ip, route);
      expect(res.statusCode, name).toBe(429);
      expect(res.json()).toEqual(REFUSED);
      // The API budget (5) still has room; the critical budget is shared by the critical routes.
      expect((await from(t, ip, { method: 'GET', url: '/api/status' })).statusCode).toBe(200);
      expect((await from(t, ip, CRITICAL[(i + 1) % CRITICAL.length])).statusCode, name).toBe(429);
    }
    await sleep(1050);
    expect((await from(t, '203.0.113.100', CRITICAL[0])).statusCode).not.toBe(429);
  });

  it('leaves the other console routes out of the critical budget', async () => {
    const ip = '203.0.113.7';
    for (let i = 0; i < 4; i++) expect((await from(t, ip, { method: 'GET', url: '/api/user/self' })).statusCode).not.toBe(429);
    expect((await from(t, ip, CRITICAL[0])).statusCode).not.toBe(429);
  });
});

describe('per-address limits behind no trusted proxy (TRUSTED_PROXIES=none)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(sqlite, { ...ON, ...LIMITS, GLOBAL_API_RATE_LIMIT: '2', GLOBAL_API_RATE_LIMIT_DURATION: '60', TRUSTED_PROXIES: 'none' });
  });
  afterAll(() => t.close());

  it('counts by the peer address: a client cannot get a fresh budget by sending X-Forwarded-For', async () => {
    expect((await from(t, '192.0.2.10', { method: 'GET', url: '/api/status' })).statusCode).toBe(200);
    expect((await from(t, '192.0.2.11', { method: 'GET', url: '/api/status' })).statusCode).toBe(200);
    expect((await from(t, '192.0.2.12', { method: 'GET', url: '/api/status' })).statusCode).toBe(429);
  });
});

describe('the console build under the web limit', () => {
  let t: TestApp;
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'switchyard-web-'));
  beforeAll(async () => {
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>console</title>');
    fs.writeFileSync(path.join(dist, 'assets', 'index-3f2a9c.js'), 'console.log(1)');
    fs.writeFileSync(path.join(dist, 'favicon.ico'), '');
    t = await startTestApp(sqlite, { ...ON, ...LIMITS, GLOBAL_WEB_RATE_LIMIT: '3', GLOBAL_WEB_RATE_LIMIT_DURATION: '60', WEB_DIST: dist });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('lets browsers keep the hashed files for good and leaves them out of the limit, which counts the pages', async () => {
    const ip = '198.51.100.9';
    // Far more hashed files than the limit (3): a fresh browser fetches some forty for its first page.
    for (let i = 0; i < 10; i++) {
      const asset = await from(t, ip, { method: 'GET', url: '/assets/index-3f2a9c.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    const page = await from(t, ip, { method: 'GET', url: '/token' });
    expect(page.body).toContain('<title>console</title>');
    expect(page.headers['cache-control']).toBe('no-cache');
    const icon = await from(t, ip, { method: 'GET', url: '/favicon.ico' });
    expect(icon.headers['cache-control']).not.toContain('immutable');
    // A name the build does not have is no hashed file: it counts.
    expect((await from(t, ip, { method: 'GET', url: '/assets/index-000000.js' })).statusCode).toBe(404);
    expect((await from(t, ip, { method: 'GET', url: '/token' })).statusCode).toBe(429);
    expect((await from(t, ip, { method: 'GET', url: '/assets/index-3f2a9c.js' })).statusCode).toBe(200);
  });

  it('answers a refused page load with a page that says so, and a refused file with plain text', async () => {
    const ip = '198.51.100.10';
    for (let i = 0; i < 3; i++) await from(t, ip, { method: 'GET', url: '/token' });
    const page = await from(t, ip, { method: 'GET', url: '/token', headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8', 'sec-fetch-mode': 'navigate' } });
    expect(page.statusCode).toBe(429);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['retry-after']).toMatch(/^\d+$/);
    expect(page.body).toContain('<h1>请求次数过多，请稍后再试</h1>');
    expect(page.body).toContain(`请在 ${page.headers['retry-after']} 秒后刷新本页。`);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    const icon = await from(t, ip, { method: 'GET', url: '/favicon.ico', headers: { accept: 'image/*' } });
    expect(icon.statusCode).toBe(429);
    expect(icon.body).toBe('请求次数过多，请稍后再试');
  });
});

describe('per-address limits switched off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(sqlite, {
      ...LIMITS,
      GLOBAL_API_RATE_LIMIT_ENABLE: 'false',
      GLOBAL_WEB_RATE_LIMIT_ENABLE: 'false',
      CRITICAL_RATE_LIMIT_ENABLE: 'false',
    });
  });
  afterAll(() => t.close());

  it('admits any number of API, page and critical requests', async () => {
    for (let i = 0; i < 12; i++) {
      expect((await from(t, '198.51.100.1', { method: 'GET', url: '/api/status' })).statusCode).toBe(200);
      expect((await from(t, '198.51.100.1', { method: 'GET', url: '/page' })).statusCode).not.toBe(429);
      expect((await from(t, '198.51.100.1', CRITICAL[0])).statusCode).not.toBe(429);
    }
  });
});

describeWithServices(['redis-server'], 'per-address limits on two nodes sharing Redis', () => {
  let redis: PrivateRedis;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    redis = await startPrivateRedis();
    const env = { ...ON, ...LIMITS, GLOBAL_API_RATE_LIMIT: '4', REDIS_CONN_STRING: redis.url };
    a = await startTestApp(sqlite, env);
    b = await startTestApp(sqlite, env);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await redis?.close();
  });

  it('holds the limit in total, not per node, and opens a fresh window after the duration', async () => {
    const ip = '192.0.2.1';
    const results = await Promise.all([a, b, a, b, a, b].map((node) => from(node, ip, { method: 'GET', url: '/api/status' })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 429, 429]);
    const refused = await from(b, ip, { method: 'GET', url: '/api/status' });
    expect(refused.json()).toEqual(REFUSED);
    expect(refused.headers['retry-after']).toBe('1');
    await sleep(1050);
    expect((await from(a, ip, { method: 'GET', url: '/api/status' })).statusCode).toBe(200);
  });

  it('admits requests, with a warning, while Redis is down', async () => {
    const ip = '192.0.2.2';
    const warnings: string[] = [];
    const warn = a.app.log.warn.bind(a.app.log);
    a.app.log.warn = ((obj: unknown, msg?: string) => {
      warnings.push(typeof obj === 'string' ? obj : (msg ?? ''));
      return warn(obj as never, msg as never);
    }) as typeof a.app.log.warn;
    await redis.kill();
    for (let i = 0; i < 8; i++) expect((await from(a, ip, { method: 'GET', url: '/api/status' })).statusCode).toBe(200);
    expect(warnings.some((w) => w.includes('rate limits cannot reach Redis'))).toBe(true);
    await redis.restart();
  });
});
