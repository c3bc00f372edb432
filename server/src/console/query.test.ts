import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { startTestApp, type Session, type TestApp } from '../test/app.js';
import { recordLog } from '../store/logs.js';
import { MAX_OFFSET, paging, queryInt, queryTime } from './query.js';

/** What people and scripts type where a number belongs. */
const NOT_SANE = ['99999999999999999999', '-99999999999999999999', '-1', '1.5', '-0.5', 'abc', '1e400', '', '0x1f', 'NaN', 'Infinity', '9'.repeat(400)];

describe('reading list paging from the query', () => {
  it('reads p and page_size (or size), 0-based by default', () => {
    expect(paging({ p: '2', page_size: '20' })).toEqual({ page: 2, size: 20, offset: 40 });
    expect(paging({ p: '2', size: '5' })).toEqual({ page: 2, size: 5, offset: 10 });
    expect(paging({})).toEqual({ page: 0, size: 10, offset: 0 });
    expect(paging({}, { defaultSize: 100 })).toEqual({ page: 0, size: 100, offset: 0 });
  });

  it('treats a negative or unreadable page as the first and cuts a fractional one', () => {
    for (const p of ['-1', '-99999999999999999999', 'abc', '', 'NaN', '1e400', 'Infinity']) {
      expect(paging({ p }).page, p).toBe(0);
      expect(paging({ p }, { firstPage: 1 }).page, p).toBe(1);
    }
    expect(paging({ p: '1.9' }).page).toBe(1);
    expect(paging({ p: ['3', '7'] }).page).toBe(3);
  });

  it('keeps a huge page within range, where it is simply empty', () => {
    const { offset, page } = paging({ p: '99999999999999999999', page_size: '10' });
    expect(offset).toBe(MAX_OFFSET);
    expect(Number.isSafeInteger(page)).toBe(true);
    expect(paging({ p: '99999999999999999999' }, { firstPage: 1 }).offset).toBe(MAX_OFFSET);
  });

  it('brings the size within 1..100; 0 or none is the default', () => {
    expect(paging({ size: '-3' }).size).toBe(1);
    expect(paging({ page_size: '100000' }).size).toBe(100);
    expect(paging({ page_size: '99999999999999999999' }).size).toBe(100);
    expect(paging({ page_size: '0' }).size).toBe(10);
    expect(paging({ page_size: '2.7' }).size).toBe(2);
    expect(paging({ page_size: 'abc' }).size).toBe(10);
  });

  it('keeps numeric filters inside their columns', () => {
    expect(queryInt({ channel: '99999999999999999999' }, 'channel')).toBe(2_147_483_647);
    expect(queryInt({ type: '-99999999999' }, 'type')).toBe(-2_147_483_647);
    expect(queryInt({ type: 'abc' }, 'type')).toBe(0);
    expect(queryTime({ t: '99999999999999999999' }, 't')).toBe(Number.MAX_SAFE_INTEGER);
    expect(queryTime({ t: '1700000000.7' }, 't')).toBe(1_700_000_000);
  });
});

