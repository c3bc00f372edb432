import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from './test/databases.js';
import { startTestApp, type TestApp } from './test/app.js';

const [sqlite] = testDatabases(['sqlite']);

describe('the HTTP surface', () => {
  let t: TestApp;
  let webDist: string;
  beforeAll(async () => {
    webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'sy-web-'));
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.mkdirSync(path.join(webDist, 'assets'));
    fs.writeFileSync(path.join(webDist, 'assets', 'app.js'), 'console.log(1)');
    t = await startTestApp(sqlite, { WEB_DIST: webDist, MAX_REQUEST_BODY_MB: '1' });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it('serves the console for client-side routes and its assets', async () => {
    for (const url of ['/', '/token', '/user/edit/3', '/no/such/page']) {
      const res = await t.call(null, { method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
    }
    const asset = await t.call(null, { method: 'GET', url: '/assets/app.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toContain('javascript');
  });

  it('answers 404, not the console, for the portal when PORTAL_DIR is unset', async () => {
    const res = await t.call(null, { method: 'GET', url: '/portal/index.html' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('id="root"');
  });

  it('answers unknown API paths with a JSON 404 in Chinese instead of the console', async () => {
    const res = await t.call(null, { method: 'GET', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, message: '请求的接口不存在：GET /api/nope' });
  });

  it('answers malformed JSON with 400 and an envelope', async () => {
    const res = await t.call(null, {
      method: 'POST',
      url: '/api/user/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false });
  });

  it('answers an oversize body with 413 and an envelope', async () => {
    const res = await t.call(null, {
      method: 'POST',
      url: '/api/user/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ username: 'x'.repeat(2 * 1024 * 1024), password: 'y' }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ success: false });
  });

  it('answers wrong field types with a clear business error', async () => {
    const res = await t.call(null, { method: 'POST', url: '/api/user/login', payload: { username: 5, password: [] } });
    expect(res.statusCode).toBe(200);
    expect(res.json().success).toBe(false);
    expect(res.json().message).toMatch(/无效的参数/);
  });

  it('signs in with the default root account and marks the session cookie HttpOnly and SameSite', async () => {
    const res = await t.call(null, { method: 'POST', url: '/api/user/login', payload: { username: 'root', password: '123456' } });
    expect(res.json()).toMatchObject({ success: true, data: { username: 'root', role: 100 } });
    const cookie = res.cookies.find((c) => c.name === 'session');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Strict');
  });

  it('refuses a tampered session cookie', async () => {
    const root = await t.root();
    const tampered = root.headers.cookie.replace(/session=(\d+)/, 'session=2');
    const res = await t.call(null, {
      method: 'GET',
      url: '/api/option/',
      headers: { cookie: tampered, 'new-api-user': '2' },
    });
    expect(res.statusCode).toBe(401);
  });

  it('refuses wrong passwords with one message that does not reveal whether the user exists', async () => {
    const a = await t.call(null, { method: 'POST', url: '/api/user/login', payload: { username: 'root', password: 'wrong-pass' } });
    const b = await t.call(null, { method: 'POST', url: '/api/user/login', payload: { username: 'ghost', password: 'wrong-pass' } });
    expect(a.json()).toEqual(b.json());
    expect(a.json().success).toBe(false);
  });

  it('asks for both fields on login', async () => {
    const res = await t.call(null, { method: 'POST', url: '/api/user/login', payload: { username: '', password: '' } });
    expect(res.json()).toEqual({ success: false, message: '请输入用户名和密码！' });
  });
});

describe('the portal folder (PORTAL_DIR)', () => {
  let t: TestApp;
  let portal: string;
  let webDist: string;
  beforeAll(async () => {
    portal = fs.mkdtempSync(path.join(os.tmpdir(), 'sy-portal-'));
    fs.writeFileSync(path.join(portal, 'index.html'), '<!doctype html><h1>门户</h1>');
    fs.mkdirSync(path.join(portal, 'img'));
    fs.writeFileSync(path.join(portal, 'img', 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'sy-web-'));
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
    t = await startTestApp(sqlite, { WEB_DIST: webDist, PORTAL_DIR: portal });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(portal, { recursive: true, force: true });
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it('serves the portal page and its files under /portal/', async () => {
    const page = await t.call(null, { method: 'GET', url: '/portal/index.html' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('门户');
    const asset = await t.call(null, { method: 'GET', url: '/portal/img/logo.svg' });
    expect(asset.statusCode).toBe(200);
  });

  it('answers 404, not the console, for a file the portal folder lacks', async () => {
    const res = await t.call(null, { method: 'GET', url: '/portal/missing.html' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('id="root"');
  });
});
