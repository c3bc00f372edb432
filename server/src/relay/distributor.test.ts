import { describe, expect, it } from 'vitest';
import type { RoutedChannel } from '../cache/routing.js';
import { chooseChannel, pickWeighted, shouldRetry } from './distributor.js';

const ch = (id: number, weight = 0): RoutedChannel => ({
  id, type: 1, name: `c${id}`, key: '', baseUrl: '', other: '', organization: '', testModel: '', models: [], groups: [],
  modelMapping: {}, statusCodeMapping: {}, priority: 0, weight, autoBan: true, status: 1, setting: {}, paramOverride: {},
});

describe('channel choice', () => {
  it('picks from the highest tier, then walks down as channels are tried', () => {
    const tiers = [[ch(1), ch(2)], [ch(3)]];
    const first = chooseChannel(tiers, new Set())!;
    expect([1, 2]).toContain(first.id);
    expect(chooseChannel(tiers, new Set([1]))!.id).toBe(2);
    expect(chooseChannel(tiers, new Set([1, 2]))!.id).toBe(3);
    expect(chooseChannel(tiers, new Set([1, 2, 3]))).toBeUndefined();
  });

  it('passes over resting channels while others can serve, and uses them when nothing else is left', () => {
    const tiers = [[ch(1)], [ch(2)]];
    expect(chooseChannel(tiers, new Set(), Math.random, (id) => id === 1)!.id).toBe(2);
    expect(chooseChannel(tiers, new Set([2]), Math.random, (id) => id === 1)!.id).toBe(1);
  });

  it('weights by weight + 10', () => {
    const a = ch(1, 30);
    const b = ch(2, 0);
    // total 50: a covers [0, 40), b [40, 50)
    expect(pickWeighted([a, b], () => 0.79).id).toBe(1);
    expect(pickWeighted([a, b], () => 0.81).id).toBe(2);
  });

  it('retries rate limits, server errors and auth failures, but not bad requests or timeouts', () => {
    for (const s of [429, 500, 502, 503, 401, 403, 404]) expect(shouldRetry(s)).toBe(true);
    for (const s of [200, 400, 408, 504, 524]) expect(shouldRetry(s)).toBe(false);
  });
});
