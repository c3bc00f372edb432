import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { startTestApp, type Session, type TestApp } from '../test/app.js';

/*
 * Every create and update route checks its required fields and their types at the edge: a body that names none of
 * them (empty, or megabytes of unrelated JSON) changes nothing and is answered with a Chinese business error.
 */

interface Case {
  method: 'POST' | 'PUT';
  url: string;
  /** The answer to `{}`. */
  message: string;
}

const CASES: Case[] = [
  { method: 'POST', url: '/api/token/', message: '请输入令牌名称' },
  { method: 'PUT', url: '/api/token/', message: '无效的参数：id' },
  { method: 'PUT', url: '/api/token/?status_only=true', message: '无效的参数：id' },
  { method: 'POST', url: '/api/channel/', message: '请填写渠道名称和渠道密钥！' },
  { method: 'PUT', url: '/api/channel/', message: '无效的参数：id' },
  { method: 'POST', url: '/api/channel/batch', message: '请先选择要删除的通道！' },
  { method: 'POST', url: '/api/user/', message: '用户名不能为空' },
  { method: 'PUT', url: '/api/user/', message: '无效的参数：id' },
  { method: 'POST', url: '/api/user/manage', message: '无效的参数：id' },
  { method: 'POST', url: '/api/user/register', message: '用户名不能为空' },
  { method: 'POST', url: '/api/user/login', message: '请输入用户名和密码！' },
  { method: 'POST', url: '/api/redemption/', message: '兑换码名称长度必须在1-20之间' },
  { method: 'PUT', url: '/api/redemption/', message: '无效的参数：id' },
  { method: 'PUT', url: '/api/redemption/?status_only=true', message: '无效的参数：id' },
  { method: 'PUT', url: '/api/option/', message: '无效的参数：key' },
  { method: 'POST', url: '/api/user/topup', message: '未提供兑换码' },
  { method: 'POST', url: '/api/user/amount', message: '无效的参数：amount' },
  { method: 'POST', url: '/api/user/pay', message: '无效的参数：amount' },
  { method: 'POST', url: '/api/user/aff_transfer', message: '无效的参数：quota' },
];

const TABLES = ['users', 'tokens', 'channels', 'redemptions', 'options', 'top_ups', 'abilities'] as const;

/** About `mb` megabytes of JSON that names no field any route knows. */
function unrelatedJson(mb: number): string {
  const item = { kind: 'noise', values: [1, 2.5, true, null, 'text'], nested: { deeper: { deepest: 'x'.repeat(64) } } };
  const one = JSON.stringify(item);
  const count = Math.ceil((mb * 1024 * 1024) / (one.length + 1));
  return `{"noise":[${Array(count).fill(one).join(',')}],"more":{"a":"${'y'.repeat(1000)}"}}`;
}

describe.each(testDatabases())('required fields of create and update routes on $name', (database) => {
  let t: TestApp;
  let root: Session;

  async function counts(): Promise<Record<string, number>> {
    const db = t.app.ctx.db.kysely;
    const out: Record<string, number> = {};
    for (const table of TABLES) {
      const row = await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      out[table] = Number(row.n);
    }
    return out;
  }

  const send = (c: Pick<Case, 'method' | 'url'>, payload: string | object) =>
    t.call(root, { method: c.method, url: c.url, headers: { 'content-type': 'application/json' }, payload });

  beforeAll(async () => {
    t = await startTestApp(database);
    root = await t.root();
  });
  afterAll(() => t.close());

  it('answers {} on every create and update route with the missing field, changing nothing', async () => {
    const before = await counts();
    for (const c of CASES) {
      const res = await send(c, {});
      expect(res.statusCode, c.url).toBe(200);
      expect(res.json(), `${c.method} ${c.url}`).toEqual({ success: false, message: c.message });
    }
    expect(await counts()).toEqual(before);
  });

  it('does not create a nameless or exhausted token from 20 MB of unrelated JSON', async () => {
    const before = await counts();
    const res = await send({ method: 'POST', url: '/api/token/' }, unrelatedJson(20));
    expect(res.json()).toEqual({ success: false, message: '请输入令牌名称' });
    expect(await counts()).toEqual(before);
  });

  it('answers unrelated JSON on every create and update route as it answers {}', async () => {
    const before = await counts();
    const noise = unrelatedJson(1);
    for (const c of CASES) {
      expect((await send(c, noise)).json(), `${c.method} ${c.url}`).toEqual({ success: false, message: c.message });
    }
    expect(await counts()).toEqual(before);
  });

  it('refuses bodies that are not JSON objects', async () => {
    for (const c of CASES) {
      for (const payload of ['[]', '[{"name":"x"}]', '"text"', '42', 'true', 'null']) {
        const body = (await send(c, payload)).json() as { success: boolean; message: string };
        expect(body.success, `${c.url} ${payload}`).toBe(false);
        expect(body.message).toMatch(/[\u4e00-\u9fff]/);
      }
    }
  });

  it('needs a quota or the unlimited flag for a new token, and takes a deliberate 0', async () => {
    const create = async (payload: object) => (await send({ method: 'POST', url: '/api/token/' }, payload)).json();
    expect(await create({ name: 'x' })).toEqual({ success: false, message: '请设置令牌额度，或者设置为无限额度' });
    expect(await create({ name: '   ', remain_quota: 5 })).toEqual({ success: false, message: '请输入令牌名称' });
    expect(await create({ name: 5, remain_quota: 5 })).toEqual({ success: false, message: '无效的参数：name' });
    expect(await create({ name: 'x', remain_quota: '5' })).toEqual({ success: false, message: '令牌额度必须是不小于 0 的整数' });
    expect(await create({ name: 'unlimited', unlimited_quota: true })).toMatchObject({ success: true, data: { name: 'unlimited', remain_quota: 0, status: 1 } });
    expect(await create({ name: 'empty on purpose', remain_quota: 0 })).toMatchObject({ success: true, data: { status: 4 } });
  });

  it('refuses ids no row can have instead of handing them to the database', async () => {
    for (const id of [2 ** 31, 99_999_999_999, 1e20, -1, 0, 1.5]) {
      for (const c of [
        { method: 'PUT' as const, url: '/api/token/' },
        { method: 'PUT' as const, url: '/api/channel/' },
        { method: 'PUT' as const, url: '/api/user/' },
        { method: 'POST' as const, url: '/api/user/manage' },
        { method: 'PUT' as const, url: '/api/redemption/' },
      ]) {
        const res = await send(c, { id, action: 'disable', name: 'x' });
        expect(res.statusCode, `${c.url} ${id}`).toBe(200);
        expect(res.json(), `${c.url} ${id}`).toEqual({ success: false, message: '无效的参数：id' });
      }
      const batch = await send({ method: 'POST', url: '/api/channel/batch' }, { ids: [id] });
      expect(batch.json()).toEqual({ success: false, message: '无效的参数：ids.0' });
    }
    const many = await send({ method: 'POST', url: '/api/channel/batch' }, { ids: Array.from({ length: 100_000 }, (_, i) => i + 1) });
    expect(many.json()).toEqual({ success: false, message: '一次最多删除 1000 个渠道' });
    for (const url of ['/api/token/', '/api/channel/', '/api/redemption/', '/api/user/']) {
      const res = await t.call(root, { method: 'GET', url: `${url}99999999999` });
      expect(res.statusCode, url).toBe(200);
      expect(res.json().success, url).toBe(false);
    }
  });
});
