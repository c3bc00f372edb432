import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { testDatabases } from '../test/databases.js';
import { startTestApp, type Session, type TestApp } from '../test/app.js';
import { nestsDeeperThan } from './body-parsers.js';

/*
 * Many HTTP clients send `Content-Type: application/json` on every call, with or without a body. An empty body is
 * no body, whatever its headers say: every console route answers it exactly as it answers a call without one.
 */

const [sqlite] = testDatabases(['sqlite']);
const MISSING_ID = '987654';

/** The ways clients send nothing. */
const EMPTY_BODIES: Array<{ label: string; headers: Record<string, string>; payload?: string }> = [
  { label: 'Content-Type: application/json, no body', headers: { 'content-type': 'application/json' } },
  { label: 'Content-Type: application/json; charset=utf-8, content-length 0', headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': '0' }, payload: '' },
  { label: 'Content-Type: application/json, blank body', headers: { 'content-type': 'application/json' }, payload: ' \r\n ' },
  { label: 'Content-Type: text/plain, content-length 0', headers: { 'content-type': 'text/plain', 'content-length': '0' }, payload: '' },
  { label: 'no Content-Type, content-length 0', headers: { 'content-length': '0' }, payload: '' },
  { label: 'Content-Type: application/x-www-form-urlencoded, no body', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
  { label: 'Content-Type: application/octet-stream, no body', headers: { 'content-type': 'application/octet-stream' } },
];

describe('empty bodies on the console API', () => {
  let t: TestApp;
  let root: Session;

  beforeAll(async () => {
    t = await startTestApp(sqlite);
    root = await t.root();
  });
  afterAll(() => t.close());

  const send = (opts: InjectOptions) => t.call(root, opts);

  it('answers an empty body on every POST, PUT and DELETE route as it answers no body at all', async () => {
    // As root, whose account cannot delete itself: every route can be called without lasting harm.
    const routes = t.app.accessTable.filter((r) => r.method !== 'GET');
    expect(routes.length).toBeGreaterThan(25);
    const failures: string[] = [];
    for (const route of routes) {
      const url = route.url.replace(/:[a-z_]+/gi, MISSING_ID);
      const plain = await send({ method: route.method as 'POST', url });
      for (const empty of EMPTY_BODIES) {
        const res = await send({ method: route.method as 'POST', url, headers: empty.headers, payload: empty.payload });
        if (res.statusCode !== plain.statusCode || res.body !== plain.body) {
          failures.push(`${route.method} ${route.url} with ${empty.label}: ${res.statusCode} ${res.body.slice(0, 120)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('lets routes that need a body say what is missing, in their own words', async () => {
    const json = { 'content-type': 'application/json' };
    const answer = async (method: 'POST' | 'PUT' | 'DELETE', url: string) => (await send({ method, url, headers: json })).json();
    expect(await answer('DELETE', `/api/token/${MISSING_ID}`)).toEqual({ success: false, message: '令牌不存在' });
    expect(await answer('DELETE', `/api/channel/${MISSING_ID}`)).toEqual({ success: false, message: '渠道不存在' });
    expect(await answer('DELETE', '/api/log/')).toEqual({ success: false, message: '请选择日志记录时间' });
    expect(await answer('POST', '/api/channel/fix')).toMatchObject({ success: true });
    expect(await answer('POST', '/api/token/')).toEqual({ success: false, message: '请输入令牌名称' });
    expect(await answer('POST', '/api/channel/')).toEqual({ success: false, message: '请填写渠道名称和渠道密钥！' });
    expect(await answer('POST', '/api/channel/batch')).toEqual({ success: false, message: '请先选择要删除的通道！' });
    expect(await answer('POST', '/api/user/login')).toEqual({ success: false, message: '请输入用户名和密码！' });
  });

  it('reads a body sent without a Content-Type as JSON', async () => {
    const res = await send({ method: 'POST', url: '/api/user/login', headers: { 'content-length': '40' }, payload: '{"username":"root","password":"123456"}\n' });
    expect(res.json()).toMatchObject({ success: true, message: '登录成功！' });
  });

  it('refuses JSON nested deeper than any payload, before anything tries to serialise it', async () => {
    const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const channel = (setting: string) =>
      send({ method: 'POST', url: '/api/channel/', headers: { 'content-type': 'application/json' }, payload: `{"name":"deep","key":"k","models":"m","setting":${setting}}` });
    const deep = await channel(nested(20_000));
    expect(deep.statusCode).toBe(400);
    expect(deep.json()).toEqual({ success: false, message: '请求体嵌套层级过深' });
    const arrays = await send({ method: 'PUT', url: '/api/option/', headers: { 'content-type': 'application/json' }, payload: `{"key":"Notice","value":${'['.repeat(5000)}${']'.repeat(5000)}}` });
    expect(arrays.json()).toEqual({ success: false, message: '请求体嵌套层级过深' });
    const shallow = await channel(nested(10));
    expect(shallow.json()).toMatchObject({ success: true });
  });

  it('measures nesting without recursion', () => {
    expect(nestsDeeperThan({ a: [{ b: 1 }] }, 3)).toBe(false);
    expect(nestsDeeperThan({ a: [{ b: {} }] }, 3)).toBe(true);
    expect(nestsDeeperThan('text', 0)).toBe(false);
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(nestsDeeperThan(deep, 64)).toBe(true);
  });

  it('refuses a non-empty body of a type the API does not speak with 415 and says so in Chinese', async () => {
    const res = await send({ method: 'POST', url: '/api/token/', headers: { 'content-type': 'application/xml' }, payload: '<token/>' });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ success: false, message: '不支持的请求类型，请使用 application/json' });
  });
});
