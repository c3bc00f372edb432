import { describe, expect, it } from 'vitest';
import { ChannelBreaker } from './breaker.js';

describe('channel breaker', () => {
  it('opens after repeated failures, rests, lets one probe through, and closes on success', () => {
    let now = 0;
    const b = new ChannelBreaker(3, 1000, () => now);
    b.failure(1);
    b.failure(1);
    expect(b.isOpen(1)).toBe(false);
    b.failure(1);
    expect(b.isOpen(1)).toBe(true);
    now = 1001;
    expect(b.isOpen(1)).toBe(false); // the probe
    expect(b.isOpen(1)).toBe(true); // others wait for it
    b.success(1);
    expect(b.isOpen(1)).toBe(false);
  });

  it('forgets failures after a success', () => {
    const b = new ChannelBreaker(2, 1000, () => 0);
    b.failure(7);
    b.success(7);
    b.failure(7);
    expect(b.isOpen(7)).toBe(false);
  });
});
