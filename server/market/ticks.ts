/**
 * Ticks and daily price limits (DOMAIN.md "Markets, sessions, calendars"): the tick of a price (a fixed
 * tick, or the HKEX spread table in Hong Kong), rounding to it, and the limit-up and limit-down of a day.
 */
import type { TickRule } from './catalogue';

/**
 * HKEX spread table (HKEX Trading Rules, Part A spread table): [prices up to, tick]. As revised in the first
 * phase of the tick size reduction, 4 August 2025: over HK$10 to 20 ticks 0.01 (0.02 before), over HK$20 to
 * 50 ticks 0.02 (0.05 before). HKEX's later phases (finer ticks above HK$50) change only these rows.
 */
const HKEX_SPREADS: readonly (readonly [number, number])[] = [
  [0.25, 0.001],
  [0.5, 0.005],
  [20, 0.01],
  [50, 0.02],
  [100, 0.05],
  [200, 0.1],
  [500, 0.2],
  [1000, 0.5],
  [2000, 1],
  [5000, 2],
  [Infinity, 5],
];

export function tickFor(price: number, rule: TickRule): number {
  if (rule !== 'hkex') return rule;
  for (const [upTo, tick] of HKEX_SPREADS) if (price <= upTo) return tick;
  return 5;
}

const decimalsCache = new Map<number, number>();

/** Decimals needed to print a tick (0.01 → 2, 0.005 → 3, 1 → 0). */
export function tickDecimals(tick: number): number {
  let decimals = decimalsCache.get(tick);
  if (decimals === undefined) {
    decimals = 6;
    for (let d = 0; d <= 6; d++) {
      if (Math.abs(Math.round(tick * 10 ** d) - tick * 10 ** d) < 1e-9) {
        decimals = d;
        break;
      }
    }
    decimalsCache.set(tick, decimals);
  }
  return decimals;
}

/** Rounds a price half up to its tick, never below one tick. */
export function roundToTick(price: number, rule: TickRule): number {
  const tick = tickFor(price, rule);
  const factor = 10 ** tickDecimals(tick);
  const steps = Math.max(1, Math.floor(price / tick + 0.5 + 1e-9));
  return Math.round(steps * tick * factor) / factor;
}

export interface PriceLimits {
  up: number;
  down: number;
}

/** Limit-up and limit-down from the previous close (rounded half up to the tick), or null without limits. */
export function priceLimits(prevClose: number, limit: number | null, rule: TickRule): PriceLimits | null {
  if (limit === null) return null;
  return { up: roundToTick(prevClose * (1 + limit), rule), down: roundToTick(prevClose * (1 - limit), rule) };
}

/** Clamps to the limits (if any) and rounds to the tick. */
export function clampAndRound(price: number, limits: PriceLimits | null, rule: TickRule): number {
  const rounded = roundToTick(price, rule);
  if (!limits) return rounded;
  return Math.min(limits.up, Math.max(limits.down, rounded));
}
