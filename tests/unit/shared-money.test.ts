import { describe, expect, it } from 'vitest';
import { applyRate, ceilToUnit, roundHalfUp, toMajor, toMinor } from '../../src/shared/money';

describe('money in minor units', () => {
  it('rounds half away from zero despite binary noise', () => {
    expect(roundHalfUp(1.005, 2)).toBe(1.01);
    expect(roundHalfUp(2.675, 2)).toBe(2.68);
    expect(roundHalfUp(-1.005, 2)).toBe(-1.01);
    expect(roundHalfUp(0.5)).toBe(1);
    expect(roundHalfUp(-0.5)).toBe(-1);
    expect(roundHalfUp(1.4999)).toBe(1);
  });

  it('refuses to round what is not a number', () => {
    expect(() => roundHalfUp(Number.NaN)).toThrow(RangeError);
    expect(() => roundHalfUp(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  it('converts major to minor units and back without drift', () => {
    expect(toMinor(12.34)).toBe(1234);
    expect(toMinor(0.1 + 0.2)).toBe(30);
    expect(toMinor(1_000_000)).toBe(100_000_000);
    expect(toMajor(1234)).toBe(12.34);
    for (let cents = -10_000; cents <= 10_000; cents += 7) expect(toMinor(toMajor(cents))).toBe(cents);
  });

  it('refuses amounts beyond safe integers', () => {
    expect(() => toMinor(1e20)).toThrow(RangeError);
  });

  it('rounds fees up to a whole unit only when there is a remainder', () => {
    expect(ceilToUnit(1234.01, 100)).toBe(1300);
    expect(ceilToUnit(1300, 100)).toBe(1300);
    expect(ceilToUnit(0.1 + 0.2, 0.1)).toBeCloseTo(0.3, 12);
  });

  it('applies a rate to minor units rounding half up', () => {
    // 0.025% of ¥10,000.00 = ¥2.50
    expect(applyRate(1_000_000, 0.00025)).toBe(250);
    // 0.001% of ¥12,345.67 = 12.34567 fen → 12 fen
    expect(applyRate(1_234_567, 0.00001)).toBe(12);
    expect(applyRate(150, 0.01)).toBe(2); // 1.5 → 2
  });
});
