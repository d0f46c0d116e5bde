/**
 * Money in integers: every balance, fee and amount is held in minor units (fen, cents) as a safe integer.
 * This module is the one place that converts between major units (what people read, what the API carries)
 * and minor units (what the ledger stores), with named rounding rules.
 */

/** Minor units per major unit; CNY, HKD and USD all have 2 decimals. */
export const MINOR_PER_MAJOR = 100;

/** Round half away from zero to `digits` decimals, robust to binary noise (1.005 → 1.01). */
export function roundHalfUp(value: number, digits = 0): number {
  if (!Number.isFinite(value)) throw new RangeError(`roundHalfUp: not a finite number: ${value}`);
  const factor = 10 ** digits;
  const scaled = Math.abs(value) * factor;
  // Nudge by a relative epsilon so that 1.005 * 100 = 100.49999999999999 still rounds up.
  const rounded = Math.round(scaled * (1 + Number.EPSILON * 4));
  return (Math.sign(value) * rounded) / factor;
}

/** Round up (towards +∞) to a whole number of `unit`; used for fees charged "rounded up to HK$1". */
export function ceilToUnit(value: number, unit: number): number {
  const q = value / unit;
  const nearest = Math.round(q);
  // Within binary noise of a whole unit, do not bump it up.
  if (Math.abs(q - nearest) < 1e-9) return nearest * unit;
  return Math.ceil(q) * unit;
}

/** Major units (e.g. 12.34) to minor units (1234), rounding half up at the third decimal. */
export function toMinor(major: number): number {
  const minor = roundHalfUp(major * MINOR_PER_MAJOR, 0);
  if (!Number.isSafeInteger(minor)) throw new RangeError(`toMinor: amount out of range: ${major}`);
  return minor;
}

/** Minor units (1234) to major units (12.34). */
export function toMajor(minor: number): number {
  return minor / MINOR_PER_MAJOR;
}

/** A rate applied to an amount in minor units, rounded half up to a whole minor unit. */
export function applyRate(minor: number, rate: number): number {
  return roundHalfUp(minor * rate, 0);
}
