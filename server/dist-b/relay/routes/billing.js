import { findTokenByKey } from '../../store/tokens.js';
import { findUserById } from '../../store/users.js';
import { authenticateToken } from '../auth.js';
/*
 * OpenAI's legacy billing endpoints, which chat clients call to show a key's balance: what the key may still spend
 * and what it has spent, in dollars (or in raw quota when the console shows quota, not currency), read fresh from
 * the database. With DisplayTokenStatEnabled the figures are the token's, else its owner's.
 */
/** What an unlimited token reports as its limit (the established gateway's figure). */
const UNLIMITED_USD = 100_000_000;
async function balanceOf(ctx, caller) {
    const db = ctx.db.kysely;
    if (ctx.options.get('DisplayTokenStatEnabled') && caller.token) {
        const token = (await findTokenByKey(db, caller.token.key)) ?? caller.token;
        return {
            remain: token.remain_quota,
            used: token.used_quota,
            unlimited: Boolean(token.unlimited_quota),
            until: token.expired_time > 0 ? token.expired_time : 0,
        };
    }
    const user = (await findUserById(db, caller.user.id)) ?? caller.user;
    return { remain: user.quota, used: user.used_quota, unlimited: false, until: 0 };
}
function amount(ctx, quota) {
    return ctx.options.get('DisplayInCurrencyEnabled') ? quota / ctx.options.get('QuotaPerUnit') : quota;
}
export const billingRoutes = async (app) => {
    const ctx = app.ctx;
    for (const prefix of ['', '/v1']) {
        app.get(`${prefix}/dashboard/billing/subscription`, async (request) => {
            const balance = await balanceOf(ctx, await authenticateToken(ctx, request));
            const limit = balance.unlimited ? UNLIMITED_USD : amount(ctx, balance.remain + balance.used);
            return {
                object: 'billing_subscription',
                has_payment_method: true,
                soft_limit_usd: limit,
                hard_limit_usd: limit,
                system_hard_limit_usd: limit,
                access_until: balance.until,
            };
        });
        app.get(`${prefix}/dashboard/billing/usage`, async (request) => {
            const balance = await balanceOf(ctx, await authenticateToken(ctx, request));
            // In cents, as OpenAI reported it.
            return { object: 'list', total_usage: amount(ctx, balance.used) * 100 };
        });
    }
};
//# sourceMappingURL=billing.js.map