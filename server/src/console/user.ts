import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { ROLE, type Page, type UserDto } from '@switchyard/shared';
import type { UserUpdate } from '../db/schema.js';
import { fail } from '../lib/errors.js';
import { caller } from '../auth/guard.js';
import { hashPassword, verifyPassword } from '../auth/password.js';
import { closeSession, openSession, readSession } from '../auth/session.js';
import { requireTurnstile } from '../auth/turnstile.js';
import { findUserById, pageUsers, softDeleteUser, updateUser } from '../store/users.js';
import {
  checkDisplayName,
  checkPassword,
  checkUsername,
  createAccount,
  inviteCode,
  issueAccessToken,
  manageAccount,
  MSG,
  outranks,
  register,
  updateAccount,
  userView,
} from '../services/accounts.js';
import { ok } from './envelope.js';
import { entityId, parse, rowId } from './input.js';
import { paging, queryText, type Query } from './query.js';

// ---- payloads ----


const text = z.string().nullish();

const RegisterBody = z.object({
  username: text,
  password: text,
  password2: text,
  email: text,
  verification_code: text,
  aff_code: text,
});

const SelfUpdateBody = z.object({ display_name: text, password: text, original_password: text });

const IdParams = z.object({ id: entityId });

const CreateBody = z.object({ username: text, display_name: text, password: text });

/** The console sends the whole loaded user; fields not listed here (role, status, aff_* ...) are ignored. */
const AdminUpdateBody = z.object({
  id: rowId,
  username: z.string().optional(),
  display_name: text,
  password: text,
  group: z.string().optional(),
  quota: z.number().int().optional(),
  email: z.string().optional(),
});

const ManageBody = z.object({
  id: rowId,
  action: z.enum(['promote', 'demote', 'disable', 'enable', 'delete']),
});

// ---- routes ----

/** Users: registration, self-service and administration. */
export const userRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;
  const db = ctx.db.kysely;

  // The relay reads users from memory: drop the changed accounts before any change is acknowledged.
  app.addHook('onSend', async (request) => {
    if (request.method === 'GET' || !request.user) return;
    await app.ctx.authCache.forgetUser(request.user.id);
    const target = (request.body as { id?: unknown } | undefined)?.id;
    if (typeof target === 'number') {
      await app.ctx.authCache.forgetUser(target);
      await app.ctx.authCache.forgetTokensOf(target);
    }
  });

  app.post('/user/register', { config: { access: 'public', critical: true } }, async (request, reply) => {
    await requireTurnstile(ctx, request, reply);
    await register(ctx, parse(RegisterBody, request.body));
    return ok();
  });

  app.get('/user/self', { config: { access: 'user' } }, async (request) => ok(userView(caller(request))));

  app.put('/user/self', { config: { access: 'user' } }, async (request, reply) => {
    const user = caller(request);
    const body = parse(SelfUpdateBody, request.body);
    const changes: UserUpdate = {};
    const displayName = body.display_name?.trim();
    if (displayName) {
      checkDisplayName(displayName);
      changes.display_name = displayName;
    }
    const password = body.password ?? '';
    if (password) {
      checkPassword(password);
      if (!(await verifyPassword(body.original_password ?? '', user.password))) throw fail('原密码错误');
      changes.password = await hashPassword(password);
    }
    if (Object.keys(changes).length === 0) return ok();
    await updateUser(db, user.id, changes);
    if (changes.password) {
      // A new password ends every session opened with the old one; keep the caller's own session going.
      if (readSession(request)) await openSession(reply, db, user.id, ctx.config.sessionCookieSecure);
      if (user.role >= ROLE.ROOT) await ctx.accounts.refresh();
    }
    return ok();
  });

  app.delete('/user/self', { config: { access: 'user' } }, async (request, reply) => {
    const user = caller(request);
    if (user.role >= ROLE.ROOT) throw fail('不能删除超级管理员账户');
    await softDeleteUser(db, user.id);
    closeSession(reply);
    return ok();
  });

  app.get('/user/token', { config: { access: 'user' } }, async (request) => ok(await issueAccessToken(db, caller(request).id)));

  app.get('/user/aff', { config: { access: 'user' } }, async (request) => ok(await inviteCode(db, caller(request))));

  // ---- administration ----

  // Both lists are pages as the established console reads them: { items, total, page, page_size }, p from 1 (0 and
  // a missing p are the first page), docs/admin-api-compat.md.
  async function userPage(query: Query, keyword: string, group: string): Promise<Page<UserDto>> {
    const { page, size, offset } = paging(query, { firstPage: 1 });
    const found = await pageUsers(db, keyword, group, offset, size);
    return { items: found.items.map(userView), total: found.total, page, page_size: size };
  }

  app.get('/user/', { config: { access: 'admin' } }, async (request) => ok(await userPage(request.query as Query, '', '')));

  app.get('/user/search', { config: { access: 'admin' } }, async (request) => {
    const query = request.query as Query;
    return ok(await userPage(query, queryText(query, 'keyword'), queryText(query, 'group')));
  });

  app.get('/user/:id', { config: { access: 'admin' } }, async (request) => {
    const { id } = parse(IdParams, request.params);
    const target = await findUserById(db, id);
    if (!target) throw fail(MSG.notFound);
    if (!outranks(caller(request), target)) throw fail(MSG.noRightsRead);
    return ok(userView(target));
  });

  app.post('/user/', { config: { access: 'admin' } }, async (request) => {
    const body = parse(CreateBody, request.body);
    const username = body.username?.trim() ?? '';
    const password = body.password ?? '';
    checkUsername(username);
    checkPassword(password);
    const displayName = body.display_name?.trim() || username;
    checkDisplayName(displayName);
    await createAccount(ctx, { username, password, displayName, email: '', inviterCode: '' });
    return ok();
  });

  app.put('/user/', { config: { access: 'admin' } }, async (request, reply) => {
    const actor = caller(request);
    const updated = await updateAccount(ctx, actor, parse(AdminUpdateBody, request.body));
    // The super admin editing their own password here keeps their session, as on the personal page.
    if (updated.id === actor.id && updated.password !== actor.password && readSession(request)) {
      await openSession(reply, db, actor.id, ctx.config.sessionCookieSecure);
    }
    return ok();
  });

  // The established gateway's hard delete; here it is the manage action's soft delete, so the account's logs and
  // top-ups keep their owner (docs/admin-api-compat.md).
  app.delete('/user/:id', { config: { access: 'admin' } }, async (request) => {
    const { id } = parse(IdParams, request.params);
    await manageAccount(db, caller(request), id, 'delete');
    await ctx.authCache.forgetUser(id);
    await ctx.authCache.forgetTokensOf(id);
    return ok();
  });

  app.post('/user/manage', { config: { access: 'admin' } }, async (request) => {
    const { id, action } = parse(ManageBody, request.body);
    return ok(await manageAccount(db, caller(request), id, action));
  });
};
