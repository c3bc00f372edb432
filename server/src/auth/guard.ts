import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ROLE, USER_STATUS } from '@switchyard/shared';
import type { UserRow } from '../db/schema.js';
import { AppError } from '../lib/errors.js';
import { findUserByAccessToken } from '../store/users.js';
import { sessionAccount } from './session.js';

/** Who may call a console route. Every /api route must declare one (enforced when routes are registered). */
export type Access = 'public' | 'user' | 'admin' | 'root';

const MIN_ROLE: Record<Exclude<Access, 'public'>, number> = { user: ROLE.USER, admin: ROLE.ADMIN, root: ROLE.ROOT };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyInstance {
    /** Every guarded route as registered: the authorization matrix test walks this list. */
    accessTable: Array<{ method: string; url: string; access: Access }>;
  }
  interface FastifyRequest {
    /** The signed-in user on guarded routes (null on public ones that found nobody). */
    user: UserRow | null;
  }
}

const unauthorized = (message: string) => new AppError(401, message);

async function findCaller(app: FastifyInstance, request: FastifyRequest): Promise<UserRow | null> {
  const db = app.ctx.db.kysely;
  const signedIn = await sessionAccount(db, request);
  if (signedIn) return signedIn;
  const header = request.headers.authorization?.trim();
  if (header) {
    const token = header.replace(/^Bearer\s+/i, '');
    if (token) return (await findUserByAccessToken(db, token)) ?? null;
  }
  return null;
}

/** Resolves the caller and checks the New-Api-User header, role and status. Throws AppError when refused. */
export async function authenticate(app: FastifyInstance, request: FastifyRequest, access: Exclude<Access, 'public'>): Promise<UserRow> {
  const user = await findCaller(app, request);
  if (!user || user.deleted_at !== null) throw unauthorized('无权进行此操作，未登录且未提供 access token');
  return admitted(request, user, access);
}

const SIGNED_OUT = '未登录或登录已过期，请重新登录！';

/**
 * The signed-in user of a browser session only (the playground): an access token is refused, as scripts that
 * relay calls have API keys for that, which carry their own limits.
 */
export async function authenticateSession(app: FastifyInstance, request: FastifyRequest): Promise<UserRow> {
  const user = await sessionAccount(app.ctx.db.kysely, request);
  if (!user || user.deleted_at !== null) {
    if (request.headers.authorization?.trim()) throw new AppError(401, '暂不支持使用 access token', 'access_token_unsupported');
    throw new AppError(401, SIGNED_OUT, 'not_signed_in');
  }
  return admitted(request, user, 'user');
}

/** The checks every authenticated console caller passes: the New-Api-User header, status and role. */
function admitted(request: FastifyRequest, user: UserRow, access: Exclude<Access, 'public'>): UserRow {
  const header = request.headers['new-api-user'];
  if (header === undefined || header === '') throw unauthorized('无权进行此操作，未提供 New-Api-User');
  if (Array.isArray(header) || !/^\d+$/.test(header)) throw unauthorized('无权进行此操作，New-Api-User 格式错误');
  if (Number(header) !== user.id) throw unauthorized('无权进行此操作，New-Api-User 与登录用户不匹配');
  if (user.status !== USER_STATUS.ENABLED) throw new AppError(403, '用户已被封禁');
  if (user.role < MIN_ROLE[access]) throw new AppError(403, '无权进行此操作，权限不足');
  return user;
}

/**
 * Installs the route-level access check: routes declare `config: { access }`, and each guarded route gets this
 * check as its own preHandler (routes without a level — the relay — pay nothing for it).
 */
export function installGuard(app: FastifyInstance): void {
  app.decorateRequest('user', null);
  app.decorate('accessTable', []);
  app.addHook('onRoute', (route) => {
    const url = route.url;
    const access = route.config?.access;
    if (url.startsWith('/api/')) {
      if (!access) throw new Error(`route ${String(route.method)} ${url} declares no access level`);
      for (const method of [route.method].flat()) {
        if (method !== 'HEAD') app.accessTable.push({ method, url, access });
      }
    }
    if (!access || access === 'public') return;
    const check = async (request: FastifyRequest) => {
      request.user = await authenticate(app, request, access);
    };
    const existing = route.preHandler;
    route.preHandler = existing ? [check, ...[existing].flat()] : [check];
  });
}

/** The signed-in user on a guarded route. */
export function caller(request: FastifyRequest): UserRow {
  if (!request.user) throw unauthorized('无权进行此操作，未登录且未提供 access token');
  return request.user;
}
