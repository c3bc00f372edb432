import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_TYPE, type RedemptionDto, type UserDto } from '@switchyard/shared';
import { testDatabases } from '../test/databases.js';
import { startTestApp, type Session, type TestApp } from '../test/app.js';
import { hashPassword } from '../auth/password.js';
import { insertUser } from '../store/users.js';
import { randomAlphanumeric } from '../lib/random.js';
import { nowSeconds } from '../lib/time.js';

interface Body<T = unknown> {
  success: boolean;
  message: string;
  data: T;
}

describe.each(testDatabases())('redemption API on $name', (database) => {
  let t: TestApp;
  let root: Session;
  let admin: Session;
  let alice: Session;
  let n = 0;

  async function makeUser(username: string, role = 1, quota = 0): Promise<Session> {
    await insertUser(t.app.ctx.db.kysely, {
      username,
      password: await hashPassword('password123'),
      aff_code: randomAlphanumeric(8),
      role,
      quota,
    });
    return t.login(username, 'password123');
  }

  async function call<T = RedemptionDto>(session: Session | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
    const res = await t.call(session, { method, url, payload });
    return { status: res.statusCode, body: res.json() as Body<T> };
  }

  async function create(fields: object = {}, session: Session = root): Promise<string[]> {
    const { body } = await call<string[]>(session, 'POST', '/api/redemption/', { name: 'promo', quota: 100000, count: 1, ...fields });
    expect(body).toMatchObject({ success: true, message: '' });
    return body.data;
  }

  /** The code's row as the list shows it. */
  async function codeOf(key: string): Promise<RedemptionDto> {
    const { body } = await call<RedemptionDto[]>(root, 'GET', '/api/redemption/?p=0&page_size=100');
    const row = body.data.find((r) => r.key === key);
    if (!row) throw new Error(`code ${key} not listed`);
    return row;
  }

  const redeem = (session: Session | null, key: unknown) => call<number>(session, 'POST', '/api/user/topup', { key });
  const self = async (session: Session) => (await call<UserDto>(session, 'GET', '/api/user/self')).body.data;

  beforeAll(async () => {
    t = await startTestApp(database);
    root = await t.root();
    admin = await makeUser('carol', 10);
    alice = await makeUser('alice');
  });
  afterAll(() => t.close());

  describe('administration', () => {
    it('creates codes and answers with the list of their keys', async () => {
      const keys = await create({ name: 'launch', quota: 250000, count: 3 }, admin);
      expect(keys).toHaveLength(3);
      for (const key of keys) expect(key).toMatch(/^[0-9a-f]{32}$/);
      const row = await codeOf(keys[0]);
      expect(row).toMatchObject({ name: 'launch', quota: 250000, status: 1, used_user_id: 0, redeemed_time: 0, user_id: admin.userId });
      expect(Math.abs(row.created_time - nowSeconds())).toBeLessThan(5);
    });

    it('validates name, count and quota with their own messages', async () => {
      const bad = async (fields: object) => (await call(root, 'POST', '/api/redemption/', { name: 'x', quota: 1, count: 1, ...fields })).body;
      expect(await bad({ name: '' })).toEqual({ success: false, message: '兑换码名称长度必须在1-20之间' });
      expect(await bad({ name: '   ' })).toEqual({ success: false, message: '兑换码名称长度必须在1-20之间' });
      expect(await bad({ name: 'x'.repeat(21) })).toEqual({ success: false, message: '兑换码名称长度必须在1-20之间' });
      expect(await bad({ count: 0 })).toEqual({ success: false, message: '兑换码个数必须大于0' });
      expect(await bad({ count: -3 })).toEqual({ success: false, message: '兑换码个数必须大于0' });
      expect(await bad({ count: 101 })).toEqual({ success: false, message: '一次兑换码批量生成的个数不能大于 100' });
      expect(await bad({ quota: 0 })).toEqual({ success: false, message: '兑换码额度必须是大于 0 的整数' });
      expect(await bad({ quota: 1.5 })).toEqual({ success: false, message: '兑换码额度必须是大于 0 的整数' });
      expect(await bad({ quota: '100' })).toEqual({ success: false, message: '兑换码额度必须是大于 0 的整数' });
    });

    it('accepts a 20-character Chinese name, trimmed, and makes 100 codes at once', async () => {
      const name = '兑'.repeat(20);
      const keys = await create({ name: `  ${name} `, count: 100, quota: 1 });
      expect(new Set(keys).size).toBe(100);
      expect((await codeOf(keys[99])).name).toBe(name);
    });

    it('defaults quota to 100000 and count to 1', async () => {
      const { body } = await call<string[]>(root, 'POST', '/api/redemption/', { name: 'defaults' });
      expect(body.data).toHaveLength(1);
      expect((await codeOf(body.data[0])).quota).toBe(100000);
    });

    it('pages the list newest first, with the page size asked for', async () => {
      await create({ name: 'page-a' });
      await create({ name: 'page-b' });
      const first = (await call<RedemptionDto[]>(root, 'GET', '/api/redemption/?p=0&page_size=1')).body.data;
      const second = (await call<RedemptionDto[]>(root, 'GET', '/api/redemption/?p=1&page_size=1')).body.data;
      expect(first.map((r) => r.name)).toEqual(['page-b']);
      expect(second.map((r) => r.name)).toEqual(['page-a']);
      const plain = (await call<RedemptionDto[]>(root, 'GET', '/api/redemption/?p=0')).body.data;
      expect(plain).toHaveLength(10);
    });

    it('reads one code by id, and says so when there is none', async () => {
      const [key] = await create({ name: 'one' });
      const row = await codeOf(key);
      const { body } = await call(root, 'GET', `/api/redemption/${row.id}`);
      expect(body).toEqual({ success: true, message: '', data: row });
      expect((await call(root, 'GET', '/api/redemption/987654')).body).toEqual({ success: false, message: '兑换码不存在' });
      expect((await call(root, 'GET', '/api/redemption/abc')).body).toEqual({ success: false, message: '兑换码不存在' });
    });

    it('searches by id or by name', async () => {
      const [key] = await create({ name: 'Findable_1' });
      const row = await codeOf(key);
      const byName = (await call<RedemptionDto[]>(root, 'GET', '/api/redemption/search?keyword=findable_')).body.data;
      expect(byName.map((r) => r.id)).toEqual([row.id]);
      const byId = (await call<RedemptionDto[]>(root, 'GET', `/api/redemption/search?keyword=${row.id}`)).body.data;
      expect(byId.map((r) => r.id)).toContain(row.id);
      const trimmed = (await call<RedemptionDto[]>(root, 'GET', '/api/redemption/search?keyword=%20Findable_1%20')).body.data;
      expect(trimmed.map((r) => r.id)).toEqual([row.id]);
      expect((await call<RedemptionDto[]>(root, 'GET', '/api/redemption/search?keyword=nothing-like-it')).body.data).toEqual([]);
    });

    it('updates name and quota of an unused code and returns it', async () => {
      const [key] = await create({ name: 'before', quota: 10 });
      const row = await codeOf(key);
      // The console sends the whole loaded code; the status in it is not applied.
      const { body } = await call(root, 'PUT', '/api/redemption/', { ...row, name: 'after', quota: 20, status: 3 });
      expect(body.success).toBe(true);
      expect(body.data).toMatchObject({ id: row.id, name: 'after', quota: 20, status: 1 });
      expect((await call(root, 'PUT', '/api/redemption/', { id: row.id, name: '' })).body.message).toBe('兑换码名称长度必须在1-20之间');
      expect((await call(root, 'PUT', '/api/redemption/', { id: row.id, quota: -5 })).body.message).toBe('兑换码额度必须是大于 0 的整数');
      expect((await call(root, 'PUT', '/api/redemption/', { id: 987654, name: 'x' })).body).toEqual({ success: false, message: '兑换码不存在' });
    });

    it('disables and enables a code with a status-only update', async () => {
      const [key] = await create({ name: 'toggle' });
      const { id } = await codeOf(key);
      const off = await call(root, 'PUT', '/api/redemption/?status_only=true', { id, status: 2 });
      expect(off.body).toMatchObject({ success: true, data: { id, status: 2 } });
      expect((await call(root, 'PUT', '/api/redemption/', { id, name: 'renamed' })).body.message).toBe('只能编辑未使用的兑换码');
      const on = await call(root, 'PUT', '/api/redemption/?status_only=true', { id, status: 1 });
      expect(on.body).toMatchObject({ success: true, data: { id, status: 1 } });
      const bad = await call(root, 'PUT', '/api/redemption/?status_only=true', { id, status: 3 });
      expect(bad.body).toEqual({ success: false, message: '无效的兑换码状态' });
    });

    it('deletes a code: it leaves the list and can no longer be read or redeemed', async () => {
      const [key] = await create({ name: 'doomed' });
      const { id } = await codeOf(key);
      expect((await call(root, 'DELETE', `/api/redemption/${id}/`)).body).toEqual({ success: true, message: '' });
      expect((await call(root, 'GET', `/api/redemption/${id}`)).body.message).toBe('兑换码不存在');
      expect((await call(root, 'DELETE', `/api/redemption/${id}`)).body).toEqual({ success: false, message: '兑换码不存在' });
      expect((await redeem(alice, key)).body).toEqual({ success: false, message: '兑换失败，无效的兑换码' });
    });
  });

  describe('redeeming', () => {
    it('adds the code quota: data is the quota added, and a top-up log records it', async () => {
      const user = await makeUser(`u${++n}`, 1, 1000);
      const [key] = await create({ name: 'gift', quota: 500000 });
      const { status, body } = await redeem(user, key);
      expect(status).toBe(200);
      expect(body).toEqual({ success: true, message: '', data: 500000 });
      expect((await self(user)).quota).toBe(501000);
      const code = await codeOf(key);
      expect(code).toMatchObject({ status: 3, used_user_id: user.userId });
      expect(Math.abs(code.redeemed_time - nowSeconds())).toBeLessThan(5);
      const logs = await t.app.ctx.db.kysely.selectFrom('logs').selectAll().where('user_id', '=', user.userId).execute();
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatchObject({ type: LOG_TYPE.TOPUP, content: `通过兑换码充值 ＄1.000000 额度，兑换码ID ${code.id}`, quota: 500000 });
    });

    it('refuses a used code the second time, for anyone', async () => {
      const [key] = await create({ name: 'once' });
      expect((await redeem(alice, key)).body.success).toBe(true);
      expect((await redeem(alice, key)).body).toEqual({ success: false, message: '兑换失败，该兑换码已被使用' });
      expect((await redeem(admin, key)).body).toEqual({ success: false, message: '兑换失败，该兑换码已被使用' });
    });

    it('refuses a disabled code, and a used code cannot be switched back on', async () => {
      const user = await makeUser(`u${++n}`);
      const [key] = await create({ name: 'off' });
      const { id } = await codeOf(key);
      await call(root, 'PUT', '/api/redemption/?status_only=true', { id, status: 2 });
      expect((await redeem(user, key)).body).toEqual({ success: false, message: '兑换失败，该兑换码已被禁用' });
      expect((await self(user)).quota).toBe(0);

      const [used] = await create({ name: 'spent' });
      await redeem(user, used);
      const usedId = (await codeOf(used)).id;
      const revive = await call(root, 'PUT', '/api/redemption/?status_only=true', { id: usedId, status: 1 });
      expect(revive.body).toEqual({ success: false, message: '兑换码已被使用，无法启用或禁用' });
      expect((await call(root, 'PUT', '/api/redemption/', { id: usedId, quota: 999999 })).body.message).toBe('只能编辑未使用的兑换码');
      expect((await redeem(alice, used)).body.message).toBe('兑换失败，该兑换码已被使用');
    });

    it('asks for a code when none is given and refuses unknown ones', async () => {
      expect((await redeem(alice, '')).body).toEqual({ success: false, message: '未提供兑换码' });
      expect((await redeem(alice, '   ')).body).toEqual({ success: false, message: '未提供兑换码' });
      expect((await redeem(alice, undefined)).body).toEqual({ success: false, message: '未提供兑换码' });
      expect((await redeem(alice, 'not-a-code')).body).toEqual({ success: false, message: '兑换失败，无效的兑换码' });
      expect((await redeem(alice, '0'.repeat(32))).body).toEqual({ success: false, message: '兑换失败，无效的兑换码' });
      expect((await redeem(alice, 42)).body.success).toBe(false);
    });

    it('forgives blanks around a pasted code and upper case', async () => {
      const user = await makeUser(`u${++n}`);
      const [key] = await create({ name: 'pasted', quota: 7 });
      expect((await redeem(user, `  ${key.toUpperCase()}\n`)).body).toEqual({ success: true, message: '', data: 7 });
    });

    it('credits 20 parallel redeems of one code exactly once', async () => {
      const users = await Promise.all(Array.from({ length: 4 }, () => makeUser(`p${++n}`)));
      const [key] = await create({ name: 'race', quota: 300000 });
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => redeem(users[i % users.length], key)));
      const won = answers.filter((a) => a.body.success);
      expect(won).toHaveLength(1);
      expect(won[0].body.data).toBe(300000);
      for (const a of answers.filter((x) => !x.body.success)) expect(a.body.message).toBe('兑换失败，该兑换码已被使用');
      const quotas = await Promise.all(users.map(async (u) => (await self(u)).quota));
      expect(quotas.reduce((a, b) => a + b, 0)).toBe(300000);
      const logs = await t.app.ctx.db.kysely
        .selectFrom('logs')
        .select('id')
        .where('type', '=', LOG_TYPE.TOPUP)
        .where('user_id', 'in', users.map((u) => u.userId))
        .execute();
      expect(logs).toHaveLength(1);
    });

    it('shows the new balance to the relay at once', async () => {
      const user = await makeUser(`u${++n}`);
      expect((await t.app.ctx.authCache.user(user.userId))?.quota).toBe(0);
      const [key] = await create({ name: 'cache', quota: 1234 });
      await redeem(user, key);
      expect((await t.app.ctx.authCache.user(user.userId))?.quota).toBe(1234);
    });
  });

  describe('authorization', () => {
    it('lets only admins manage codes', async () => {
      const [key] = await create({ name: 'guarded' });
      const { id } = await codeOf(key);
      const attempts: Array<['GET' | 'POST' | 'PUT' | 'DELETE', string, object?]> = [
        ['GET', '/api/redemption/?p=0'],
        ['GET', '/api/redemption/search?keyword=guarded'],
        ['GET', `/api/redemption/${id}`],
        ['POST', '/api/redemption/', { name: 'mine', quota: 1, count: 1 }],
        ['PUT', '/api/redemption/', { id, quota: 999 }],
        ['PUT', '/api/redemption/?status_only=true', { id, status: 2 }],
        ['DELETE', `/api/redemption/${id}/`],
      ];
      for (const [method, url, payload] of attempts) {
        expect((await call(alice, method, url, payload)).status).toBe(403);
        expect((await call(null, method, url, payload)).status).toBe(401);
      }
      expect(await codeOf(key)).toMatchObject({ status: 1, quota: 100000 });
      expect((await call<RedemptionDto[]>(admin, 'GET', '/api/redemption/search?keyword=guarded')).body.data).toHaveLength(1);
    });

    it('needs a signed-in user to redeem', async () => {
      const [key] = await create({ name: 'anon' });
      expect((await redeem(null, key)).status).toBe(401);
      expect((await codeOf(key)).status).toBe(1);
    });

    it('declares the levels of the calls', () => {
      const level = (method: string, url: string) => t.app.accessTable.find((r) => r.method === method && r.url === url)?.access;
      for (const [method, url] of [
        ['GET', '/api/redemption/'],
        ['GET', '/api/redemption/search'],
        ['GET', '/api/redemption/:id'],
        ['POST', '/api/redemption/'],
        ['PUT', '/api/redemption/'],
        ['DELETE', '/api/redemption/:id/'],
      ]) {
        expect(level(method, url)).toBe('admin');
      }
      expect(level('POST', '/api/user/topup')).toBe('user');
    });
  });
});
