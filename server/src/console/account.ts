import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { USER_STATUS, type LoginUser } from '@switchyard/shared';
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../db/schema.js';
import { fail } from '../lib/errors.js';
import { hashPassword, needsRehash, unknownUserHash, verifyPassword } from '../auth/password.js';
import { closeSession, endSessions, openSession, sessionAccount } from '../auth/session.js';
import { requireTurnstile } from '../auth/turnstile.js';
import { findUserByLogin } from '../store/users.js';
import { ok } from './envelope.js';
import { parse } from './input.js';

const LoginBody = z.object({ username: z.string().optional(), password: z.string().optional() });

export function loginView(user: UserRow): LoginUser {
  return {
    id: user.id,
    username: user.username,
    display_name: user.display_name,
    role: user.role,
    status: user.status,
    group: user.group,
  };
}

/**
 * An imported (bcrypt) hash, or a scrypt hash below the current cost, gives way to ours at the first successful login;
 * unless the password changed meanwhile.
 */
async function replaceWeakHash(db: Kysely<Database>, user: UserRow, password: string): Promise<void> {
  const hash = await hashPassword(password);
  await db.updateTable('users').set({ password: hash }).where('id', '=', user.id).where('password', '=', user.password).execute();
}

/** Password sign-in and sign-out. */
export const accountRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;
  const { options, db, config } = ctx;

  app.post('/user/login', { config: { access: 'public', critical: true } }, async (request, reply) => {
    await requireTurnstile(ctx, request, reply);
    if (!options.get('PasswordLoginEnabled')) throw fail('管理员关闭了密码登录');
    const body = parse(LoginBody, request.body);
    // The field takes a username or an email address.
    const login = body.username?.trim() ?? '';
    const password = body.password ?? '';
    if (!login || !password) throw fail('请输入用户名和密码！');
    const user = await findUserByLogin(db.kysely, login);
    // Verify even for unknown users so timing does not reveal which usernames exist.
    const valid = await verifyPassword(password, user?.password ?? unknownUserHash());
    if (!user || !valid || user.deleted_at !== null) throw fail('用户名或密码错误，或用户已被封禁');
    if (user.status !== USER_STATUS.ENABLED) throw fail('用户名或密码错误，或用户已被封禁');
    if (needsRehash(user.password)) await replaceWeakHash(db.kysely, user, password);
    const signedIn = await openSession(reply, db.kysely, user.id, config.sessionCookieSecure);
    if (!signedIn) throw fail('用户名或密码错误，或用户已被封禁');
    return ok(loginView(signedIn), '登录成功！');
  });

  // Ends the session for good, not only in this browser: a copy of the cookie is refused afterwards too.
  app.get('/user/logout', { config: { access: 'public' } }, async (request, reply) => {
    const user = await sessionAccount(db.kysely, request);
    if (user) await endSessions(db.kysely, user.id);
    closeSession(reply);
    return ok(undefined, '注销成功!');
  });
};
