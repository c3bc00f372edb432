import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_TYPE, type Page, type UserDto } from '@switchyard/shared';
import { testDatabases } from '../test/databases.js';
import { startTestApp, type Session, type TestApp } from '../test/app.js';
import { findUserById, findUserByUsername } from '../store/users.js';

describe.each(testDatabases())('user administration on $name', (database) => {
  let t: TestApp;
  let root: Session;
  let admin: Session;
  let admin2: Session;
  let common: Session;
  beforeAll(async () => {
    t = await startTestApp(database);
    root = await t.root();
    admin = await t.user('admin1');
    admin2 = await t.user('admin2');
    common = await t.user('common1');
    for (const s of [admin, admin2]) {
      const res = await t.call(root, { method: 'POST', url: '/api/user/manage', payload: { id: s.userId, action: 'promote' } });
      expect(res.json()).toEqual({ success: true, message: '', data: { status: 1, role: 10 } });
    }
  });
  afterAll(() => t.close());

  const call = (s: Session | null, method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) =>
    t.call(s, { method, url, payload }).then((r) => ({ status: r.statusCode, body: r.json() }));
  const manage = (s: Session, id: number, action: string) => call(s, 'POST', '/api/user/manage', { id, action }).then((r) => r.body);
  const row = async (id: number) => (await findUserById(t.app.ctx.db.kysely, id))!;
  const rootId = async () => (await findUserByUsername(t.app.ctx.db.kysely, 'root'))!.id;
  /** What the console's edit drawer sends: the loaded user plus changes. */
  async function editPayload(s: Session, id: number, changes: Record<string, unknown>) {
    const loaded = (await call(s, 'GET', `/api/user/${id}`)).body.data as UserDto;
    return { ...loaded, password: '', ...changes };
  }

  it('keeps the list, search and reads to admins', async () => {
    for (const url of ['/api/user/', '/api/user/search?keyword=a', `/api/user/${admin.userId}`, '/api/group/']) {
      const res = await call(common, 'GET', url);
      expect(res.status, url).toBe(403);
      expect(res.body).toEqual({ success: false, message: '无权进行此操作，权限不足' });
    }
    expect((await call(common, 'POST', '/api/user/manage', { id: common.userId, action: 'promote' })).status).toBe(403);
  });

  it('lists users newest first as a page {items, total, page, page_size}, p from 1 (0 read as 1)', async () => {
    const all = await call(admin, 'GET', '/api/user/?p=1&page_size=100');
    expect(all.body.success).toBe(true);
    const page = all.body.data as Page<UserDto>;
    const ids = page.items.map((u) => u.id);
    expect(page).toMatchObject({ page: 1, page_size: 100, total: ids.length });
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(ids).toEqual(expect.arrayContaining([admin.userId, common.userId, await rootId()]));
    expect(page.items[0]).not.toHaveProperty('password');
    expect(page.items[0]).not.toHaveProperty('access_token');
    const pageOf = async (query: string) => (await call(admin, 'GET', `/api/user/?${query}`)).body.data as Page<UserDto>;
    // The established console opens the list with p=0; its server reads that as the first page.
    for (const first of [await pageOf('p=0&page_size=2'), await pageOf('p=1&page_size=2')]) {
      expect(first).toMatchObject({ page: 1, page_size: 2, total: ids.length });
      expect(first.items.map((u) => u.id)).toEqual(ids.slice(0, 2));
    }
    const second = await pageOf('p=2&page_size=2');
    expect(second).toMatchObject({ page: 2, page_size: 2, total: ids.length });
    expect(second.items.map((u) => u.id)).toEqual(ids.slice(2, 4));
    expect(await pageOf('')).toMatchObject({ page: 1, page_size: 10 });
  });

  it('searches by exact id, by substring of username, display name and email, and by group', async () => {
    await call(root, 'POST', '/api/user/', { username: 'findme_1', display_name: '可找到的人', password: 'password123' });
    await call(root, 'POST', '/api/user/', { username: 'findme%2', password: 'password123' });
    const target = (await findUserByUsername(t.app.ctx.db.kysely, 'findme_1'))!;
    await call(root, 'PUT', '/api/user/', { ...(await editPayload(root, target.id, {})), email: 'hidden@mail.test', group: 'vip' });

    const names = async (query: string) =>
      ((await call(admin, 'GET', `/api/user/search?${query}`)).body.data as Page<UserDto>).items.map((u) => u.username).sort();
    expect(await names('keyword=findme')).toEqual(['findme%2', 'findme_1']);
    expect(await names(`keyword=${encodeURIComponent('  findme ')}`)).toEqual(['findme%2', 'findme_1']);
    expect(await names(`keyword=${encodeURIComponent('找到')}`)).toEqual(['findme_1']);
    expect(await names('keyword=hidden%40mail')).toEqual(['findme_1']);
    expect(await names(`keyword=${target.id}`)).toContain('findme_1');
    // % and _ are literal characters, not wildcards.
    expect(await names(`keyword=${encodeURIComponent('e%')}`)).toEqual(['findme%2']);
    expect(await names(`keyword=${encodeURIComponent('e_')}`)).toEqual(['findme_1']);
    expect(await names('keyword=findme&group=vip')).toEqual(['findme_1']);
    expect(await names('keyword=&group=vip')).toEqual(['findme_1']);
    expect(await names('keyword=99999999999999')).toEqual([]);
    // Paged as the list is: the total counts every match, p from 1.
    const search = async (query: string) => (await call(admin, 'GET', `/api/user/search?${query}`)).body.data as Page<UserDto>;
    expect(await search('keyword=findme&p=0&page_size=1')).toMatchObject({ total: 2, page: 1, page_size: 1, items: [{ username: 'findme%2' }] });
    expect(await search('keyword=findme&p=2&page_size=1')).toMatchObject({ total: 2, page: 2, items: [{ username: 'findme_1' }] });
  });

  it('reads one user unless the admin is not above them', async () => {
    const read = (s: Session, id: number | string) => call(s, 'GET', `/api/user/${id}`).then((r) => r.body);
    const body = await read(admin, common.userId);
    expect(body.success).toBe(true);
    expect(body.data).toMatchObject({ id: common.userId, username: 'common1', quota: 0, used_quota: 0, request_count: 0, group: 'default' });
    const denied = { success: false, message: '无权获取同级或更高等级用户的信息' };
    expect(await read(admin, admin2.userId)).toEqual(denied);
    expect(await read(admin, admin.userId)).toEqual(denied);
    expect(await read(admin, await rootId())).toEqual(denied);
    expect((await read(root, admin.userId)).data.role).toBe(10);
    expect((await read(root, await rootId())).data.role).toBe(100);
    expect(await read(root, 987654)).toEqual({ success: false, message: '用户不存在' });
    expect(await read(root, 'abc')).toEqual({ success: false, message: '无效的参数：id' });
  });

  it('creates users with the registration rules', async () => {
    const create = (payload: Record<string, unknown>) => call(admin, 'POST', '/api/user/', payload).then((r) => r.body);
    expect(await create({ username: 'made1', display_name: '', password: 'password123' })).toEqual({ success: true, message: '' });
    const made = (await findUserByUsername(t.app.ctx.db.kysely, 'made1'))!;
    expect(made).toMatchObject({ display_name: 'made1', role: 1, status: 1, group: 'default' });
    expect(made.aff_code).toMatch(/^[A-Za-z0-9]{4}$/);
    expect(await create({ username: 'made2', display_name: '显示名', password: 'password123', role: 100 })).toMatchObject({ success: true });
    expect(await findUserByUsername(t.app.ctx.db.kysely, 'made2')).toMatchObject({ display_name: '显示名', role: 1 });
    await expect(t.login('made2', 'password123')).resolves.toBeDefined();

    expect(await create({ username: 'made1', password: 'password123' })).toEqual({ success: false, message: '用户名已存在，或已注销' });
    expect(await create({ username: '', password: 'password123' })).toEqual({ success: false, message: '用户名不能为空' });
    expect(await create({ username: 'twelve_chars', password: 'password123' })).toMatchObject({ success: true });
    expect(await create({ username: 'thirteenchars', password: 'password123' })).toEqual({ success: false, message: '用户名长度不得大于 12 位！' });
    expect(await create({ username: 'made3', password: '' })).toEqual({ success: false, message: '密码长度不得小于 8 位！' });
    expect(await create({ username: 'made3', password: 'x'.repeat(21) })).toEqual({ success: false, message: '密码长度不得大于 20 位！' });
  });

  it('updates a user, logging a quota change', async () => {
    const target = await t.user('editme');
    const payload = await editPayload(admin, target.userId, {
      username: 'edited', display_name: '已编辑', group: 'vip', quota: 1500000, email: 'e@x.test',
    });
    expect((await call(admin, 'PUT', '/api/user/', payload)).body).toEqual({ success: true, message: '' });
    const edited = await row(target.userId);
    expect(edited).toMatchObject({ username: 'edited', display_name: '已编辑', group: 'vip', quota: 1500000, email: 'e@x.test', role: 1 });
    // Blank password leaves it unchanged.
    await expect(t.login('edited', 'password123')).resolves.toBeDefined();
    const logs = await t.app.ctx.db.kysely.selectFrom('logs').selectAll().where('user_id', '=', target.userId).execute();
    expect(logs.map((l) => [l.type, l.username, l.content])).toEqual([
      [LOG_TYPE.MANAGE, 'edited', '管理员将用户额度从 ＄0.000000 额度 修改为 ＄3.000000 额度'],
    ]);

    // Saving again without a quota change writes no log; a new password takes effect.
    const again = await editPayload(admin, target.userId, { password: 'brandnew123' });
    expect((await call(admin, 'PUT', '/api/user/', again)).body).toMatchObject({ success: true });
    await expect(t.login('edited', 'brandnew123')).resolves.toBeDefined();
    const count = await t.app.ctx.db.kysely.selectFrom('logs').selectAll().where('user_id', '=', target.userId).execute();
    expect(count).toHaveLength(1);
  });

  it('validates the update payload', async () => {
    const base = await editPayload(admin, common.userId, {});
    const update = (changes: Record<string, unknown>) => call(admin, 'PUT', '/api/user/', { ...base, ...changes }).then((r) => r.body);
    expect(await update({ quota: 'abc' })).toEqual({ success: false, message: '无效的参数：quota' });
    expect(await update({ quota: 1.5 })).toEqual({ success: false, message: '无效的参数：quota' });
    expect(await update({ quota: -1 })).toEqual({ success: false, message: '额度不能小于 0' });
    expect(await update({ id: '5' })).toEqual({ success: false, message: '无效的参数：id' });
    expect(await update({ password: 'short' })).toEqual({ success: false, message: '密码长度不得小于 8 位！' });
    expect(await update({ username: 'admin1' })).toEqual({ success: false, message: '用户名已存在，或已注销' });
    expect(await update({ username: '' })).toEqual({ success: false, message: '用户名不能为空' });
    expect(await update({ group: ' ' })).toEqual({ success: false, message: '分组不能为空' });
    expect(await update({ id: 987654 })).toEqual({ success: false, message: '用户不存在' });
    // The role in the payload is not how roles change.
    expect(await update({ role: 100 })).toMatchObject({ success: true });
    expect((await row(common.userId)).role).toBe(1);
  });

  it('does not let an admin edit an equal or higher role', async () => {
    const denied = { success: false, message: '无权更新同权限等级或更高权限等级的用户信息' };
    const other = await editPayload(root, admin2.userId, { quota: 999 });
    expect((await call(admin, 'PUT', '/api/user/', other)).body).toEqual(denied);
    const rootEdit = await editPayload(root, await rootId(), { quota: 1 });
    expect((await call(admin, 'PUT', '/api/user/', rootEdit)).body).toEqual(denied);
    expect((await call(root, 'PUT', '/api/user/', other)).body).toMatchObject({ success: true });
    expect((await row(admin2.userId)).quota).toBe(999);
  });

  it('applies the manage rules', async () => {
    const target = await t.user('managed');
    const rid = await rootId();
    expect(await manage(admin, target.userId, 'promote')).toEqual({ success: false, message: '普通管理员用户无法提升其他用户为管理员' });
    expect(await manage(admin, target.userId, 'demote')).toEqual({ success: false, message: '该用户已经是普通用户' });
    expect(await manage(root, target.userId, 'promote')).toEqual({ success: true, message: '', data: { status: 1, role: 10 } });
    expect(await manage(root, target.userId, 'promote')).toEqual({ success: false, message: '该用户已经是管理员' });
    const higher = { success: false, message: '无权更新同权限等级或更高权限等级的用户信息' };
    expect(await manage(admin, target.userId, 'demote')).toEqual(higher);
    expect(await manage(admin, target.userId, 'disable')).toEqual(higher);
    expect(await manage(admin, rid, 'disable')).toEqual(higher);
    expect(await manage(root, target.userId, 'demote')).toEqual({ success: true, message: '', data: { status: 1, role: 1 } });
    expect(await manage(root, rid, 'demote')).toEqual({ success: false, message: '无法降级超级管理员用户' });
    expect(await manage(root, rid, 'disable')).toEqual({ success: false, message: '无法禁用超级管理员用户' });
    expect(await manage(root, rid, 'delete')).toEqual({ success: false, message: '无法删除超级管理员用户' });
    expect(await manage(root, rid, 'promote')).toEqual({ success: false, message: '该用户已经是管理员' });
    expect(await manage(admin, target.userId, 'explode')).toEqual({ success: false, message: '无效的参数：action' });
    expect(await manage(admin, 987654, 'disable')).toEqual({ success: false, message: '用户不存在' });
  });

  it('locks a disabled user out at once, session and access token alike; enabled again, only new sessions work', async () => {
    const target = await t.user('lockme');
    const token = (await call(target, 'GET', '/api/user/token')).body.data as string;
    const viaToken = () => t.call(null, { method: 'GET', url: '/api/user/self', headers: { authorization: token, 'new-api-user': String(target.userId) } });
    expect((await viaToken()).statusCode).toBe(200);

    expect(await manage(admin, target.userId, 'disable')).toEqual({ success: true, message: '', data: { status: 2, role: 1 } });
    const bySession = await call(target, 'GET', '/api/user/self');
    expect(bySession).toEqual({ status: 403, body: { success: false, message: '用户已被封禁' } });
    expect((await viaToken()).statusCode).toBe(403);
    await expect(t.login('lockme', 'password123')).rejects.toThrow('用户名或密码错误，或用户已被封禁');
    expect(((await call(admin, 'GET', `/api/user/${target.userId}`)).body.data as UserDto).status).toBe(2);

    expect(await manage(admin, target.userId, 'enable')).toEqual({ success: true, message: '', data: { status: 1, role: 1 } });
    // The ban ended the sessions opened before it (a copied cookie must not come back to life).
    expect((await call(target, 'GET', '/api/user/self')).status).toBe(401);
    expect((await call(await t.login('lockme', 'password123'), 'GET', '/api/user/self')).status).toBe(200);
    expect((await viaToken()).statusCode).toBe(200);
  });

  it('deletes softly: the row stays, marked, and the account stops working', async () => {
    const target = await t.user('deleteme');
    const res = await manage(admin, target.userId, 'delete');
    expect(res).toEqual({ success: true, message: '', data: { status: 1, role: 1 } });
    expect((await call(target, 'GET', '/api/user/self')).status).toBe(401);
    const listed = ((await call(admin, 'GET', '/api/user/search?keyword=deleteme')).body.data as Page<UserDto>).items[0];
    expect(listed.DeletedAt).toBeGreaterThan(0);
    expect(await manage(admin, target.userId, 'enable')).toEqual({ success: false, message: '用户不存在' });
    expect(await call(null, 'POST', '/api/user/register', { username: 'deleteme', password: 'password123' })).toMatchObject({
      body: { success: false, message: '用户名已存在，或已注销' },
    });
  });
});
