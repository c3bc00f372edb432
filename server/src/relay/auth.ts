import type { IncomingHttpHeaders } from 'node:http';
import { effectiveTokenStatus, isAdmin, TOKEN_STATUS, USER_STATUS } from '@switchyard/shared';
import type { TokenRow, UserRow } from '../db/schema.js';
import type { AppContext } from '../context.js';
import { NOT_CACHED } from '../cache/auth-cache.js';
import { RelayError } from './errors.js';
import { ipAllowed } from './ip-allow.js';

interface CallerBase {
  user: UserRow;
  /** The group the call is routed and priced in: the token's (or the playground's chosen) group when set, else the user's. */
  group: string;
  /** Channel pinned with sk-KEY-CHANNELID (admins only): no choice, no retries. */
  pinnedChannelId: number | null;
}

/** A client with an API key: charged to the token and its owner, logged under the token's name. */
export interface TokenCaller extends CallerBase {
  kind: 'token';
  token: TokenRow;
}

/** The console's signed-in user (the playground): charged to the user only, logged as playground-<group>. */
export interface SessionCaller extends CallerBase {
  kind: 'session';
  token: null;
  pinnedChannelId: null;
}

export type Caller = TokenCaller | SessionCaller;

/** The token name a call is logged under. */
export function loggedTokenName(caller: Caller): string {
  return caller.kind === 'session' ? `playground-${caller.group}` : caller.token.name;
}

const deny = (status: number, message: string, code: string) => new RelayError(status, message, code);

/** What the key check reads of a request (a relay exchange, or a Fastify request on the console's relay routes). */
export interface KeyedRequest {
  readonly headers: IncomingHttpHeaders;
  readonly query: unknown;
  readonly ip: string;
}

/** The first non-empty string header among names. */
function header(request: KeyedRequest, ...names: string[]): string {
  for (const name of names) {
    const v = request.headers[name];
    if (typeof v === 'string' && v.trim()) return v.trim();
  }
  return '';
}

/**
 * The key as the client sent it, minus "sk-": Authorization Bearer (OpenAI, and current Anthropic SDKs), x-api-key
 * (Anthropic), x-goog-api-key or ?key= (Gemini), mj-api-secret (Midjourney proxies).
 */
export function presentedKey(request: KeyedRequest): string {
  let key = header(request, 'authorization');
  if (key.toLowerCase().startsWith('bearer ')) key = key.slice(7).trim();
  if (!key || key === 'midjourney-proxy') key = header(request, 'x-api-key', 'x-goog-api-key', 'mj-api-secret');
  if (!key) {
    const q = (request.query as { key?: unknown } | undefined)?.key;
    if (typeof q === 'string') key = q.trim();
  }
  return key.startsWith('sk-') ? key.slice(3) : key;
}

/**
 * Token, user and group of a relay call; every refusal has its own message. Answered without waiting when the token
 * and its user are in memory (almost always), else after reading them.
 */
export function authenticateToken(ctx: AppContext, request: KeyedRequest): Caller | Promise<Caller> {
  const presented = presentedKey(request);
  if (!presented) throw deny(401, '未提供令牌', 'missing_api_key');
  const [key, channelPart] = presented.split('-', 2);
  // "sk--1" names no key: never looked up, so no row with an empty key (however it got there) is ever matched.
  if (!key) throw deny(401, '无效的令牌', 'invalid_api_key');
  const token = ctx.authCache.cachedToken(key);
  if (token === NOT_CACHED) return ctx.authCache.token(key).then((t) => withToken(ctx, request, t, channelPart, null));
  return withToken(ctx, request, token, channelPart, key);
}

