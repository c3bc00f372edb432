import { afterEach, describe, expect, it } from 'vitest';
import { ADMITTED, COUNTED_FULL, WATCHED_FULL } from './limiter.js';
import { MemoryRateLimiter } from './memory.js';

describe('the in-memory sliding-log limiter', () => {
  let now = 1_000_000;
  const limiter = new MemoryRateLimiter(() => now);
  afterEach(() => limiter.sweep());

  it('admits max events within any window, does not record refusals, and makes room as the oldest ages out', () => {
    const w = { key: 'GA:1.2.3.4', max: 3, windowMs: 1000 };
    for (let i = 0; i < 3; i++) {
      expect(limiter.admit(null, w)).toBe(ADMITTED);
      now += 100;
    }
    expect(limiter.admit(null, w)).toBe(COUNTED_FULL);
    // The first of the three ages out 1000 ms after it came.
    expect(limiter.waitMs(w)).toBe(700);
    expect(limiter.waitMs({ ...w, key: 'unknown' })).toBe(0);
    // 1000 ms after the first event, one slot is free again (the refusal above took none).
    now += 700;
    expect(limiter.waitMs(w)).toBe(0);
    expect(limiter.admit(null, w)).toBe(ADMITTED);
    expect(limiter.admit(null, w)).toBe(COUNTED_FULL);
    now += 100;
    expect(limiter.admit(null, w)).toBe(ADMITTED);
    now += 5000;
  });

  it('keeps keys apart and grows a log beyond its first slots up to max', () => {
    const a = { key: 'a', max: 50, windowMs: 60_000 };
    for (let i = 0; i < 50; i++) expect(limiter.admit(null, a)).toBe(ADMITTED);
    expect(limiter.admit(null, a)).toBe(COUNTED_FULL);
    expect(limiter.admit(null, { ...a, key: 'b' })).toBe(ADMITTED);
    // A lower max applies at once to what is kept; a higher one admits more.
    expect(limiter.admit(null, { ...a, max: 10 })).toBe(COUNTED_FULL);
    expect(limiter.admit(null, { ...a, max: 51 })).toBe(ADMITTED);
    // So does a shorter window (the period option changed).
    now += 1000;
    expect(limiter.admit(null, { ...a, max: 51 })).toBe(COUNTED_FULL);
    expect(limiter.admit(null, { ...a, max: 51, windowMs: 500 })).toBe(ADMITTED);
    expect(limiter.admit({ ...a, max: 51, windowMs: 60_000 }, null)).toBe(WATCHED_FULL);
    expect(limiter.admit({ ...a, max: 51, windowMs: 500 }, null)).toBe(ADMITTED);
    now += 60_000;
  });

  it('only looks at a watched window: events count there when recorded', () => {
    const success = { key: 'MRRLS:7', max: 2, windowMs: 60_000 };
    for (let i = 0; i < 5; i++) expect(limiter.admit(success, null)).toBe(ADMITTED);
    limiter.record(success);
    limiter.record(success);
    expect(limiter.admit(success, null)).toBe(WATCHED_FULL);
    // A refusal by the watched window records nothing in the counted one.
    const total = { key: 'MRRL:7', max: 1, windowMs: 60_000 };
    expect(limiter.admit(success, total)).toBe(WATCHED_FULL);
    now += 60_000;
    expect(limiter.admit(success, total)).toBe(ADMITTED);
    expect(limiter.admit(success, total)).toBe(COUNTED_FULL);
    now += 60_000;
  });

  it('drops keys idle for longer than their window, so memory follows the active addresses only', () => {
    for (let i = 0; i < 1000; i++) limiter.admit(null, { key: `GW:10.0.${i >> 8}.${i & 255}`, max: 60, windowMs: 180_000 });
    limiter.admit(null, { key: 'recent', max: 60, windowMs: 180_000 });
    expect(limiter.keys).toBe(1001);
    now += 179_999;
    limiter.admit(null, { key: 'recent', max: 60, windowMs: 180_000 });
    now += 1;
    limiter.sweep();
    expect(limiter.keys).toBe(1);
    now += 180_000;
    limiter.sweep();
    expect(limiter.keys).toBe(0);
  });
});
