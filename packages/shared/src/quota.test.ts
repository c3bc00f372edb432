import { describe, expect, it } from 'vitest';
import { formatBalance, formatQuota, shortNumber } from './quota.js';

describe('shortNumber', () => {
  it('shortens at 10000, a million and a billion', () => {
    expect(shortNumber(9999)).toBe('9999');
    expect(shortNumber(10000)).toBe('10.0k');
    expect(shortNumber(2_500_000)).toBe('2.5M');
    expect(shortNumber(3_000_000_000)).toBe('3.0B');
  });
});

describe('formatQuota', () => {
  const usd = { quotaPerUnit: 500_000, displayInCurrency: true };
  it('shows dollars with $', () => {
    expect(formatQuota(500_000, usd)).toBe('$1.00');
    expect(formatQuota(1, usd)).toBe('$0.01');
    expect(formatQuota(0, usd)).toBe('$0.00');
  });
  it('shows raw units when currency display is off', () => {
    expect(formatQuota(12345, { quotaPerUnit: 500_000, displayInCurrency: false })).toBe('12.3k');
  });
  it('shortens the balance only from 100000', () => {
    const raw = { quotaPerUnit: 500_000, displayInCurrency: false };
    expect(formatBalance(99_999, raw)).toBe('99999');
    expect(formatBalance(100_000, raw)).toBe('100.0k');
  });
});
