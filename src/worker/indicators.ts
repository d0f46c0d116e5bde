/**
 * Indicator maths for the K-line chart (DOMAIN.md "Indicators"), as plain functions over typed arrays.
 * Bars are oldest first; a value that needs more history than there is comes out as NaN.
 */

/**
 * Simple moving average MA(N): the mean of the last N closes. The first N−1 bars have no value (NaN),
 * and with fewer than N bars every value is NaN.
 *
 * A running sum keeps it O(n); Neumaier's compensation keeps that sum as exact as summing each window
 * afresh, so long histories do not drift.
 */
export function movingAverage(values: ArrayLike<number>, period: number): Float64Array {
  if (!Number.isInteger(period) || period < 1) {
    throw new RangeError(`movingAverage: the period must be a whole number ≥ 1, got ${period}`);
  }
  const n = values.length;
  const out = new Float64Array(n).fill(Number.NaN);
  let sum = 0;
  let compensation = 0;
  const add = (x: number) => {
    const t = sum + x;
    compensation += Math.abs(sum) >= Math.abs(x) ? sum - t + x : x - t + sum;
    sum = t;
  };
  for (let i = 0; i < n; i++) {
    add(values[i]!);
    if (i >= period) add(-values[i - period]!);
    if (i >= period - 1) out[i] = (sum + compensation) / period;
  }
  return out;
}
