/**
 * The minutes of one simulated day, built only when asked (today, the last few days): a Brownian bridge from
 * the day's open to its close, stretched to touch exactly the day's high and low, with a U-shaped volume
 * curve that sums exactly to the day's volume. So minute bars and the day bar always agree.
 */
import type { TickRule } from './catalogue';
import { hashSeed, mixSeed, SeededRandom } from './prng';
import type { DayRecord, ImportedMinute, SeriesSpec } from './series-spec';
import { clampAndRound, type PriceLimits } from './ticks';

/** A day's minute path: index 0 is the open, index k the price after k minutes, the last index the close. */
export interface DayPath {
  day: number;
  prevClose: number;
  limits: PriceLimits | null;
  /** Prices after k minutes, k = 0 … minutesPerDay. */
  prices: Float64Array;
  /** High and low of minute bar k (covering minutes k-1 … k), k ≥ 1. */
  highs: Float64Array;
  lows: Float64Array;
  /** Shares traded in minute bar k. */
  volumes: Float64Array;
  /** Running high, low, volume and turnover up to and including minute k. */
  runHigh: Float64Array;
  runLow: Float64Array;
  runVolume: Float64Array;
  runTurnover: Float64Array;
}

/** OHLCV of a whole or partial day. */
export interface DaySummary {
  day: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  turnover: number;
}

/** Builds the minute path of one day from its record: it opens, closes, peaks and bottoms as the day does. Pure. */
export function buildDayPath(spec: SeriesSpec, rec: DayRecord): DayPath {
  const { instrument } = spec;
  const n = spec.minutesPerDay;
  if (!rec.trading || rec.suspended || rec.volume === 0) return flatPath(rec, n);
  // One stream per instrument and day; the steps below draw from it in a fixed order.
  const rng = new SeededRandom(mixSeed(hashSeed(spec.seed, instrument.code), rec.day, 2));
  const normal = () => rng.normal();
  const sigmaMinute = rec.sigma / Math.sqrt(n);
  const prices = bridgePrices(rec, n, instrument.tick, sigmaMinute, normal);
  const { highs, lows, weights, weightSum } = minuteRanges(rec, prices, instrument.tick, sigmaMinute, normal);
  const volumes = spreadVolume(rec.volume, weights, weightSum, instrument.lotSize);
  return withRunningTotals(rec, prices, highs, lows, volumes);
}

/** A day's path from its minutes' prices, highs, lows and volumes, with their running totals. */
function withRunningTotals(
  rec: DayRecord,
  prices: Float64Array,
  highs: Float64Array,
  lows: Float64Array,
  volumes: Float64Array,
): DayPath {
  const n = prices.length - 1;
  const runHigh = new Float64Array(n + 1);
  const runLow = new Float64Array(n + 1);
  const runVolume = new Float64Array(n + 1);
  const runTurnover = new Float64Array(n + 1);
  runHigh[0] = rec.open;
  runLow[0] = rec.open;
  for (let k = 1; k <= n; k++) {
    runHigh[k] = Math.max(runHigh[k - 1]!, highs[k]!);
    runLow[k] = Math.min(runLow[k - 1]!, lows[k]!);
    runVolume[k] = runVolume[k - 1]! + volumes[k]!;
    runTurnover[k] = runTurnover[k - 1]! + (volumes[k]! * (prices[k - 1]! + prices[k]!)) / 2;
  }
  return {
    day: rec.day,
    prevClose: rec.prevClose,
    limits: rec.limits,
    prices,
    highs,
    lows,
    volumes,
    runHigh,
    runLow,
    runVolume,
    runTurnover,
  };
}

/**
 * The path of a day replayed from imported minutes: each imported minute is its path minute, and a minute
 * without one stays at the last price with nothing traded. The day's record is its minutes' aggregate
 * (SeriesHistory.day), so the path and the day bar agree here too.
 */
export function pathFromMinutes(rec: DayRecord, n: number, minutes: readonly ImportedMinute[]): DayPath {
  const prices = new Float64Array(n + 1);
  const highs = new Float64Array(n + 1);
  const lows = new Float64Array(n + 1);
  const volumes = new Float64Array(n + 1);
  prices[0] = rec.open;
  let next = 0;
  for (let k = 1; k <= n; k++) {
    while (next < minutes.length && minutes[next]!.k < k) next++;
    const m = minutes[next]?.k === k ? minutes[next]! : null;
    const last = prices[k - 1]!;
    prices[k] = m ? m.close : last;
    highs[k] = m ? m.high : last;
    lows[k] = m ? m.low : last;
    volumes[k] = m ? m.volume : 0;
  }
  return withRunningTotals(rec, prices, highs, lows, volumes);
}

/** A day without trade (closed, suspended, or no volume): flat at the close, nothing traded. */
function flatPath(rec: DayRecord, n: number): DayPath {
  const flat = () => new Float64Array(n + 1).fill(rec.close);
  return {
    day: rec.day,
    prevClose: rec.prevClose,
    limits: rec.limits,
    prices: flat(),
    highs: flat(),
    lows: flat(),
    volumes: new Float64Array(n + 1),
    runHigh: flat(),
    runLow: flat(),
    runVolume: new Float64Array(n + 1),
    runTurnover: new Float64Array(n + 1),
  };
}

