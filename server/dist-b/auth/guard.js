import { ROLE, USER_STATUS } from '@switchyard/shared';
import { AppError } from '../lib/errors.js';
import { findUserByAccessToken, findUserById } from '../store/users.js';
import { readSession, sessionMatches } from './session.js';
const MIN_ROLE = { user: ROLE.USER, admin: ROLE.ADMIN, root: ROLE.ROOT };
const unauthorized = (message) => new AppError(401, message);
async function findCaller(app, request) {
    const db = app.ctx.db.kysely;
    const claims = readSession(request);
    if (claims) {
        const user = await findUserById(db, claims.userId);
        if (user && sessionMatches(claims, user))
            return user;
    }
    const header = request.headers.authorization?.trim();
    if (header) {
        const token = header.replace(/^Bearer\s+/i, '');
        if (token)
            return (await findUserByAccessToken(db, token)) ?? null;
    }
    return null;
}
/** Resolves the caller and checks the New-Api-User header, role and status. Throws AppError when refused. */
export async function authenticate(app, request, access) {
    const user = await findCaller(app, request);
    if (!user || user.deleted_at !== null)
        throw unauthorized('无权进行此操作，未登录且未提供 access token');
    const header = request.headers['new-api-user'];
    if (header === undefined || header === '')
        throw unauthorized('无权进行此操作，未提供 New-Api-User');
    if (Array.isArray(header) || !/^\d+$/.test(header))
        throw unauthorized('无权进行此操作，New-Api-User 格式错误');
    if (Number(header) !== user.id)
        throw unauthorized('无权进行此操作，New-Api-User 与登录用户不匹配');
    if (user.status !== USER_STATUS.ENABLED)
        throw new AppError(403, '用户已被封禁');
    if (user.role < MIN_ROLE[access])
        throw new AppError(403, '无权进行此操作，权限不足');
    return user;
}
/**
 * Installs the route-level access check: routes declare `config: { access }`, and each guarded route gets this
 * check as its own preHandler (routes without a level — the relay — pay nothing for it).
 */
export function installGuard(app) {
    app.decorateRequest('user', null);
    app.decorate('accessTable', []);
    app.addHook('onRoute', (route) => {
        const url = route.url;
        const access = route.config?.access;
        if (url.startsWith('/api/')) {
            if (!access)
                throw new Error(`route ${String(route.method)} ${url} declares no access level`);
            for (const method of [route.method].flat()) {
                if (method !== 'HEAD')
                    app.accessTable.push({ method, url, access });
            }
        }
        if (!access || access === 'public')
            return;
        const check = async (request) => {
            request.user = await authenticate(app, request, access);
        };
        const existing = route.preHandler;
        route.preHandler = existing ? [check, ...[existing].flat()] : [check];
    });
}
/** The signed-in user on a guarded route. */
export function caller(request) {
    if (!request.user)
        throw unauthorized('无权进行此操作，未登录且未提供 access token');
    return request.user;
}
//# sourceMappingURL=guard.js.map