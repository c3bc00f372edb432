import { describe, expect, it } from 'vitest';
import { MENU, ROUTES, canAccess, readyRoutes, selectedMenuKey, visibleMenu, type MenuEntry } from './access';

describe('canAccess', () => {
  it('lets anyone see public pages and requires a user for private ones', () => {
    expect(canAccess('public', null)).toBe(true);
    expect(canAccess('user', null)).toBe(false);
    expect(canAccess('user', { role: 1 })).toBe(true);
  });
  it('requires role 10 for admin and 100 for root', () => {
    expect(canAccess('admin', { role: 1 })).toBe(false);
    expect(canAccess('admin', { role: 10 })).toBe(true);
    expect(canAccess('root', { role: 10 })).toBe(false);
    expect(canAccess('root', { role: 100 })).toBe(true);
  });
});

describe('visibleMenu', () => {
  it('shows token and settings to a user, plus channels and user management to an admin', () => {
    expect(visibleMenu({ role: 1 }, {}).map((m) => m.path)).toEqual(['/playground', '/pricing', '/chat', '/token', '/topup', '/log', '/setting']);
    expect(visibleMenu({ role: 10 }, {}).map((m) => m.path)).toEqual(['/playground', '/pricing', '/channel', '/chat', '/token', '/redemption', '/topup', '/user', '/log', '/setting']);
  });
  it('shows nothing private when signed out', () => {
    expect(visibleMenu(null, {}).map((m) => m.path)).toEqual(['/pricing']);
  });
  it('shows a flagged item only when its option is on', () => {
    const entries: MenuEntry[] = [{ path: '/detail', label: '数据看板', icon: 'dashboard', access: 'user', ready: true, flag: 'enable_data_export' }];
    expect(visibleMenu({ role: 1 }, { enable_data_export: false }, entries)).toEqual([]);
    expect(visibleMenu({ role: 1 }, { enable_data_export: true }, entries)).toHaveLength(1);
  });
  it('shows the drawing and task items to users and admins, each only while its option is on', () => {
    for (const role of [1, 10]) {
      const on = visibleMenu({ role }, { enable_drawing: true, enable_task: true }).map((m) => m.path);
      expect(on).toEqual(expect.arrayContaining(['/midjourney', '/task']));
      expect(on.indexOf('/midjourney')).toBe(on.indexOf('/task') - 1);
      expect(visibleMenu({ role }, { enable_drawing: true, enable_task: false }).map((m) => m.path)).not.toContain('/task');
      expect(visibleMenu({ role }, { enable_drawing: false, enable_task: true }).map((m) => m.path)).not.toContain('/midjourney');
    }
    expect(visibleMenu(null, { enable_drawing: true, enable_task: true }).map((m) => m.path)).toEqual(['/pricing']);
  });
  it('lists the flagged items in the spec order', () => {
    expect(visibleMenu({ role: 100 }, { enable_data_export: true, enable_drawing: true, enable_task: true }).map((m) => m.path)).toEqual([
      '/playground',
      '/pricing',
      '/channel',
      '/chat',
      '/token',
      '/redemption',
      '/topup',
      '/user',
      '/log',
      '/detail',
      '/midjourney',
      '/task',
      '/setting',
    ]);
  });
  it('keeps unbuilt features hidden', () => {
    const entries: MenuEntry[] = [{ path: '/later', label: '设置', icon: 'setting', access: 'user', ready: false }];
    expect(visibleMenu({ role: 100 }, {}, entries)).toEqual([]);
  });
});

describe('route table', () => {
  it('routes only built pages, each with a loader', () => {
    const paths = readyRoutes().map((r) => r.path);
    expect(paths).toContain('/token');
    expect(paths).toContain('/channel');
    expect(paths).toContain('/playground');
    expect(paths).toEqual(expect.arrayContaining(['/midjourney', '/task']));
    expect(Object.fromEntries(readyRoutes().map((r) => [r.path, r.access]))).toMatchObject({ '/midjourney': 'user', '/task': 'user' });
    expect(ROUTES.filter((r) => r.ready).every((r) => typeof r.load === 'function')).toBe(true);
  });
  it('highlights the longest matching sidebar item', () => {
    expect(selectedMenuKey('/user/edit/3', MENU)).toBe('/user');
    expect(selectedMenuKey('/token', MENU)).toBe('/token');
    expect(selectedMenuKey('/nowhere', MENU)).toBeUndefined();
  });
  it('highlights a chat target among the chat sub-items', () => {
    const entries: MenuEntry[] = MENU.map((m) =>
      m.path === '/chat' ? { ...m, children: [{ path: '/chat/0', label: 'A' }, { path: '/chat/1', label: 'B' }] } : m,
    );
    expect(selectedMenuKey('/chat/1', entries)).toBe('/chat/1');
    expect(selectedMenuKey('/chat', entries)).toBe('/chat');
  });
  it('keeps the chat page public as the spec lists it, and the chat redirect for signed-in users', () => {
    const access = Object.fromEntries(readyRoutes().map((r) => [r.path, r.access]));
    expect(access['/chat/:id?']).toBe('public');
    expect(access['/chat2link']).toBe('user');
  });
});
