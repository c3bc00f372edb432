import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import {
  allowIpEntries,
  effectiveTokenStatus,
  isIpOrCidr,
  isTokenExpired,
  normalizeModelLimits,
  stripTokenKeyPrefix,
  TOKEN_MODEL_LIMITS_MAX_LENGTH,
  TOKEN_NAME_MAX_LENGTH,
  TOKEN_NEVER_EXPIRES,
  TOKEN_STATUS,
  type TokenDto,
} from '@switchyard/shared';
import type { Database, TokenRow, UserRow } from '../db/schema.js';
import { caller } from '../auth/guard.js';
import { fail } from '../lib/errors.js';
import { nowSeconds } from '../lib/time.js';
import type { Options } from '../options/index.js';
import {
  findOwnToken,
  insertToken,
  listOwnTokens,
  observeTokenStatus,
  observeTokenStatuses,
  searchOwnTokens,
  softDeleteOwnToken,
  updateOwnToken,
  type TokenChanges,
} from '../store/tokens.js';
import { ok } from './envelope.js';
import { entityId, idParam, parse } from './input.js';
import { paging, queryFlag, queryText, type Query } from './query.js';
import { usableGroups } from './group.js';

type Db = Kysely<Database>;

export const TOKEN_MESSAGES = {
  notFound: '令牌不存在',
  nameRequired: '请输入令牌名称',
  quotaRequired: '请设置令牌额度，或者设置为无限额度',
  nameTooLong: '令牌名称过长',
  badQuota: '令牌额度必须是不小于 0 的整数',
  badExpiry: '过期时间格式错误！',
  expiryInPast: '过期时间不能早于当前时间',
  badIps: 'IP 白名单格式错误',
  tooManyIps: 'IP 白名单最多 256 条',
  modelLimitsTooLong: '模型限制列表过长',
  badGroup: '无效的令牌分组',
  badStatus: '无效的令牌状态',
  enableExpired: '令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期',
  enableExhausted: '令牌可用额度已用尽，无法启用，请先修改令牌剩余额度，或者设置为无限额度',
} as const;
const M = TOKEN_MESSAGES;
const MAX_ALLOW_IPS = 256;

// ---- schemas at the edge ----

const flag = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform(Boolean);

const fields = {
  name: z
    .string()
    .transform((s) => s.trim())
    .refine((s) => [...s].length <= TOKEN_NAME_MAX_LENGTH, M.nameTooLong),
  remain_quota: z.number(M.badQuota).int(M.badQuota).min(0, M.badQuota),
  expired_time: z
    .number(M.badExpiry)
    .int(M.badExpiry)
    .refine((t) => t === TOKEN_NEVER_EXPIRES || t > 0, M.badExpiry),
  unlimited_quota: flag,
  model_limits_enabled: flag,
  model_limits: z
    .string()
    .transform(normalizeModelLimits)
    .refine((s) => s.length <= TOKEN_MODEL_LIMITS_MAX_LENGTH, M.modelLimitsTooLong),
  allow_ips: z.string(),
  group: z.string().transform((s) => s.trim()),
};

/** A new token needs a name and either a quota (0 is a deliberate choice) or the unlimited flag. */
const CreateBody = z
  .object({
    name: fields.name.default(''),
    remain_quota: fields.remain_quota.optional(),
    expired_time: fields.expired_time.default(TOKEN_NEVER_EXPIRES),
    unlimited_quota: flag.default(false),
    model_limits_enabled: flag.default(false),
    model_limits: fields.model_limits.default(''),
    allow_ips: fields.allow_ips.default(''),
    group: fields.group.default(''),
  })
  .superRefine((body, ctx) => {
    if (body.name === '') ctx.addIssue({ code: 'custom', path: ['name'], message: M.nameRequired });
    if (body.remain_quota === undefined && !body.unlimited_quota) {
      ctx.addIssue({ code: 'custom', path: ['remain_quota'], message: M.quotaRequired });
    }
  })
  .transform(({ remain_quota, ...body }) => ({ ...body, remain_quota: remain_quota ?? 0 }));
