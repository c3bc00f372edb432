import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Access } from '../auth/guard.js';
import { testDatabases } from '../test/databases.js';
import { startTestApp, type Session, type TestApp } from '../test/app.js';

/*
 * The authorization matrix: every registered /api route x every kind of caller. Calls use ids that match nothing
 * and minimal bodies, so an allowed call answers with a business result and a refused one with 401/403.
 */

type Principal = 'anonymous' | 'user' | 'other' | 'admin' | 'root';
const PRINCIPALS: Principal[] = ['anonymous', 'user', 'other', 'admin', 'root'];

const ALLOWED: Record<Access, Principal[]> = {
  public: ['anonymous', 'user', 'other', 'admin', 'root'],
  user: ['user', 'other', 'admin', 'root'],
  admin: ['admin', 'root'],
  root: ['root'],
};

/** Routes that would end the caller's own account: each allowed caller gets a throw-away account for them. */
const SELF_DESTRUCTIVE = new Set(['DELETE /api/user/self']);

const MISSING_ID = '987654';

function concreteUrl(url: string): string {
  return url.replace(/:[a-z_]+/gi, MISSING_ID);
}

describe.each(testDatabases())('authorization matrix on $name', (database) => {
  let t: TestApp;
  const sessions = {} as Record<Exclude<Principal, 'anonymous'>, Session>;
  let counter = 0;

  async function freshSession(kind: Principal): Promise<Session | null> {
    if (kind === 'anonymous') return null;
    const name = `tmp${++counter}`;
    const session = await t.user(name);
    if (kind === 'admin' || kind === 'root') {
      const root = await t.root();
      await t.call(root, { method: 'POST', url: '/api/user/manage', payload: { id: session.userId, action: 'promote' } });
      if (kind === 'root') {
        // A second super admin is never made through the API; this one exists for the matrix only.
        await t.app.ctx.db.kysely.updateTable('users').set({ role: 100 }).where('id', '=', session.userId).execute();
      }
    }
    return session;
  }

  beforeAll(async () => {
    t = await startTestApp(database);
    sessions.root = await t.root();
    sessions.user = await t.user('alice');
    sessions.other = await t.user('bob');
    sessions.admin = await t.user('carol');
    const promote = await t.call(sessions.root, {
      method: 'POST',
      url: '/api/user/manage',
      payload: { id: sessions.admin.userId, action: 'promote' },
    });
    expect(promote.json().data.role).toBe(10);
  });
  afterAll(() => t.close());

  it('guards every console route as declared', async () => {
    const table = t.app.accessTable;
    expect(table.length).toBeGreaterThan(20);
    const failures: string[] = [];
    for (const route of table) {
      const key = `${route.method} ${route.url}`;
      const allowedSet = ALLOWED[route.access];
      for (const principal of PRINCIPALS) {
        const session =
          SELF_DESTRUCTIVE.has(key) || principal === 'anonymous'
            ? await freshSession(principal)
            : sessions[principal];
        const res = await t.call(session, {
          method: route.method as 'GET',
          url: concreteUrl(route.url),
          ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
        });
        const allowed = res.statusCode !== 401 && res.statusCode !== 403;
        if (allowed !== allowedSet.includes(principal)) {
          failures.push(`${key} as ${principal}: HTTP ${res.statusCode} ${res.body.slice(0, 120)}`);
        }
        if (res.statusCode >= 500) failures.push(`${key} as ${principal}: server error ${res.body.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('knows the level of the calls the spec names', () => {
    const level = (method: string, url: string) => t.app.accessTable.find((r) => r.method === method && r.url === url)?.access;
    expect(level('GET', '/api/status')).toBe('public');
    expect(level('POST', '/api/user/login')).toBe('public');
    expect(level('POST', '/api/user/register')).toBe('public');
    expect(level('GET', '/api/user/self')).toBe('user');
    expect(level('GET', '/api/token/')).toBe('user');
    expect(level('GET', '/api/user/')).toBe('admin');
    expect(level('POST', '/api/user/manage')).toBe('admin');
    expect(level('GET', '/api/group/')).toBe('admin');
    expect(level('GET', '/api/option/')).toBe('root');
    expect(level('PUT', '/api/option/')).toBe('root');
    expect(level('GET', '/api/data/')).toBe('admin');
    expect(level('GET', '/api/data/self')).toBe('user');
    expect(level('GET', '/api/pricing')).toBe('public');
    expect(level('POST', '/api/user/aff_transfer')).toBe('user');
  });

  it('lets a disabled account do nothing, even with a session opened before the ban', async () => {
    const victim = await freshSession('user');
    const root = await t.root();
    await t.call(root, { method: 'POST', url: '/api/user/manage', payload: { id: victim!.userId, action: 'disable' } });
    const res = await t.call(victim, { method: 'GET', url: '/api/user/self' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ success: false, message: '用户已被封禁' });
  });
});