describe.each(testDatabases())('paged lists with numbers nobody should send, on $name', (database) => {
  let t: TestApp;
  let root: Session;

  const get = async (url: string) => {
    const res = await t.call(root, { method: 'GET', url });
    return { status: res.statusCode, body: res.json() as { success: boolean; message: string; data: unknown } };
  };

  beforeAll(async () => {
    t = await startTestApp(database);
    root = await t.root();
    for (let i = 0; i < 3; i++) {
      const res = await t.call(root, { method: 'POST', url: '/api/token/', payload: { name: `t${i}`, remain_quota: 100, expired_time: -1 } });
      expect(res.json().success).toBe(true);
      await recordLog(t.app.ctx.db.kysely, { userId: root.userId, username: 'root', type: 4, content: `log ${i}` });
    }
    const redemption = await t.call(root, { method: 'POST', url: '/api/redemption/', payload: { name: 'code', quota: 1, count: 3 } });
    expect(redemption.json().success).toBe(true);
    const channel = await t.call(root, { method: 'POST', url: '/api/channel/', payload: { name: 'c', type: 1, key: 'k1\nk2\nk3', models: 'gpt-4o' } });
    expect(channel.json().success).toBe(true);
  });
  afterAll(() => t.close());

  it('never answers 500 on any list, whatever p, size and page_size say', async () => {
    // Every GET without a path parameter, except the two that call upstreams and sign-out (it ends root's session,
    // which the next tests use).
    const leftOut = new Set(['/api/channel/test', '/api/channel/update_balance', '/api/user/logout']);
    const lists = t.app.accessTable.filter((r) => r.method === 'GET' && !r.url.includes(':') && !leftOut.has(r.url));
    const failures: string[] = [];
    for (const { url } of lists) {
      for (const n of NOT_SANE) {
        for (const query of [`p=${n}`, `size=${n}`, `page_size=${n}`, `p=${n}&page_size=${n}`]) {
          const res = await t.call(root, { method: 'GET', url: `${url}?${query}` });
          if (res.statusCode >= 500) failures.push(`${url}?${query.slice(0, 60)}: ${res.statusCode} ${res.body.slice(0, 100)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers an empty page past the end of every paged list', async () => {
    for (const url of ['/api/token/', '/api/token/search', '/api/channel/', '/api/channel/search', '/api/redemption/', '/api/redemption/search', '/api/mj/', '/api/task/']) {
      const res = await get(`${url}?p=99999999999999999999`);
      expect(res.status, url).toBe(200);
      expect(res.body, url).toMatchObject({ success: true, data: [] });
    }
    for (const url of ['/api/log/', '/api/log/self/', '/api/user/', '/api/user/search']) {
      const res = await get(`${url}?p=99999999999999999999`);
      expect(res.status, url).toBe(200);
      expect(res.body, url).toMatchObject({ success: true, data: { items: [] } });
    }
  });

  it('shows the first page for a negative, fractional or unreadable page number', async () => {
    const first = (await get('/api/token/?p=0&size=2')).body.data;
    expect(first).toHaveLength(2);
    for (const p of ['-1', '-99999999999999999999', '0.5', 'abc']) {
      expect((await get(`/api/token/?p=${p}&size=2`)).body.data, p).toEqual(first);
    }
    const logs = (await get('/api/log/?p=1&page_size=2')).body.data as { items: unknown[] };
    expect(logs.items).toHaveLength(2);
    for (const p of ['-1', '0', '-99999999999999999999', 'abc']) {
      expect(((await get(`/api/log/?p=${p}&page_size=2`)).body.data as { items: unknown[] }).items, p).toEqual(logs.items);
    }
  });

  it('never answers 500 for huge or odd numeric filters, cursors and targets', async () => {
    const failures: string[] = [];
    const urls: string[] = [];
    for (const n of NOT_SANE) {
      for (const name of ['type', 'channel', 'start_timestamp', 'end_timestamp']) {
        urls.push(`/api/log/?${name}=${n}`, `/api/log/self/?${name}=${n}`, `/api/log/stat?${name}=${n}`, `/api/log/self/stat?${name}=${n}`);
      }
      urls.push(`/api/data/?start_timestamp=${n}&end_timestamp=${n}`, `/api/data/self?end_timestamp=${n}`);
      urls.push(`/api/log/?p=2&cursor=${n}.${n}`);
    }
    urls.push('/api/log/?p=2&cursor=1700000000.999999999999999', '/api/log/?p=2&cursor=999999999999999.9999999999');
    for (const url of urls) {
      const res = await t.call(root, { method: 'GET', url });
      if (res.statusCode >= 500) failures.push(`${url.slice(0, 80)}: ${res.statusCode}`);
    }
    for (const n of ['99999999999999999999', '-99999999999999999999', '1e400']) {
      const res = await t.call(root, { method: 'DELETE', url: `/api/log/?target_timestamp=${n}` });
      if (res.statusCode >= 500) failures.push(`DELETE target_timestamp=${n}: ${res.statusCode}`);
    }
    expect(failures).toEqual([]);
  });
});
