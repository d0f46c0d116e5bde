/**
 * The flash exchange's one rule (DOMAIN.md "Exchange": the day's rate less the spread), written once for the
 * station that credits the amount and the screen that previews it, so the preview is what arrives:
 * received = ⌊amount × cnyPer(source) ÷ cnyPer(target) × (1 − spread)⌋ in minor units, computed exactly in
 * integers (the rates are decimals of at most 6 places), so the rounding is in the station's favour and by
 * less than one minor unit.
 */
import type { Currency } from './api/types';

const SCALE = 1_000_000n;

/** A rate of at most 6 decimals as an integer of millionths. */
function millionths(rate: number): bigint {
  return BigInt(Math.round(rate * 1_000_000));
}

/** Units of `target` for one unit of `source` at yuan-per-unit rates `cnyPer` (mid, no spread). */
export function midRate(cnyPer: Record<Currency, number>, source: Currency, target: Currency): number {
  return Number(millionths(cnyPer[source])) / Number(millionths(cnyPer[target]));
}

/** What `amount` minor units of `source` buy of `target` after the spread, rounded down exactly. */
export function exchangedAmount(
  amount: number,
  cnyPer: Record<Currency, number>,
  source: Currency,
  target: Currency,
  spreadRate: number,
): number {
  const numerator = BigInt(amount) * millionths(cnyPer[source]) * (SCALE - millionths(spreadRate));
  return Number(numerator / (millionths(cnyPer[target]) * SCALE));
}
