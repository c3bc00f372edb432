import { describe, expect, it } from 'vitest';
import { minTopUpAmount, topUpMinimumMessage, topUpQuota } from './topup.js';

const DOLLARS = { displayInCurrency: true, quotaPerUnit: 500_000 };
const RAW = { displayInCurrency: false, quotaPerUnit: 500_000 };

describe('online top-up amounts', () => {
  it('reads the minimum in the unit the amount is typed in', () => {
    expect(minTopUpAmount(5, DOLLARS)).toBe(5);
    expect(minTopUpAmount(5, RAW)).toBe(2_500_000);
    expect(minTopUpAmount(0, DOLLARS)).toBe(1);
  });

  it('turns an amount into quota', () => {
    expect(topUpQuota(3, DOLLARS)).toBe(1_500_000);
    expect(topUpQuota(750_000, RAW)).toBe(750_000);
  });

  it('words the minimum as the spec does', () => {
    expect(topUpMinimumMessage(5)).toBe('充值数量不能小于5');
  });
});