/** `cachedKey`: the token came from the cache under this key, so a spent-looking balance is confirmed first. */
function withToken(
  ctx: AppContext,
  request: KeyedRequest,
  token: TokenRow | undefined,
  channelPart: string | undefined,
  cachedKey: string | null,
): Caller | Promise<Caller> {
  if (!token) throw deny(401, '无效的令牌', 'invalid_api_key');
  const now = Math.floor(Date.now() / 1000);
  switch (effectiveTokenStatus(token, now)) {
    case TOKEN_STATUS.ENABLED:
      break;
    case TOKEN_STATUS.EXPIRED:
      throw deny(401, '该令牌已过期', 'token_expired');
    case TOKEN_STATUS.EXHAUSTED: {
      const confirmed = cachedKey === null ? token : ctx.authCache.confirmedToken(cachedKey, token);
      if (confirmed !== token) return Promise.resolve(confirmed).then((t) => withToken(ctx, request, t, channelPart, null));
      throw deny(401, '该令牌额度已用尽', 'token_exhausted');
    }
    default:
      throw deny(401, '该令牌状态不可用', 'token_disabled');
  }
  if (token.allow_ips && !ipAllowed(token.allow_ips, request.ip)) throw deny(403, '您的 IP 不在令牌允许访问的列表中', 'ip_not_allowed');
  const user = ctx.authCache.cachedUser(token.user_id);
  if (user === NOT_CACHED) return ctx.authCache.user(token.user_id).then((u) => callerOf(ctx, token, u, channelPart));
  return callerOf(ctx, token, user, channelPart);
}

/** Refusals of a group the caller may not use (built only when refusing). */
const tokenGroupDisabled = (group: string) => `令牌分组 ${group} 已被禁用`;
const groupNotAllowed = (group: string) => `无权访问分组 ${group}`;

function callerOf(ctx: AppContext, token: TokenRow, user: UserRow | undefined, channelPart: string | undefined): Caller {
  if (!user || user.deleted_at !== null) throw deny(401, '无效的令牌', 'invalid_api_key');
  if (user.status !== USER_STATUS.ENABLED) throw deny(403, '用户已被封禁', 'user_banned');
  let pinnedChannelId: number | null = null;
  if (channelPart !== undefined) {
    if (!isAdmin(user.role)) throw deny(403, '普通用户不支持指定渠道', 'channel_pin_forbidden');
    pinnedChannelId = Number.parseInt(channelPart, 10);
    if (!Number.isInteger(pinnedChannelId) || pinnedChannelId <= 0) throw deny(400, '无效的渠道 Id', 'invalid_channel_id');
  }
  const group = resolveGroup(ctx, token.group, user, tokenGroupDisabled);
  return { kind: 'token', token, user, group, pinnedChannelId };
}

/**
 * The console's signed-in user (already authenticated by session) calling in a group of their choice: the
 * playground. The group is checked as a token's group is; absent or empty means the user's own.
 */
export function sessionCaller(ctx: AppContext, user: UserRow, requestedGroup: string): SessionCaller {
  const group = resolveGroup(ctx, requestedGroup, user, groupNotAllowed);
  return { kind: 'session', token: null, user, group, pinnedChannelId: null };
}

/**
 * A chosen group must be one the user may use (the operator's UserUsableGroups, or the user's own) and still
 * priced; otherwise the call is refused rather than silently re-routed.
 */
function resolveGroup(ctx: AppContext, requested: string, user: UserRow, notUsable: (group: string) => string): string {
  if (!requested || requested === user.group) return user.group;
  const usable = ctx.options.get('UserUsableGroups');
  if (!Object.hasOwn(usable, requested)) throw deny(403, notUsable(requested), 'group_forbidden');
  if (!Object.hasOwn(ctx.options.get('GroupRatio'), requested)) throw deny(403, `分组 ${requested} 已被弃用`, 'group_forbidden');
  return requested;
}

/** Model limits of a token (comma list, when enabled). */
export function checkModelAllowed(token: TokenRow | null, model: string): void {
  if (!token || !token.model_limits_enabled) return;
  const allowed = token.model_limits.split(',').map((m) => m.trim());
  if (!allowed.includes(model)) throw deny(403, `该令牌无权访问模型 ${model}`, 'model_not_allowed');
}