const UpdateBody = z.object({ id: entityId, ...z.object(fields).partial().shape });
const StatusBody = z.object({ id: entityId, status: z.union([z.literal(TOKEN_STATUS.ENABLED), z.literal(TOKEN_STATUS.DISABLED)], M.badStatus) });

type CreateInput = z.infer<typeof CreateBody>;
type UpdateInput = z.infer<typeof UpdateBody>;

// ---- rules ----

/** The DTO: flags as booleans, key without sk- (the console adds it). */
export function tokenView(row: TokenRow): TokenDto {
  return {
    id: row.id,
    user_id: row.user_id,
    key: row.key,
    name: row.name,
    status: row.status,
    created_time: row.created_time,
    accessed_time: row.accessed_time,
    expired_time: row.expired_time,
    remain_quota: row.remain_quota,
    used_quota: row.used_quota,
    unlimited_quota: Boolean(row.unlimited_quota),
    model_limits_enabled: Boolean(row.model_limits_enabled),
    model_limits: row.model_limits,
    allow_ips: row.allow_ips,
    group: row.group,
  };
}

/** '' follows the user's group; otherwise one of the groups the user may pick (the same list /api/user/groups shows). */
function checkGroup(options: Options, user: UserRow, group: string): void {
  if (group !== '' && !Object.hasOwn(usableGroups(options, user.group), group)) throw fail(M.badGroup);
}

function checkExpiry(expiredTime: number, now: number): void {
  if (isTokenExpired({ expired_time: expiredTime }, now)) throw fail(M.expiryInPast);
}

/** One IP or CIDR per line; stored trimmed, without blank lines. */
function normalizeAllowIps(text: string): string {
  const entries = allowIpEntries(text);
  if (entries.length > MAX_ALLOW_IPS) throw fail(M.tooManyIps);
  const bad = entries.find((e) => !isIpOrCidr(e));
  if (bad !== undefined) throw fail(`${M.badIps}：${bad}`);
  return entries.join('\n');
}

/** Stored 2 means the owner switched the token off; 1, 3 and 4 all mean on. */
const ownerIntent = (status: number) => (status === TOKEN_STATUS.DISABLED ? TOKEN_STATUS.DISABLED : TOKEN_STATUS.ENABLED);

async function ownToken(db: Db, user: UserRow, tokenId: number): Promise<TokenRow> {
  const row = await findOwnToken(db, user.id, tokenId);
  if (!row) throw fail(M.notFound);
  return row;
}

async function reread(db: Db, user: UserRow, tokenId: number): Promise<TokenDto> {
  return tokenView(await observeTokenStatus(db, await ownToken(db, user, tokenId)));
}

export async function createToken(db: Db, options: Options, user: UserRow, input: CreateInput): Promise<TokenDto> {
  const now = nowSeconds();
  checkExpiry(input.expired_time, now);
  checkGroup(options, user, input.group);
  const token = { ...input, allow_ips: normalizeAllowIps(input.allow_ips) };
  const status = effectiveTokenStatus({ ...token, status: TOKEN_STATUS.ENABLED }, now);
  return tokenView(await insertToken(db, { ...token, user_id: user.id, status }));
}

/**
 * Changes the fields that are sent. A new expiry must lie in the future and a new group must be usable; values
 * left as they were are accepted, so an expired token can still be renamed. The status is recomputed from the
 * owner's on/off intent, so moving the expiry forward or adding quota revives an expired or exhausted token.
 */
