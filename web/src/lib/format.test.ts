import { describe, expect, it } from 'vitest';
import { formatCacheHitRate } from './format';

describe('the cache hit rate', () => {
  it('is cache reads over prompt tokens, as a percent with one decimal', () => {
    expect(formatCacheHitRate(900, 1000)).toBe('90.0%');
    expect(formatCacheHitRate(1, 3)).toBe('33.3%');
    expect(formatCacheHitRate(0, 50)).toBe('0.0%');
  });

  it('says nothing when nothing was prompted, and never passes 100%', () => {
    expect(formatCacheHitRate(0, 0)).toBe('-');
    expect(formatCacheHitRate(5, 4)).toBe('100.0%');
  });
});
