import { describe, expect, it } from 'vitest';
import { chargeInCents, formatYuan, MAX_TOPUP_QUOTA, quoteTopUp, topUpGroupRatio, type TopUpTerms } from './pricing.js';

const TERMS: TopUpTerms = { displayInCurrency: true, quotaPerUnit: 500_000, minTopUp: 1, price: 7.3, groupRatio: 1 };

describe('top-up pricing', () => {
  it('prices dollars at Price yuan each, times the group ratio', () => {
    expect(quoteTopUp(10, TERMS)).toEqual({ ok: true, quota: 5_000_000, cents: 7300 });
    expect(quoteTopUp(3, TERMS)).toEqual({ ok: true, quota: 1_500_000, cents: 2190 });
    expect(quoteTopUp(3, { ...TERMS, groupRatio: 0.85 })).toEqual({ ok: true, quota: 1_500_000, cents: 1862 });
  });

  it('takes raw quota when amounts do not show in currency', () => {
    const quotaTerms = { ...TERMS, displayInCurrency: false };
    expect(quoteTopUp(750_000, quotaTerms)).toEqual({ ok: true, quota: 750_000, cents: 1095 });
    expect(quoteTopUp(499_999, quotaTerms)).toEqual({ ok: false, message: '充值数量不能小于500000' });
  });

  it('refuses amounts below the minimum, fractions, absurd sizes and prices below a cent', () => {
    expect(quoteTopUp(4, { ...TERMS, minTopUp: 5 })).toEqual({ ok: false, message: '充值数量不能小于5' });
    expect(quoteTopUp(0, TERMS)).toEqual({ ok: false, message: '充值数量不能小于1' });
    expect(quoteTopUp(1.5, TERMS)).toEqual({ ok: false, message: '充值数量必须是整数' });
    expect(quoteTopUp(MAX_TOPUP_QUOTA / 500_000 + 1, TERMS)).toEqual({ ok: false, message: '充值数量过大' });
    expect(quoteTopUp(1, { ...TERMS, price: 0 })).toEqual({ ok: false, message: '充值金额过低' });
    expect(quoteTopUp(1, { ...TERMS, price: 0.004 })).toEqual({ ok: false, message: '充值金额过低' });
  });

  it('rounds half a cent up, once, without binary noise', () => {
    expect(chargeInCents(500_000, { quotaPerUnit: 500_000, price: 0.005, groupRatio: 1 })).toBe(1);
    expect(chargeInCents(1_500_000, { quotaPerUnit: 500_000, price: 7.3, groupRatio: 1 })).toBe(2190);
    expect(chargeInCents(100_000, { quotaPerUnit: 500_000, price: 7.3, groupRatio: 1 })).toBe(146);
    expect(formatYuan(2190)).toBe('21.90');
    expect(formatYuan(5)).toBe('0.05');
  });

  it('gives an unnamed group the plain price', () => {
    expect(topUpGroupRatio({ default: 1, vip: 0.8 }, 'vip')).toBe(0.8);
    expect(topUpGroupRatio({ default: 1 }, 'svip')).toBe(1);
    expect(topUpGroupRatio({ default: 1 }, 'constructor')).toBe(1);
  });
});
