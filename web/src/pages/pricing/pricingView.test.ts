import { describe, expect, it } from 'vitest';
import type { PricingEntry } from '@switchyard/shared';
import { availableIn, formatRatio, formatUsd, initialGroup, ratioOf, shownPrice, visibleRows } from './pricingView';

const entry = (fields: Partial<PricingEntry>): PricingEntry => ({
  model_name: 'm',
  quota_type: 0,
  model_ratio: 0,
  completion_ratio: 0,
  model_price: 0,
  enable_groups: ['default'],
  configured: true,
  ...fields,
});

describe('pricing page values', () => {
  it('prices per 1M tokens: ratio x 2 x group ratio, completion times the completion ratio', () => {
    const gpt4o = entry({ model_name: 'gpt-4o', model_ratio: 1.25, completion_ratio: 4 });
    expect(shownPrice(gpt4o, 1)).toEqual({ kind: 'tokens', prompt: '$2.50', completion: '$10.00' });
    expect(shownPrice(gpt4o, 0.5)).toEqual({ kind: 'tokens', prompt: '$1.25', completion: '$5.00' });
    const mini = entry({ model_name: 'gpt-4o-mini', model_ratio: 0.075, completion_ratio: 4 });
    expect(shownPrice(mini, 1)).toEqual({ kind: 'tokens', prompt: '$0.15', completion: '$0.60' });
    const haiku = entry({ model_name: 'claude-3-haiku', model_ratio: 0.125, completion_ratio: 5 });
    expect(shownPrice(haiku, 2)).toEqual({ kind: 'tokens', prompt: '$0.50', completion: '$2.50' });
  });

  it('prices per call as price x group ratio', () => {
    const dalle = entry({ model_name: 'dall-e-3', quota_type: 1, model_price: 0.04 });
    expect(shownPrice(dalle, 1)).toEqual({ kind: 'call', price: '$0.04' });
    expect(shownPrice(dalle, 0.5)).toEqual({ kind: 'call', price: '$0.02' });
    expect(shownPrice(dalle, 0.3)).toEqual({ kind: 'call', price: '$0.012' });
  });

  it('says so when a model has no price', () => {
    expect(shownPrice(entry({ configured: false }), 1)).toEqual({ kind: 'unset' });
    expect(availableIn(entry({ configured: false }), 'default')).toBe(false);
  });

  it('formats dollars and ratios without float noise', () => {
    expect(formatUsd(0.15000000000000002)).toBe('$0.15');
    expect(formatUsd(0.0375)).toBe('$0.0375');
    expect(formatUsd(12)).toBe('$12.00');
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatRatio(0.1 + 0.2)).toBe('0.3');
  });

  it('starts in the signed-in user group, else the default group; unknown groups cost 1', () => {
    expect(initialGroup({ user_group: 'vip' })).toBe('vip');
    expect(initialGroup({ user_group: null })).toBe('default');
    expect(ratioOf({ group_ratio: { default: 1, vip: 0.5 } }, 'vip')).toBe(0.5);
    expect(ratioOf({ group_ratio: {} }, 'nowhere')).toBe(1);
  });

  it('filters by name in any case and keeps the page order', () => {
    const rows = [
      entry({ model_name: 'claude-3-haiku' }),
      entry({ model_name: 'GPT-4o-custom' }),
      entry({ model_name: 'gpt-4o' }),
      entry({ model_name: 'dall-e-3', quota_type: 1 }),
    ];
    expect(visibleRows(rows, '').map((r) => r.model_name)).toEqual(['dall-e-3', 'gpt-4o', 'GPT-4o-custom', 'claude-3-haiku']);
    expect(visibleRows(rows, ' GPT-4O ').map((r) => r.model_name)).toEqual(['gpt-4o', 'GPT-4o-custom']);
  });

  it('knows which groups reach a model', () => {
    expect(availableIn(entry({ enable_groups: ['default', 'vip'] }), 'vip')).toBe(true);
    expect(availableIn(entry({ enable_groups: ['default'] }), 'vip')).toBe(false);
  });
});
