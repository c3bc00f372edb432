import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { startTestApp, type Session, type TestApp } from '../test/app.js';
import { bodyProblem, urlHoldsNul } from './body-parsers.js';

/*
 * A NUL character cannot be stored in or compared with a PostgreSQL text column: a search for one answered 500 there
 * (found by the console fuzz). Every console call refuses it at the edge, the same way on every database.
 */

const NUL_REFUSED = { success: false, message: '请求含有不允许的空字符（\\u0000）' };

describe.each(testDatabases(['sqlite', 'postgres']))('NUL in console input on $name', (database) => {
  let t: TestApp;
  let root: Session;

  beforeAll(async () => {
    t = await startTestApp(database);
    root = await t.root();
  });
  afterAll(() => t.close());

  it('refuses the keyword search that answered 500 on PostgreSQL', async () => {
    for (const url of ['/api/log/search?keyword=%00', '/api/log/self/search?keyword=a%00b', '/api/user/search?keyword=%00']) {
      const res = await t.call(root, { method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toEqual(NUL_REFUSED);
    }
  });

  it('refuses a NUL in any query value or path of every GET route, never answering 500', async () => {
    // The readiness probe sits outside the console's routes and reads nothing from the request.
    const routes = t.app.accessTable.filter((r) => r.method === 'GET' && r.url !== '/api/ready');
    expect(routes.length).toBeGreaterThan(40);
    const wrong: string[] = [];
    for (const route of routes) {
      const url = `${route.url.replace(/:[a-z_]+/gi, '1%00')}?keyword=%00&p=0&type=%00`;
      const res = await t.call(root, { method: 'GET', url });
      if (res.statusCode !== 400 || res.body !== JSON.stringify(NUL_REFUSED)) wrong.push(`${url}: ${res.statusCode} ${res.body.slice(0, 100)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('refuses a NUL in a body string or key, so nothing half-written reaches the database', async () => {
    const json = { 'content-type': 'application/json' };
    const named = await t.call(root, { method: 'POST', url: '/api/token/', headers: json, payload: '{"name":"a\\u0000b","remain_quota":1}' });
    expect(named.statusCode).toBe(400);
    expect(named.json()).toEqual(NUL_REFUSED);
    const keyed = await t.call(root, { method: 'PUT', url: '/api/option/', headers: json, payload: '{"key":"Notice","value":{"x\\u0000":1}}' });
    expect(keyed.json()).toEqual(NUL_REFUSED);
    const tokens = await t.call(root, { method: 'GET', url: '/api/token/?p=0' });
    expect(JSON.stringify(tokens.json())).not.toContain('a\\u0000b');
    // The same call without the NUL is taken.
    const plain = await t.call(root, { method: 'POST', url: '/api/token/', headers: json, payload: '{"name":"ab","remain_quota":1}' });
    expect(plain.json()).toMatchObject({ success: true });
  });
});

describe('the NUL checks', () => {
  it('find a NUL wherever it is in a body, and nesting as before', () => {
    expect(bodyProblem({ a: [{ b: 'x\u0000' }] }, 64)).toBe('nul');
    expect(bodyProblem({ 'k\u0000': 1 }, 64)).toBe('nul');
    expect(bodyProblem(['\u0000'], 64)).toBe('nul');
    expect(bodyProblem({ a: ['ok', 1, null, true] }, 64)).toBeNull();
    expect(bodyProblem({ a: [{ b: {} }] }, 3)).toBe('tooDeep');
  });

  it('find a NUL raw or percent-encoded in either case, and nothing else', () => {
    expect(urlHoldsNul('/api/x?k=%00')).toBe(true);
    expect(urlHoldsNul('/api/x%00/y')).toBe(true);
    expect(urlHoldsNul('/api/x?k=\u0000')).toBe(true);
    expect(urlHoldsNul('/api/x?k=%000')).toBe(true);
    expect(urlHoldsNul('/api/x?k=%2500')).toBe(false);
    expect(urlHoldsNul('/api/x?k=100%25')).toBe(false);
  });
});
