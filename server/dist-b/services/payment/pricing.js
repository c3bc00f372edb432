import { minTopUpAmount, topUpMinimumMessage, topUpQuota } from '@switchyard/shared';
export const TOPUP_MESSAGES = {
    notInteger: '充值数量必须是整数',
    tooLarge: '充值数量过大',
    tooCheap: '充值金额过低',
};
/** Far above any real purchase, far below where integer quota arithmetic loses precision. */
export const MAX_TOPUP_QUOTA = 10_000_000_000_000;
/** The ratio of a group; a group the map does not name pays the plain price. */
export function topUpGroupRatio(ratios, group) {
    const r = Object.hasOwn(ratios, group) ? ratios[group] : undefined;
    return typeof r === 'number' && Number.isFinite(r) && r >= 0 ? r : 1;
}
/** quota / quotaPerUnit dollars at `price` yuan each, times the group ratio, rounded half up to the cent. */
export function chargeInCents(quota, terms) {
    const cents = (quota * terms.price * terms.groupRatio * 100) / terms.quotaPerUnit;
    // toPrecision drops binary noise (7.3 * 3 * 100 = 2189.9999...) before rounding.
    return Math.round(Number(cents.toPrecision(12)));
}
export const formatYuan = (cents) => (cents / 100).toFixed(2);
/** Checks an amount as typed against the rules and prices it. */
export function quoteTopUp(amount, terms) {
    if (!Number.isSafeInteger(amount))
        return { ok: false, message: TOPUP_MESSAGES.notInteger };
    const display = { displayInCurrency: terms.displayInCurrency, quotaPerUnit: terms.quotaPerUnit };
    const min = minTopUpAmount(terms.minTopUp, display);
    if (amount < min)
        return { ok: false, message: topUpMinimumMessage(min) };
    const quota = topUpQuota(amount, display);
    if (quota > MAX_TOPUP_QUOTA)
        return { ok: false, message: TOPUP_MESSAGES.tooLarge };
    const cents = chargeInCents(quota, terms);
    if (cents < 1)
        return { ok: false, message: TOPUP_MESSAGES.tooCheap };
    return { ok: true, quota, cents };
}
//# sourceMappingURL=pricing.js.map