import { CHANNEL_STATUS, comparePricing, QUOTA_TYPE } from '@switchyard/shared';
import { authenticate } from '../auth/guard.js';
import { AppError } from '../lib/errors.js';
import { pricingFor } from '../relay/billing.js';
import { groupRatio, usableGroups } from './group.js';
/*
 * The public model price list. Models come from the routing table the relay uses (enabled channels' abilities), so
 * the list shows exactly what can be called and in which groups; prices come from the same lookup the relay bills
 * with (relay/billing.ts pricingFor), so the page can never disagree with a charge.
 */
/** Every routable model with the groups that reach it. */
function modelGroups(ctx) {
    const out = new Map();
    for (const channel of ctx.routing.all()) {
        if (channel.status !== CHANNEL_STATUS.ENABLED)
            continue;
        for (const model of channel.models) {
            for (const group of channel.groups) {
                // The routing table decides: a pair counts only when the relay would route it.
                if (ctx.routing.tiers(group, model).length === 0)
                    continue;
                const groups = out.get(model);
                if (groups)
                    groups.add(group);
                else
                    out.set(model, new Set([group]));
            }
        }
    }
    return out;
}
/** The price list, in the page's order. */
export function pricingEntries(ctx) {
    const entries = [];
    for (const [model, groups] of modelGroups(ctx)) {
        const base = { model_name: model, enable_groups: [...groups].sort() };
        let pricing;
        try {
            // The group does not matter here: the page applies the ratio of the group the visitor looks at.
            pricing = pricingFor(ctx.options, model, 'default');
        }
        catch (err) {
            if (!(err instanceof AppError))
                throw err;
            entries.push({ ...base, quota_type: QUOTA_TYPE.RATIO, model_ratio: 0, completion_ratio: 0, model_price: 0, configured: false });
            continue;
        }
        if (pricing.kind === 'price') {
            entries.push({ ...base, quota_type: QUOTA_TYPE.PRICE, model_ratio: 0, completion_ratio: 0, model_price: pricing.priceUsd, configured: true });
        }
        else {
            entries.push({
                ...base,
                quota_type: QUOTA_TYPE.RATIO,
                model_ratio: pricing.modelRatio,
                completion_ratio: pricing.completionRatio,
                model_price: 0,
                configured: true,
            });
        }
    }
    return entries.sort(comparePricing);
}
/** The signed-in caller on a public route, or null: a missing or stale login just means "anonymous" here. */
async function optionalCaller(app, request) {
    try {
        return await authenticate(app, request, 'user');
    }
    catch (err) {
        if (err instanceof AppError)
            return null;
        throw err;
    }
}
const DEFAULT_GROUP = 'default';
export const pricingRoutes = async (app) => {
    const ctx = app.ctx;
    app.get('/pricing', { config: { access: 'public' } }, async (request) => {
        const user = await optionalCaller(app, request);
        // Anonymous visitors see what a new account (group default) would see.
        const usable = usableGroups(ctx.options, user?.group ?? DEFAULT_GROUP);
        const ratios = {};
        for (const group of Object.keys(usable))
            ratios[group] = groupRatio(ctx.options, group);
        return {
            success: true,
            message: '',
            data: pricingEntries(ctx),
            group_ratio: ratios,
            usable_group: usable,
            user_group: user?.group ?? null,
        };
    });
};
//# sourceMappingURL=pricing.js.map