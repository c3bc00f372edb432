import { describe, expect, it } from 'vitest';
import { ZOOM_MAX, ZOOM_MIN, wheelDirection, zoomed } from './imageZoom';

describe('image zoom', () => {
  it('steps by a quarter and comes back to where it started', () => {
    expect(zoomed(1, 1)).toBe(1.25);
    expect(zoomed(1.25, -1)).toBe(1);
    expect(zoomed(1, -1)).toBe(0.8);
  });
  it('stays between the bounds', () => {
    let z = 1;
    for (let i = 0; i < 30; i++) z = zoomed(z, 1);
    expect(z).toBe(ZOOM_MAX);
    for (let i = 0; i < 60; i++) z = zoomed(z, -1);
    expect(z).toBe(ZOOM_MIN);
  });
  it('zooms in when the wheel rolls away from the user', () => {
    expect(wheelDirection(-100)).toBe(1);
    expect(wheelDirection(100)).toBe(-1);
    expect(wheelDirection(0)).toBe(0);
  });
});
