import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { startTestApp, type Session, type TestApp } from '../test/app.js';

describe.each(testDatabases())('groups and usable models on $name', (database) => {
  let t: TestApp;
  let root: Session;
  let user: Session;
  beforeAll(async () => {
    t = await startTestApp(database);
    root = await t.root();
    user = await t.user('grouper');
    // Abilities arrive with channels in a later issue; rows are written directly here.
    const ability = (group: string, model: string, channel_id: number, enabled = 1) => ({
      group, model, channel_id, enabled, priority: 0, weight: 0, tag: '',
    });
    await t.app.ctx.db.kysely
      .insertInto('abilities')
      .values([
        ability('default', 'gpt-4o', 1),
        ability('default', 'gpt-4o', 2),
        ability('vip', 'claude-3-5-sonnet', 2),
        ability('default', 'switched-off', 3, 0),
        ability('svip', 'o1-pro', 4),
        ability('special', 'special-model', 5),
      ])
      .execute();
  });
  afterAll(() => t.close());

  const get = (s: Session, url: string) => t.call(s, { method: 'GET', url }).then((r) => r.json());
  const setGroup = (id: number, group: string) =>
    t.app.ctx.db.kysely.updateTable('users').set({ group }).where('id', '=', id).execute();

  it('lists all group names to admins', async () => {
    expect(await get(root, '/api/group/')).toEqual({ success: true, message: '', data: ['default', 'vip', 'svip'] });
    await t.app.ctx.options.set('GroupRatio', JSON.stringify({ default: 1, vip: 1.5, svip: 2, edu: 0.5 }));
    expect((await get(root, '/api/group/')).data).toEqual(['default', 'vip', 'svip', 'edu']);
  });

  it('gives each user the selectable groups with label and ratio, plus the own group', async () => {
    await t.app.ctx.options.set('GroupRatio', JSON.stringify({ default: 1, vip: 1.5, svip: 2 }));
    expect(await get(user, '/api/user/groups')).toEqual({
      success: true,
      message: '',
      data: { default: { desc: '默认分组', ratio: 1 }, vip: { desc: 'vip分组', ratio: 1.5 } },
    });
    await setGroup(user.userId, 'svip');
    expect((await get(user, '/api/user/groups')).data).toEqual({
      default: { desc: '默认分组', ratio: 1 },
      vip: { desc: 'vip分组', ratio: 1.5 },
      svip: { desc: '用户分组', ratio: 2 },
    });
    // A group without a configured ratio is billed at 1.
    await setGroup(user.userId, 'special');
    expect((await get(user, '/api/user/groups')).data.special).toEqual({ desc: '用户分组', ratio: 1 });
    await setGroup(user.userId, 'default');
  });

  it('lists the distinct enabled models of the groups a user may use', async () => {
    expect(await get(user, '/api/user/models')).toEqual({ success: true, message: '', data: ['claude-3-5-sonnet', 'gpt-4o'] });
    await setGroup(user.userId, 'svip');
    expect((await get(user, '/api/user/models')).data).toEqual(['claude-3-5-sonnet', 'gpt-4o', 'o1-pro']);
    await t.app.ctx.options.set('UserUsableGroups', JSON.stringify({ default: '默认分组' }));
    expect((await get(user, '/api/user/models')).data).toEqual(['gpt-4o', 'o1-pro']);
    await setGroup(user.userId, 'default');
    expect((await get(user, '/api/user/models')).data).toEqual(['gpt-4o']);
  });
});
