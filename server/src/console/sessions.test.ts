import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { hashPassword } from '../auth/password.js';
import { connect } from '../db/connect.js';
import { insertUser } from '../store/users.js';
import { testDatabases } from '../test/databases.js';
import { DEFAULT_ADDRESS_LIMITS, startTestApp, type Session, type TestApp } from '../test/app.js';
import { fresh, startServerProcess, type ServerProcess } from '../test/server-process.js';

/*
 * Password sign-in by username or email, and sessions that end for good: sign-out, a ban and a new password set by
 * an administrator end them on every worker and node, copies of the cookie included. Every per-address limit is at
 * its production default; each test signs in from an address of its own (X-Forwarded-For from loopback).
 */

const WRONG = { success: false, message: '用户名或密码错误，或用户已被封禁' };
const SIGNED_OUT = { success: false, message: '无权进行此操作，未登录且未提供 access token' };
const PASSWORD = 'password123';

let nextAddress = 1;
const newAddress = () => `198.51.100.${nextAddress++}`;

describe.each(testDatabases())('password sign-in and sessions on $name', (database) => {
  let t: TestApp;
  let root: Session;
  beforeAll(async () => {
    t = await startTestApp(database, DEFAULT_ADDRESS_LIMITS);
    root = await t.root();
  });
  afterAll(() => t.close());

  const from = (ip: string, opts: InjectOptions) => t.app.inject({ ...opts, headers: { ...(opts.headers ?? {}), 'x-forwarded-for': ip } });

  async function account(username: string, email = ''): Promise<number> {
    return insertUser(t.app.ctx.db.kysely, { username, email, password: await hashPassword(PASSWORD), aff_code: username.slice(0, 4) });
  }

  async function signIn(ip: string, login: string, password = PASSWORD) {
    const res = await from(ip, { method: 'POST', url: '/api/user/login', payload: { username: login, password } });
    const session: Session | null = res.json().success
      ? { userId: res.json().data.id, headers: { cookie: res.cookies.map((c) => `${c.name}=${c.value}`).join('; '), 'new-api-user': String(res.json().data.id) } }
      : null;
    return { res, body: res.json() as { success: boolean; message: string; data?: { id: number; username: string } }, session };
  }

  const self = (session: Session) => t.call(session, { method: 'GET', url: '/api/user/self' });

  it('signs in by username or by email address, with the same refusal for every wrong or unknown one', async () => {
    const id = await account('mailuser', 'mail.user@example.com');
    const ip = newAddress();
    const byName = await signIn(ip, 'mailuser');
    const byEmail = await signIn(ip, ' mail.user@example.com ');
    expect(byName.body).toMatchObject({ success: true, message: '登录成功！', data: { id, username: 'mailuser' } });
    expect(byEmail.body).toEqual(byName.body);
    expect((await self(byEmail.session!)).json()).toMatchObject({ success: true, data: { id, email: 'mail.user@example.com' } });
    for (const login of ['mailuser', 'mail.user@example.com', 'nobody@example.com', 'MAIL.USER@example.com']) {
      expect((await signIn(ip, login, 'wrong-password')).body, login).toEqual(WRONG);
    }
    expect((await signIn(ip, 'nobody@example.com')).body).toEqual(WRONG);
  });

  it('counts sign-ins by username and by email against one brute-force budget per address', async () => {
    await account('budgetuser', 'budget@example.com');
    const ip = newAddress();
    // CRITICAL_RATE_LIMIT: 20 per 20 minutes by default.
    for (let i = 0; i < 10; i++) expect((await signIn(ip, 'budgetuser', `wrong-${i}`)).body).toEqual(WRONG);
    for (let i = 0; i < 10; i++) expect((await signIn(ip, 'budget@example.com', `wrong-${i}`)).body).toEqual(WRONG);
    for (const login of ['budget@example.com', 'budgetuser']) {
      const refused = await signIn(ip, login);
      expect(refused.res.statusCode, login).toBe(429);
      expect(refused.body).toEqual({ success: false, message: '请求次数过多，请稍后再试' });
    }
    expect((await signIn(newAddress(), 'budget@example.com')).body.success).toBe(true);
  });

  it('ends the session on sign-out: a copy of the cookie kept elsewhere is refused afterwards', async () => {
    await account('leaver');
    const ip = newAddress();
    const { session } = await signIn(ip, 'leaver');
    const copy: Session = { ...session!, headers: { ...session!.headers } };
    expect((await self(copy)).statusCode).toBe(200);
    const out = await t.call(session, { method: 'GET', url: '/api/user/logout' });
    expect(out.json()).toEqual({ success: true, message: '注销成功!' });
    expect(out.cookies.find((c) => c.name === 'session')?.value).toBe('');
    const after = await self(copy);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual(SIGNED_OUT);
    // The playground's session check agrees.
    const playground = await t.call(copy, { method: 'POST', url: '/pg/chat/completions', payload: { model: 'gpt-4o-mini', messages: [] } });
    expect(playground.statusCode).toBe(401);
    // Signing in again opens a session that works.
    expect((await self((await signIn(ip, 'leaver')).session!)).statusCode).toBe(200);
    // Signing out without a session (or with an ended one) is harmless.
    expect((await t.call(copy, { method: 'GET', url: '/api/user/logout' })).json()).toEqual({ success: true, message: '注销成功!' });
    expect((await t.call(null, { method: 'GET', url: '/api/user/logout' })).json()).toEqual({ success: true, message: '注销成功!' });
  });

  it('ends the sessions of a banned account: enabling it again does not bring an old cookie back', async () => {
    const id = await account('banneduser');
    const { session } = await signIn(newAddress(), 'banneduser');
    expect((await t.call(root, { method: 'POST', url: '/api/user/manage', payload: { id, action: 'disable' } })).json().success).toBe(true);
    const banned = await self(session!);
    expect(banned.statusCode).toBe(403);
    expect(banned.json()).toEqual({ success: false, message: '用户已被封禁' });
    expect((await t.call(root, { method: 'POST', url: '/api/user/manage', payload: { id, action: 'enable' } })).json().success).toBe(true);
    expect((await self(session!)).json()).toEqual(SIGNED_OUT);
    expect((await self((await signIn(newAddress(), 'banneduser')).session!)).statusCode).toBe(200);
  });

  it("ends a user's sessions when an administrator sets a new password", async () => {
    const id = await account('resetuser');
    const { session } = await signIn(newAddress(), 'resetuser');
    const edit = await t.call(root, { method: 'PUT', url: '/api/user/', payload: { id, password: 'brand-new-pass' } });
    expect(edit.json().success).toBe(true);
    expect((await self(session!)).json()).toEqual(SIGNED_OUT);
    expect((await signIn(newAddress(), 'resetuser', 'brand-new-pass')).body.success).toBe(true);
  });

  it('keeps sessions signed before epochs existed (no epoch in the cookie) until the account signs out', async () => {
    const id = await account('olduser');
    const row = await t.app.ctx.db.kysely.selectFrom('users').select('password').where('id', '=', id).executeTakeFirstOrThrow();
    // The cookie value as the previous release signed it: id, expiry, password fingerprint.
    const fingerprint = createHash('sha256').update(row.password).digest('hex').slice(0, 16);
    const value = t.app.signCookie(`${id}.${Math.floor(Date.now() / 1000) + 3600}.${fingerprint}`);
    const old: Session = { userId: id, headers: { cookie: `session=${encodeURIComponent(value)}`, 'new-api-user': String(id) } };
    expect((await self(old)).statusCode).toBe(200);
    await t.call(old, { method: 'GET', url: '/api/user/logout' });
    expect((await self(old)).statusCode).toBe(401);
  });

  it.skipIf(database.name === 'sqlite')('ends a session on every node of the deployment at once', async () => {
    // A second node: its own app on the same database (SQLite's in-memory test database has one connection only).
    const url = t.dbUrl!;
    const secondNode = async () => {
      const db = await connect(url, '');
      return { db, drop: () => db.close() };
    };
    const other = await startTestApp({ name: database.name, open: secondNode }, DEFAULT_ADDRESS_LIMITS);
    try {
      await account('twonodes');
      const { session } = await signIn(newAddress(), 'twonodes');
      expect((await other.call(session, { method: 'GET', url: '/api/user/self' })).statusCode).toBe(200);
      await other.call(session, { method: 'GET', url: '/api/user/logout' });
      expect((await self(session!)).json()).toEqual(SIGNED_OUT);
    } finally {
      await other.close();
    }
  });
});

describe('a session ended on one worker of a server with two', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess({ WORKERS: '2', ...DEFAULT_ADDRESS_LIMITS });
  }, 90_000);
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    server?.cleanup();
  });

  it('is refused by both workers afterwards', async () => {
    expect(server.workerPids()).toHaveLength(2);
    const headers = await server.rootHeaders();
    const selfStatus = async () => (await fresh(`${server.url}/api/user/self`, { headers })).status;
    // Connections of their own are handed to the workers in turn: both have seen the session live.
    for (let i = 0; i < 4; i++) expect(await selfStatus()).toBe(200);
    const out = await fresh(`${server.url}/api/user/logout`, { headers });
    expect(await out.json()).toEqual({ success: true, message: '注销成功!' });
    for (let i = 0; i < 6; i++) expect(await selfStatus()).toBe(401);
  });
});
