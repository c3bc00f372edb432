import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  DEFAULT_NEW_REDEMPTION,
  isRedemptionKey,
  normalizeRedemptionKey,
  REDEMPTION_MAX_COUNT,
  REDEMPTION_NAME_MAX_LENGTH,
  REDEMPTION_STATUS,
  type RedemptionDto,
} from '@switchyard/shared';
import type { RedemptionRow } from '../db/schema.js';
import { caller } from '../auth/guard.js';
import { fail } from '../lib/errors.js';
import {
  findRedemption,
  insertRedemptions,
  listRedemptions,
  redeemCode,
  searchRedemptions,
  setRedemptionStatus,
  softDeleteRedemption,
  updateRedemption,
  type ChangeOutcome,
} from '../store/redemptions.js';
import { ok } from './envelope.js';
import { entityId, idParam as idOf, parse } from './input.js';
import { paging, queryFlag, queryText, type Query } from './query.js';

export const REDEMPTION_MESSAGES = {
  notFound: '兑换码不存在',
  badName: `兑换码名称长度必须在1-${REDEMPTION_NAME_MAX_LENGTH}之间`,
  countTooSmall: '兑换码个数必须大于0',
  countTooLarge: `一次兑换码批量生成的个数不能大于 ${REDEMPTION_MAX_COUNT}`,
  badQuota: '兑换码额度必须是大于 0 的整数',
  badStatus: '无效的兑换码状态',
  editNotUnused: '只能编辑未使用的兑换码',
  statusOfUsed: '兑换码已被使用，无法启用或禁用',
  // Redeeming (POST /api/user/topup), worded as users of the established gateway know them.
  noKey: '未提供兑换码',
  invalidKey: '兑换失败，无效的兑换码',
  usedKey: '兑换失败，该兑换码已被使用',
  disabledKey: '兑换失败，该兑换码已被禁用',
  noUser: '兑换失败，用户不存在',
} as const;
const M = REDEMPTION_MESSAGES;

/** Larger single codes are almost certainly typos (10^14 quota is 200 million dollars at the default rate). */
const MAX_QUOTA = 100_000_000_000_000;

// ---- schemas at the edge ----

const name = z
  .string(M.badName)
  .transform((s) => s.trim())
  .refine((s) => [...s].length >= 1 && [...s].length <= REDEMPTION_NAME_MAX_LENGTH, M.badName);
const quota = z.number(M.badQuota).int(M.badQuota).min(1, M.badQuota).max(MAX_QUOTA, M.badQuota);
const count = z.number(M.countTooSmall).int(M.countTooSmall).min(1, M.countTooSmall).max(REDEMPTION_MAX_COUNT, M.countTooLarge);

const CreateBody = z.object({
  name,
  quota: quota.default(DEFAULT_NEW_REDEMPTION.quota),
  count: count.default(DEFAULT_NEW_REDEMPTION.count),
});
/** The console sends the whole loaded code; only name and quota are changed here (status has its own call). */
const UpdateBody = z.object({ id: entityId, name: name.optional(), quota: quota.optional() });
const StatusBody = z.object({
  id: entityId,
  status: z.union([z.literal(REDEMPTION_STATUS.UNUSED), z.literal(REDEMPTION_STATUS.DISABLED)], M.badStatus),
});
const RedeemBody = z.object({ key: z.string(M.noKey).optional() });

function idParam(request: FastifyRequest): number {
  const id = idOf(request.params);
  if (id === undefined) throw fail(M.notFound);
  return id;
}

export function redemptionView(row: RedemptionRow): RedemptionDto {
  return {
    id: row.id,
    user_id: row.user_id,
    key: row.key,
    name: row.name,
    status: row.status,
    quota: row.quota,
    created_time: row.created_time,
    redeemed_time: row.redeemed_time,
    used_user_id: row.used_user_id,
  };
}

function check(outcome: ChangeOutcome, refusal: string): void {
  if (outcome === 'missing') throw fail(M.notFound);
  if (outcome !== 'ok') throw fail(refusal);
}

// ---- routes ----

/** Redemption codes: administration under /api/redemption, and redeeming one under /api/user/topup. */
export const redemptionRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;
  const db = ctx.db.kysely;
  const admin = { config: { access: 'admin' as const } };
  const user = { config: { access: 'user' as const } };

  const reread = async (codeId: number) => {
    const row = await findRedemption(db, codeId);
    if (!row) throw fail(M.notFound);
    return redemptionView(row);
  };

  const list = async (request: FastifyRequest) => {
    const { offset, size } = paging(request.query as Query);
    return ok((await listRedemptions(db, offset, size)).map(redemptionView));
  };
  app.get('/redemption/', admin, list);
  app.get('/redemption', admin, list);

  app.get('/redemption/search', admin, async (request) => {
    const query = request.query as Query;
    const { offset, size } = paging(query, { defaultSize: 100 });
    return ok((await searchRedemptions(db, queryText(query, 'keyword'), offset, size)).map(redemptionView));
  });

  app.get('/redemption/:id', admin, async (request) => ok(await reread(idParam(request))));

  const create = async (request: FastifyRequest) => {
    const body = parse(CreateBody, request.body);
    const keys = await insertRedemptions(db, { userId: caller(request).id, ...body });
    return ok(keys);
  };
  app.post('/redemption/', admin, create);
  app.post('/redemption', admin, create);

  const update = async (request: FastifyRequest) => {
    if (queryFlag(request.query as Query, 'status_only')) {
      const body = parse(StatusBody, request.body);
      check(await setRedemptionStatus(db, body.id, body.status), M.statusOfUsed);
      return ok(await reread(body.id));
    }
    const { id: codeId, ...changes } = parse(UpdateBody, request.body);
    check(await updateRedemption(db, codeId, changes), M.editNotUnused);
    return ok(await reread(codeId));
  };
  app.put('/redemption/', admin, update);
  app.put('/redemption', admin, update);

  const remove = async (request: FastifyRequest) => {
    if (!(await softDeleteRedemption(db, idParam(request)))) throw fail(M.notFound);
    return ok();
  };
  app.delete('/redemption/:id/', admin, remove);
  app.delete('/redemption/:id', admin, remove);

  // Redeem: data is the quota added (spec §7).
  app.post('/user/topup', user, async (request) => {
    const me = caller(request);
    const key = normalizeRedemptionKey(parse(RedeemBody, request.body).key ?? '');
    if (key === '') throw fail(M.noKey);
    if (!isRedemptionKey(key)) throw fail(M.invalidKey);
    const display = { quotaPerUnit: ctx.options.get('QuotaPerUnit'), displayInCurrency: ctx.options.get('DisplayInCurrencyEnabled') };
    const outcome = await redeemCode(db, me.id, key, display);
    if (!outcome.ok) {
      const reasons = { invalid: M.invalidKey, used: M.usedKey, disabled: M.disabledKey, no_user: M.noUser };
      throw fail(reasons[outcome.reason]);
    }
    // The relay reads balances from memory: let it see the new one at once (here and on other nodes).
    await ctx.authCache.forgetUser(me.id);
    return ok(outcome.quota);
  });
};
