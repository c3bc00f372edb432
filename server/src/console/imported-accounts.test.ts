import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../import/runner.js';
import { findUserById } from '../store/users.js';
import { testDatabases } from '../test/databases.js';
import { DEFAULT_ADDRESS_LIMITS, startTestApp, type Session, type TestApp } from '../test/app.js';
import { incumbentDatabase, type IncumbentDb } from '../test/incumbent-fixture.js';
import { startFakeGitHub, type FakeGitHub, type GitHubUser } from '../test/mocks/github.js';

/*
 * Accounts imported from new-api (the fixture's alice: bcrypt hash of "password", GitHub binding "gh-1", which is
 * the GitHub login the established gateway stores), signing in for the first time on each target database.
 * Every per-address limit is at its production default.
 */

const APP = { clientId: 'Iv1.import-client', clientSecret: 'import-client-secret' };
const ALICE = 2;
const BOB = 3;

describe.each(testDatabases())('accounts imported from new-api into $name', (database) => {
  let incumbent: IncumbentDb;
  let github: FakeGitHub;
  let t: TestApp;
  beforeAll(async () => {
    incumbent = await incumbentDatabase('new-api', 'sqlite', { logs: 5 });
    github = await startFakeGitHub(APP, { id: 1, login: 'nobody', name: null, email: null });
    const target = await database.open();
    const source = await incumbent.source();
    try {
      await runImport(source, incumbent.location, target.db);
    } finally {
      await source.close();
    }
    t = await startTestApp({ name: database.name, open: async () => target }, { ...DEFAULT_ADDRESS_LIMITS, GITHUB_OAUTH_URL: github.url, GITHUB_API_URL: github.url });
    for (const [key, value] of [['GitHubClientId', APP.clientId], ['GitHubClientSecret', APP.clientSecret], ['GitHubOAuthEnabled', 'true']] as const) {
      await t.app.ctx.options.set(key, value);
    }
  });
  afterAll(async () => {
    await t?.close();
    await incumbent?.drop();
    await github?.close();
  });

  const db = () => t.app.ctx.db.kysely;
  const countUsers = async () => (await db().selectFrom('users').select('id').execute()).length;

  async function gitHubSignIn(user: GitHubUser, session?: Session) {
    const state = await t.call(null, { method: 'GET', url: '/api/oauth/state' });
    const cookies = [`oauth_state=${state.cookies.find((c) => c.name === 'oauth_state')!.value}`, session?.headers.cookie].filter(Boolean).join('; ');
    const res = await t.call(null, {
      method: 'GET',
      url: `/api/oauth/github?code=${github.issueCode(user)}&state=${state.json().data}`,
      headers: { cookie: cookies, ...(session ? { 'new-api-user': String(session.userId) } : {}) },
    });
    const cookie = res.cookies.filter((c) => c.name === 'session').map((c) => `${c.name}=${c.value}`).join('; ');
    return { body: res.json() as { success: boolean; message: string; data?: { id: number } }, cookie };
  }

  it("keeps the first password sign-in's session (the one that replaces the imported hash) for the console", async () => {
    const session = await t.login('bob', 'password');
    expect((await findUserById(db(), BOB))!.password).toMatch(/^scrypt\$/);
    for (const url of ['/api/user/self', '/api/token/?p=0&size=10', '/api/log/self?p=0&size=10']) {
      const res = await t.call(session, { method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.json().success, url).toBe(true);
    }
    expect((await t.call(session, { method: 'GET', url: '/api/user/self' })).json().data).toMatchObject({ id: BOB, username: 'bob', quota: 1_000_000 });
    // The second sign-in verifies the new hash and works as well.
    expect((await t.call(await t.login('bob', 'password'), { method: 'GET', url: '/api/user/self' })).statusCode).toBe(200);
  });

  it('signs the GitHub user whose imported binding holds the login in to that account, and binds the id from then on', async () => {
    const before = await countUsers();
    const gh: GitHubUser = { id: 5_550_001, login: 'gh-1', name: 'Alice', email: null };
    const first = await gitHubSignIn(gh);
    expect(first.body).toMatchObject({ success: true, message: '登录成功！', data: { id: ALICE } });
    expect(await countUsers()).toBe(before);
    expect((await findUserById(db(), ALICE))!.github_id).toBe(String(gh.id));
    const self = await t.call(null, { method: 'GET', url: '/api/user/self', headers: { cookie: first.cookie, 'new-api-user': String(ALICE) } });
    expect(self.json().data).toMatchObject({ id: ALICE, quota: 2_147_483_647 });
    // Renamed on GitHub afterwards: the id finds the account.
    expect((await gitHubSignIn({ ...gh, login: 'alice-renamed' })).body).toMatchObject({ success: true, data: { id: ALICE } });
    expect(await countUsers()).toBe(before);
  });

  it('refuses to bind a GitHub account whose login an imported account holds, and rewrites the own imported binding', async () => {
    await db().updateTable('users').set({ github_id: 'dave-gh' }).where('username', '=', 'dave').execute();
    await db().updateTable('users').set({ github_id: 'root-gh' }).where('username', '=', 'root').execute();
    const root = await t.login('root', 'password');
    const daves: GitHubUser = { id: 5_550_002, login: 'dave-gh', name: null, email: null };
    expect((await gitHubSignIn(daves, root)).body).toEqual({ success: false, message: '该 GitHub 账户已被绑定' });
    expect((await findUserById(db(), root.userId))!.github_id).toBe('root-gh');
    const roots: GitHubUser = { id: 5_550_003, login: 'root-gh', name: null, email: null };
    expect((await gitHubSignIn(roots, root)).body).toEqual({ success: true, message: 'bind' });
    expect((await findUserById(db(), root.userId))!.github_id).toBe(String(roots.id));
  });
});
