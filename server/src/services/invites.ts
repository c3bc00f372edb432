import { formatQuota, LOG_TYPE } from '@switchyard/shared';
import type { AppContext } from '../context.js';
import type { UserRow } from '../db/schema.js';
import { fail } from '../lib/errors.js';
import { logQuota, recordLog } from '../store/logs.js';
import { moveAffQuotaToQuota } from '../store/users.js';

/*
 * Invite earnings: an inviter's rewards collect on the invite balance (aff_quota, credited at registration in
 * accounts.ts) and become spendable only through a transfer to the quota.
 */

export const INVITE_MESSAGES = {
  /** Followed by a space and the minimum amount as the console shows amounts (spec §5). */
  minimum: '划转金额最低为',
  short: '邀请额度不足！',
  done: '划转成功',
} as const;

/**
 * Moves `quota` from the caller's invite balance to their quota. Refuses less than one unit (QuotaPerUnit) and more
 * than the invite balance holds; the move and its log are one transaction, and parallel transfers can together
 * take at most what the balance holds.
 */
export async function transferInviteQuota(ctx: AppContext, user: UserRow, quota: number): Promise<void> {
  const { options } = ctx;
  const display = { quotaPerUnit: options.get('QuotaPerUnit'), displayInCurrency: options.get('DisplayInCurrencyEnabled') };
  const minimum = Math.max(1, display.quotaPerUnit);
  if (!(quota >= minimum)) throw fail(`${INVITE_MESSAGES.minimum} ${formatQuota(minimum, display)}`);
  const moved = await ctx.db.kysely.transaction().execute(async (trx) => {
    if (!(await moveAffQuotaToQuota(trx, user.id, quota))) return false;
    await recordLog(trx, {
      userId: user.id,
      username: user.username,
      type: LOG_TYPE.TOPUP,
      content: `邀请收益划转到余额 ${logQuota(quota, display)}`,
    });
    return true;
  });
  if (!moved) throw fail(INVITE_MESSAGES.short);
  // The relay reads balances from memory: let it see the new quota at once.
  await ctx.authCache.forgetUser(user.id);
}
