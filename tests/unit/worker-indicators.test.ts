import { describe, expect, it } from 'vitest';
import { movingAverage } from '../../src/worker/indicators';

/** The obviously correct MA: sum each window afresh. */
function referenceMa(values: number[], period: number): number[] {
  return values.map((_, i) => {
    if (i < period - 1) return Number.NaN;
    let sum = 0;
    for (let j = i - period + 1; j <= i; j++) sum += values[j]!;
    return sum / period;
  });
}

/** A deterministic price walk (no Math.random, so a failure can be replayed). */
function priceWalk(n: number, start = 100, seed = 7): number[] {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const out: number[] = [];
  let price = start;
  for (let i = 0; i < n; i++) {
    price = Math.max(0.01, price * (1 + (next() - 0.5) * 0.04));
    out.push(Math.round(price * 100) / 100);
  }
  return out;
}

function expectAgrees(actual: Float64Array, expected: number[]) {
  expect(actual.length).toBe(expected.length);
  expected.forEach((value, i) => {
    if (Number.isNaN(value)) expect(Number.isNaN(actual[i]!), `index ${i} should have no value`).toBe(true);
    else expect(Math.abs(actual[i]! - value), `index ${i}`).toBeLessThanOrEqual(1e-9);
  });
}

describe('movingAverage (MA)', () => {
  it('averages the last N closes and leaves the first N−1 bars without a value', () => {
    const closes = [10, 11, 12, 13, 14, 15];
    const ma3 = movingAverage(closes, 3);
    expect(Array.from(ma3.slice(0, 2)).every(Number.isNaN)).toBe(true);
    expect(Array.from(ma3.slice(2))).toEqual([11, 12, 13, 14]);
  });

  it.each([5, 10, 20, 30, 60])(
    'agrees with summing each window afresh for MA(%i) over 120 bars',
    (period) => {
      const closes = priceWalk(120);
      expectAgrees(movingAverage(closes, period), referenceMa(closes, period));
    },
  );

  it('does not drift over a long history of large prices', () => {
    const closes = priceWalk(20_000, 25_000, 11);
    for (const period of [5, 20, 60])
      expectAgrees(movingAverage(closes, period), referenceMa(closes, period));
  });

  it('has no value at all when there are fewer bars than the period', () => {
    const ma20 = movingAverage([1, 2, 3, 4], 20);
    expect(ma20.length).toBe(4);
    expect(Array.from(ma20).every(Number.isNaN)).toBe(true);
  });

  it('has exactly one value when the bars equal the period', () => {
    const ma = movingAverage([2, 4, 6, 8, 10], 5);
    expect(Number.isNaN(ma[3]!)).toBe(true);
    expect(ma[4]).toBe(6);
  });

  it('returns the closes themselves for MA(1) and nothing for no bars', () => {
    expect(Array.from(movingAverage([3.5, 4.25], 1))).toEqual([3.5, 4.25]);
    expect(movingAverage(new Float64Array(0), 5).length).toBe(0);
  });

  it('accepts typed arrays as the worker receives them', () => {
    const closes = priceWalk(50);
    expectAgrees(movingAverage(Float64Array.from(closes), 10), referenceMa(closes, 10));
  });

  it('refuses a period that is not a whole number of at least 1', () => {
    expect(() => movingAverage([1, 2, 3], 0)).toThrow(RangeError);
    expect(() => movingAverage([1, 2, 3], 2.5)).toThrow(RangeError);
  });
});
