import { effectiveTokenStatus, isAdmin, TOKEN_STATUS, USER_STATUS } from '@switchyard/shared';
import { NOT_CACHED } from '../cache/auth-cache.js';
import { RelayError } from './errors.js';
import { ipAllowed } from './ip-allow.js';
const deny = (status, message, code) => new RelayError(status, message, code);
/** The first non-empty string header among names. */
function header(request, ...names) {
    for (const name of names) {
        const v = request.headers[name];
        if (typeof v === 'string' && v.trim())
            return v.trim();
    }
    return '';
}
/**
 * The key as the client sent it, minus "sk-": Authorization Bearer (OpenAI, and current Anthropic SDKs), x-api-key
 * (Anthropic), x-goog-api-key or ?key= (Gemini), mj-api-secret (Midjourney proxies).
 */
export function presentedKey(request) {
    let key = header(request, 'authorization');
    if (key.toLowerCase().startsWith('bearer '))
        key = key.slice(7).trim();
    if (!key || key === 'midjourney-proxy')
        key = header(request, 'x-api-key', 'x-goog-api-key', 'mj-api-secret');
    if (!key) {
        const q = request.query?.key;
        if (typeof q === 'string')
            key = q.trim();
    }
    return key.startsWith('sk-') ? key.slice(3) : key;
}
/**
 * Token, user and group of a relay call; every refusal has its own message. Answered without waiting when the token
 * and its user are in memory (almost always), else after reading them.
 */
export function authenticateToken(ctx, request) {
    const presented = presentedKey(request);
    if (!presented)
        throw deny(401, '未提供令牌', 'missing_api_key');
    const [key, channelPart] = presented.split('-', 2);
    const token = ctx.authCache.cachedToken(key);
    if (token === NOT_CACHED)
        return ctx.authCache.token(key).then((t) => withToken(ctx, request, t, channelPart));
    return withToken(ctx, request, token, channelPart);
}
function withToken(ctx, request, token, channelPart) {
    if (!token)
        throw deny(401, '无效的令牌', 'invalid_api_key');
    const now = Math.floor(Date.now() / 1000);
    switch (effectiveTokenStatus(token, now)) {
        case TOKEN_STATUS.ENABLED:
            break;
        case TOKEN_STATUS.EXPIRED:
            throw deny(401, '该令牌已过期', 'token_expired');
        case TOKEN_STATUS.EXHAUSTED:
            throw deny(401, '该令牌额度已用尽', 'token_exhausted');
        default:
            throw deny(401, '该令牌状态不可用', 'token_disabled');
    }
    if (token.allow_ips && !ipAllowed(token.allow_ips, request.ip))
        throw deny(403, '您的 IP 不在令牌允许访问的列表中', 'ip_not_allowed');
    const user = ctx.authCache.cachedUser(token.user_id);
    if (user === NOT_CACHED)
        return ctx.authCache.user(token.user_id).then((u) => callerOf(ctx, token, u, channelPart));
    return callerOf(ctx, token, user, channelPart);
}
function callerOf(ctx, token, user, channelPart) {
    if (!user || user.deleted_at !== null)
        throw deny(401, '无效的令牌', 'invalid_api_key');
    if (user.status !== USER_STATUS.ENABLED)
        throw deny(403, '用户已被封禁', 'user_banned');
    let pinnedChannelId = null;
    if (channelPart !== undefined) {
        if (!isAdmin(user.role))
            throw deny(403, '普通用户不支持指定渠道', 'channel_pin_forbidden');
        pinnedChannelId = Number.parseInt(channelPart, 10);
        if (!Number.isInteger(pinnedChannelId) || pinnedChannelId <= 0)
            throw deny(400, '无效的渠道 Id', 'invalid_channel_id');
    }
    return { token, user, group: resolveGroup(ctx, token.group, user), pinnedChannelId };
}
/** A token group must be one the user may use; otherwise the call is refused rather than silently re-routed. */
function resolveGroup(ctx, tokenGroup, user) {
    if (!tokenGroup || tokenGroup === user.group)
        return user.group;
    const usable = ctx.options.get('UserUsableGroups');
    if (!Object.hasOwn(usable, tokenGroup))
        throw deny(403, `令牌分组 ${tokenGroup} 已被禁用`, 'group_forbidden');
    if (!Object.hasOwn(ctx.options.get('GroupRatio'), tokenGroup))
        throw deny(403, `分组 ${tokenGroup} 已被弃用`, 'group_forbidden');
    return tokenGroup;
}
/** Model limits of a token (comma list, when enabled). */
export function checkModelAllowed(token, model) {
    if (!token || !token.model_limits_enabled)
        return;
    const allowed = token.model_limits.split(',').map((m) => m.trim());
    if (!allowed.includes(model))
        throw deny(403, `该令牌无权访问模型 ${model}`, 'model_not_allowed');
}
//# sourceMappingURL=auth.js.map