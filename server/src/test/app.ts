import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { SESSION_COOKIE, sessionValue } from '../auth/session.js';
import { loadConfig } from '../config.js';
import { buildApp } from '../app.js';
import type { TestDatabase } from './databases.js';

export interface Session {
  userId: number;
  headers: Record<string, string>;
}

export interface TestApp {
  app: FastifyInstance;
  /** The database's DSN when it is a server database (another node can connect to it). */
  dbUrl?: string;
  /** Signs in with a password and returns the headers a console client would send. */
  login(username: string, password: string): Promise<Session>;
  /** root/123456, created on first start. */
  root(): Promise<Session>;
  /** Registers a user through the API and signs in as them. */
  user(username: string, password?: string): Promise<Session>;
  /**
   * The headers of a session of an existing account, signed as a sign-in would sign it, without calling the API
   * (which options may have closed); `expiresAt` in unix seconds, 30 days ahead by default.
   */
  signedSession(userId: number, expiresAt?: number): Promise<Session>;
  call(session: Session | null, opts: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * The per-address limits are off in tests (every call comes from one address, and suites make hundreds); the
 * tests of the limits switch them on.
 */
export const NO_ADDRESS_LIMITS = {
  GLOBAL_API_RATE_LIMIT_ENABLE: 'false',
  GLOBAL_WEB_RATE_LIMIT_ENABLE: 'false',
  CRITICAL_RATE_LIMIT_ENABLE: 'false',
} as const;

/** The per-address limits switched back on at their production budgets, for suites that run with every default. */
export const DEFAULT_ADDRESS_LIMITS = {
  GLOBAL_API_RATE_LIMIT_ENABLE: 'true',
  GLOBAL_WEB_RATE_LIMIT_ENABLE: 'true',
  CRITICAL_RATE_LIMIT_ENABLE: 'true',
} as const;

export async function startTestApp(database: TestDatabase, env: Record<string, string> = {}): Promise<TestApp> {
  const { db, drop, url: dbUrl } = await database.open();
  const config = loadConfig({ SESSION_SECRET: 'test-secret-test-secret-test-secret', LOG_LEVEL: 'silent', ...NO_ADDRESS_LIMITS, ...env });
  const app = await buildApp(config, { db, logger: false });
  // Tests read the status flags at once: the start's password check has settled first.
  await app.ctx.accounts.checked;

  async function login(username: string, password: string): Promise<Session> {
    const res = await app.inject({ method: 'POST', url: '/api/user/login', payload: { username, password } });
    const body = res.json() as { success: boolean; message: string; data: { id: number } };
    if (!body.success) throw new Error(`login ${username} failed: ${body.message}`);
    const cookie = res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    return { userId: body.data.id, headers: { cookie, 'new-api-user': String(body.data.id) } };
  }

  return {
    app,
    dbUrl,
    login,
    root: () => login('root', '123456'),
    async user(username, password = 'password123') {
      const res = await app.inject({
        method: 'POST',
        url: '/api/user/register',
        payload: { username, password, password2: password },
      });
      const body = res.json() as { success: boolean; message: string };
      if (!body.success) throw new Error(`register ${username} failed: ${body.message}`);
      return login(username, password);
    },
    async signedSession(userId, expiresAt = Math.floor(Date.now() / 1000) + 30 * 86400) {
      const row = await app.ctx.db.kysely.selectFrom('users').select(['id', 'password', 'session_epoch']).where('id', '=', userId).executeTakeFirstOrThrow();
      const value = app.signCookie(sessionValue(row, expiresAt));
      return { userId, headers: { cookie: `${SESSION_COOKIE}=${encodeURIComponent(value)}`, 'new-api-user': String(userId) } };
    },
    call(session, opts) {
      return app.inject({ ...opts, headers: { ...(session?.headers ?? {}), ...(opts.headers ?? {}) } });
    },
    async close() {
      await app.close();
      await drop();
    },
  };
}