/**
 * The price after each minute: a Brownian bridge around the straight line from open to close (log prices),
 * its excursions above and below the line stretched so the path touches the day's high and low, clamped to
 * the limits and rounded to the tick.
 */
function bridgePrices(
  rec: DayRecord,
  n: number,
  rule: TickRule,
  sigmaMinute: number,
  normal: () => number,
): Float64Array {
  const { open, close, high, low, limits } = rec;
  const walk = new Float64Array(n + 1);
  for (let k = 1; k <= n; k++) walk[k] = walk[k - 1]! + sigmaMinute * normal();
  const end = walk[n]!;
  const logOpen = Math.log(open);
  const logClose = Math.log(close);
  const base = new Float64Array(n + 1);
  const dev = new Float64Array(n + 1);
  for (let k = 0; k <= n; k++) {
    const x = k / n;
    base[k] = logOpen + x * (logClose - logOpen);
    dev[k] = walk[k]! - x * end;
  }
  const up = stretchFactor(base, dev, Math.log(high), 1);
  const down = stretchFactor(base, dev, Math.log(low), -1);
  const prices = new Float64Array(n + 1);
  for (let k = 0; k <= n; k++) {
    const d = dev[k]!;
    const p = Math.exp(base[k]! + (d > 0 ? up * d : down * d));
    prices[k] = Math.min(high, Math.max(low, clampAndRound(p, limits, rule)));
  }
  prices[0] = open;
  prices[n] = close;
  return prices;
}

/**
 * How far to stretch the excursions on one side of the line (sign 1 above, -1 below) for the path to reach
 * `target` (a log price): found by bisection, 0 when the line already reaches it.
 */
function stretchFactor(base: Float64Array, dev: Float64Array, target: number, sign: 1 | -1): number {
  const reach = (s: number) => {
    let best = -Infinity;
    for (let k = 0; k < base.length; k++) {
      const d = sign * dev[k]!;
      best = Math.max(best, sign * base[k]! + s * (d > 0 ? d : 0));
    }
    return best;
  };
  const goal = sign * target;
  if (reach(0) >= goal) return 0;
  let hi = 1;
  while (reach(hi) < goal && hi < 1e6) hi *= 2;
  let lo = 0;
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (reach(mid) < goal) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * Each minute bar's high and low (a small wick beyond its open and close, within the day's range) and its
 * share of the day's activity: U-shaped over the day, more when the price moves.
 */
function minuteRanges(
  rec: DayRecord,
  prices: Float64Array,
  rule: TickRule,
  sigmaMinute: number,
  normal: () => number,
): { highs: Float64Array; lows: Float64Array; weights: Float64Array; weightSum: number } {
  const { high, low, limits } = rec;
  const n = prices.length - 1;
  const highs = new Float64Array(n + 1);
  const lows = new Float64Array(n + 1);
  const weights = new Float64Array(n + 1);
  let weightSum = 0;
  let topK = 1;
  let bottomK = 1;
  for (let k = 1; k <= n; k++) {
    const a = prices[k - 1]!;
    const b = prices[k]!;
    const wick = Math.abs(normal()) * sigmaMinute * 0.5;
    highs[k] = Math.min(
      high,
      Math.max(Math.max(a, b), clampAndRound(Math.max(a, b) * (1 + wick), limits, rule)),
    );
    lows[k] = Math.max(
      low,
      Math.min(Math.min(a, b), clampAndRound(Math.min(a, b) * (1 - wick), limits, rule)),
    );
    if (highs[k]! > highs[topK]!) topK = k;
    if (lows[k]! < lows[bottomK]!) bottomK = k;
    const x = (k - 0.5) / n;
    const u = 1 + 2 * (2 * x - 1) ** 2;
    const move = Math.abs(Math.log(b / a)) / sigmaMinute;
    weights[k] = u * (0.6 + 0.4 * Math.min(move, 4)) * Math.exp(0.3 * normal());
    weightSum += weights[k]!;
  }
  // The day's extremes are printed somewhere (rounding may leave the stretched path one tick short).
  highs[topK] = high;
  lows[bottomK] = low;
  return { highs, lows, weights, weightSum };
}

/** The day's volume spread over the minutes by weight, in whole lots; the last minute takes the remainder. */
function spreadVolume(volume: number, weights: Float64Array, weightSum: number, lot: number): Float64Array {
  const n = weights.length - 1;
  const volumes = new Float64Array(n + 1);
  let cumWeight = 0;
  let assigned = 0;
  for (let k = 1; k <= n; k++) {
    cumWeight += weights[k]!;
    const upTo = k === n ? volume : Math.round((volume * cumWeight) / weightSum / lot) * lot;
    volumes[k] = Math.max(0, upTo - assigned);
    assigned += volumes[k]!;
  }
  return volumes;
}

/** The day so far after `k` minutes (k = minutesPerDay for the whole day). */
export function summarise(path: DayPath, k: number): DaySummary {
  return {
    day: path.day,
    open: path.prices[0]!,
    high: path.runHigh[k]!,
    low: path.runLow[k]!,
    close: path.prices[k]!,
    volume: path.runVolume[k]!,
    turnover: Math.round(path.runTurnover[k]! * 100) / 100,
  };
}