export async function updateToken(db: Db, options: Options, user: UserRow, input: UpdateInput): Promise<TokenDto> {
  const { id: tokenId, ...sent } = input;
  const row = await ownToken(db, user, tokenId);
  const now = nowSeconds();
  const changes: TokenChanges = { ...sent };
  if (sent.expired_time !== undefined && sent.expired_time !== row.expired_time) checkExpiry(sent.expired_time, now);
  if (sent.group !== undefined && sent.group !== row.group) checkGroup(options, user, sent.group);
  if (sent.allow_ips !== undefined) changes.allow_ips = normalizeAllowIps(sent.allow_ips);
  const next = {
    expired_time: changes.expired_time ?? row.expired_time,
    remain_quota: changes.remain_quota ?? row.remain_quota,
    unlimited_quota: changes.unlimited_quota ?? Boolean(row.unlimited_quota),
  };
  changes.status = effectiveTokenStatus({ ...next, status: ownerIntent(row.status) }, now);
  if (!(await updateOwnToken(db, user.id, tokenId, changes))) throw fail(M.notFound);
  return reread(db, user, tokenId);
}

/** Switches a token on (1) or off (2); switching on is refused while it is expired or exhausted. */
export async function setTokenStatus(db: Db, user: UserRow, tokenId: number, status: 1 | 2): Promise<TokenDto> {
  const row = await ownToken(db, user, tokenId);
  if (status === TOKEN_STATUS.ENABLED) {
    const effective = effectiveTokenStatus({ ...row, status }, nowSeconds());
    if (effective === TOKEN_STATUS.EXPIRED) throw fail(M.enableExpired);
    if (effective === TOKEN_STATUS.EXHAUSTED) throw fail(M.enableExhausted);
  }
  if (!(await updateOwnToken(db, user.id, tokenId, { status }))) throw fail(M.notFound);
  return reread(db, user, tokenId);
}

// ---- routes ----

/** API tokens (sk-...) of the signed-in user. Another user's token answers as not found. */
export const tokenRoutes: FastifyPluginAsync = async (app) => {
  const { options } = app.ctx;
  const db = app.ctx.db.kysely;
  const user = { config: { access: 'user' as const } };

  // The relay reads tokens from memory: drop this user's cached tokens before any change is acknowledged.
  app.addHook('onSend', async (request) => {
    if (request.method !== 'GET' && request.user) await app.ctx.authCache.forgetTokensOf(request.user.id);
  });

  app.get('/token/', user, async (request) => {
    const { offset, size } = paging(request.query as Query);
    const rows = await listOwnTokens(db, caller(request).id, offset, size);
    return ok((await observeTokenStatuses(db, rows)).map(tokenView));
  });

  app.get('/token/search', user, async (request) => {
    const query = request.query as Query;
    const { offset, size } = paging(query, { defaultSize: 100 });
    const search = { keyword: queryText(query, 'keyword'), keyPrefix: stripTokenKeyPrefix(queryText(query, 'token')) };
    const rows = await searchOwnTokens(db, caller(request).id, search, offset, size);
    return ok((await observeTokenStatuses(db, rows)).map(tokenView));
  });

  app.get('/token/:id', user, async (request) => {
    const tokenId = idParam(request.params);
    if (tokenId === undefined) throw fail(M.notFound);
    return ok(await reread(db, caller(request), tokenId));
  });

  app.post('/token/', user, async (request) => {
    return ok(await createToken(db, options, caller(request), parse(CreateBody, request.body)));
  });

  app.put('/token/', user, async (request) => {
    if (queryFlag(request.query as Query, 'status_only')) {
      const body = parse(StatusBody, request.body);
      return ok(await setTokenStatus(db, caller(request), body.id, body.status));
    }
    return ok(await updateToken(db, options, caller(request), parse(UpdateBody, request.body)));
  });

  const remove = async (request: FastifyRequest) => {
    const tokenId = idParam(request.params);
    if (tokenId === undefined || !(await softDeleteOwnToken(db, caller(request).id, tokenId))) throw fail(M.notFound);
    return ok();
  };
  app.delete('/token/:id/', user, remove);
  app.delete('/token/:id', user, remove);
};
