import { describe, expect, it } from 'vitest';
import { isNewYearSeason } from './newYear';

const day = (m: number, d: number) => new Date(2025, m - 1, d, 12, 0, 0);

describe('isNewYearSeason', () => {
  it('is on for January 1 only in January', () => {
    expect(isNewYearSeason(day(1, 1))).toBe(true);
    expect(isNewYearSeason(day(1, 2))).toBe(false);
    expect(isNewYearSeason(day(12, 31))).toBe(false);
  });
  it('is on from February 9 through February 24', () => {
    expect(isNewYearSeason(day(2, 8))).toBe(false);
    expect(isNewYearSeason(day(2, 9))).toBe(true);
    expect(isNewYearSeason(day(2, 24))).toBe(true);
    expect(isNewYearSeason(day(2, 25))).toBe(false);
  });
  it('is off the rest of the year', () => {
    expect(isNewYearSeason(day(3, 1))).toBe(false);
    expect(isNewYearSeason(day(7, 15))).toBe(false);
  });
  it('uses local time at the edges of the day', () => {
    expect(isNewYearSeason(new Date(2025, 0, 1, 0, 0, 0))).toBe(true);
    expect(isNewYearSeason(new Date(2025, 0, 1, 23, 59, 59))).toBe(true);
  });
});
