import { describe, expect, it } from 'vitest';
import { comparePricing, pricePerCall, pricePerMillion, quotaForPrice, quotaForTokens, roundQuota } from './pricing.js';

const plain = { modelRatio: 1.25, completionRatio: 4, groupRatio: 1, cacheRatio: 1 };

describe('quota formulas', () => {
  it('charges gpt-4o 1000 prompt + 500 completion tokens as (1000 + 500 x 4) x 1.25 = 3750', () => {
    expect(quotaForTokens({ promptTokens: 1000, completionTokens: 500 }, plain)).toBe(3750);
  });
  it('applies the group ratio', () => {
    expect(quotaForTokens({ promptTokens: 1000, completionTokens: 500 }, { ...plain, groupRatio: 0.5 })).toBe(1875);
  });
  it('charges cached prompt tokens at the cache ratio', () => {
    expect(quotaForTokens({ promptTokens: 1000, completionTokens: 0, cachedTokens: 400 }, { ...plain, cacheRatio: 0.5 })).toBe(
      Math.round((600 + 200) * 1.25),
    );
  });
  it('charges Claude cache reads and writes at their own ratios (both are parts of the prompt)', () => {
    const claude = { modelRatio: 1.5, completionRatio: 5, groupRatio: 1, cacheRatio: 0.1, cacheCreationRatio: 1.25 };
    // 100 plain input + 2000 read + 1000 written, 50 out: (100 + 200 + 1250 + 250) x 1.5 = 2700
    expect(quotaForTokens({ promptTokens: 3100, completionTokens: 50, cachedTokens: 2000, cacheCreationTokens: 1000 }, claude)).toBe(2700);
  });
  it('charges one-hour cache writes at their own ratio, the rest of the writes at the five-minute one', () => {
    const claude = { modelRatio: 1, completionRatio: 5, groupRatio: 1, cacheRatio: 0.1, cacheCreationRatio: 1.25, cacheCreation1hRatio: 2 };
    // 100 plain + 1000 written (400 of them for an hour), 10 out: 100 + 600 x 1.25 + 400 x 2 + 50 = 1700
    expect(quotaForTokens({ promptTokens: 1100, completionTokens: 10, cacheCreationTokens: 1000, cacheCreation1hTokens: 400 }, claude)).toBe(1700);
    // Without a one-hour ratio, every write is priced at the five-minute one; a one-hour part above the writes is capped.
    const { cacheCreation1hRatio: _omit, ...fiveMinuteOnly } = claude;
    expect(quotaForTokens({ promptTokens: 1100, completionTokens: 10, cacheCreationTokens: 1000, cacheCreation1hTokens: 400 }, fiveMinuteOnly)).toBe(1400);
    expect(quotaForTokens({ promptTokens: 1100, completionTokens: 10, cacheCreationTokens: 1000, cacheCreation1hTokens: 5000 }, claude)).toBe(100 + 2000 + 50);
  });
  it('rounds half away from zero once', () => {
    expect(roundQuota(2.5)).toBe(3);
    expect(roundQuota(2.4999)).toBe(2);
    expect(quotaForTokens({ promptTokens: 3, completionTokens: 0 }, { ...plain, modelRatio: 0.5 })).toBe(2);
  });
  it('never bills a real call of a paid model at zero, and a free model at nothing', () => {
    expect(quotaForTokens({ promptTokens: 1, completionTokens: 0 }, { ...plain, modelRatio: 0.01 })).toBe(1);
    expect(quotaForTokens({ promptTokens: 100, completionTokens: 100 }, { ...plain, modelRatio: 0 })).toBe(0);
    expect(quotaForTokens({ promptTokens: 0, completionTokens: 0 }, plain)).toBe(0);
  });
  it('prices per call as price x 500000 x group ratio', () => {
    expect(quotaForPrice(0.04, 1, 500000)).toBe(20000);
    expect(quotaForPrice(0.1, 1.5, 500000)).toBe(75000);
  });
  it('shows prices per million tokens as ratio x 2 x group ratio', () => {
    expect(pricePerMillion(1.25, 4, 1)).toEqual({ prompt: 2.5, completion: 10 });
  });
});

describe('pricing page', () => {
  it('shows a per-call price times the group ratio', () => {
    expect(pricePerCall(0.04, 0.5)).toBe(0.02);
    expect(pricePerCall(0.1, 2)).toBe(0.2);
  });
  it('sorts per-request models first, then gpt models, then by name', () => {
    const rows = [
      { model_name: 'claude-3-haiku', quota_type: 0 },
      { model_name: 'gpt-4o', quota_type: 0 },
      { model_name: 'dall-e-3', quota_type: 1 },
      { model_name: 'gpt-3.5-turbo', quota_type: 0 },
      { model_name: 'gpt-4-gizmo-x', quota_type: 1 },
      { model_name: 'command-r', quota_type: 0 },
    ];
    expect(rows.sort(comparePricing).map((r) => r.model_name)).toEqual([
      'gpt-4-gizmo-x', 'dall-e-3', 'gpt-3.5-turbo', 'gpt-4o', 'claude-3-haiku', 'command-r',
    ]);
  });
});
