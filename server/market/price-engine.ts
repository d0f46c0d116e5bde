/**
 * The seeded price engine of the simulated exchange: pure and deterministic, so the same MARKET_SEED and
 * instrument always give the same prices.
 *
 * - Daily closes: a mean-reverting random walk in log price (it drifts back towards the reference price,
 *   so levels stay realistic for years) with rare jumps, from a fixed anchor day; each close is clamped to
 *   the day's price limits and rounded to the tick.
 * - Minutes of a day: a Brownian bridge from the day's open (a small gap from the previous close) to the
 *   day's close, clamped and rounded the same way, with a U-shaped volume curve.
 */
import { hashSeed, mulberry32, normalFrom } from './prng';
import type { Instrument, TickRule } from './catalogue';

/** HKEX spread table: the tick for a price (HKEX Trading Rules, Part A spread table). */
const HKEX_SPREADS: readonly (readonly [number, number])[] = [
  [0.25, 0.001],
  [0.5, 0.005],
  [10, 0.01],
  [20, 0.02],
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

/** What the engine needs to know about an instrument, its market and the simulation. */
export interface SeriesSpec {
  seed: string;
  instrument: Instrument;
  /** Daily price limit as a fraction, or null. */
  limit: number | null;
  /** The first day (day number) of simulated history; the day before closes at the reference price. */
  anchorDay: number;
  isTradingDay: (day: number) => boolean;
  /** Continuous trading minutes per day. */
  minutesPerDay: number;
  tradingDaysPerYear: number;
}

/** Mean-reversion speed per trading day towards the reference price (half-life about 70 trading days). */
const REVERSION = 0.01;
const JUMP_PROBABILITY = 0.012;
const JUMP_SIZE = 0.07;
const OPEN_GAP_SCALE = 0.3;

function dailySigma(spec: SeriesSpec): number {
  return spec.instrument.volatility / Math.sqrt(spec.tradingDaysPerYear);
}

/** One step of the daily walk: the close of trading day `day` after a previous close. Pure. */
export function nextClose(spec: SeriesSpec, day: number, prevClose: number): number {
  const uniform = mulberry32(hashSeed(spec.seed, spec.instrument.code, day, 'close'));
  const normal = normalFrom(uniform);
  const sigma = dailySigma(spec);
  const logRef = Math.log(spec.instrument.referencePrice);
  const logPrev = Math.log(prevClose);
  let step = REVERSION * (logRef - logPrev) + sigma * normal() - (sigma * sigma) / 2;
  if (uniform() < JUMP_PROBABILITY) step += JUMP_SIZE * normal();
  const limits = priceLimits(prevClose, spec.limit, spec.instrument.tick);
  return clampAndRound(prevClose * Math.exp(step), limits, spec.instrument.tick);
}

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

/** Builds the minute path of trading day `day` from the previous close to the day's close. Pure. */
export function buildDayPath(spec: SeriesSpec, day: number, prevClose: number, close: number): DayPath {
  const { instrument } = spec;
  const n = spec.minutesPerDay;
  const rule = instrument.tick;
  const limits = priceLimits(prevClose, spec.limit, rule);
  const uniform = mulberry32(hashSeed(spec.seed, instrument.code, day, 'minutes'));
  const normal = normalFrom(uniform);
  const sigma = dailySigma(spec);
  const sigmaMinute = sigma / Math.sqrt(n);

  const open = clampAndRound(prevClose * Math.exp(OPEN_GAP_SCALE * sigma * normal()), limits, rule);

  // Brownian bridge: a random walk W, minus its end scaled linearly, so it is 0 at both ends.
  const walk = new Float64Array(n + 1);
  for (let k = 1; k <= n; k++) walk[k] = walk[k - 1]! + sigmaMinute * normal();
  const end = walk[n]!;
  const logOpen = Math.log(open);
  const logClose = Math.log(close);
  const prices = new Float64Array(n + 1);
  for (let k = 0; k <= n; k++) {
    const x = k / n;
    prices[k] = clampAndRound(
      Math.exp(logOpen + x * (logClose - logOpen) + walk[k]! - x * end),
      limits,
      rule,
    );
  }
  prices[0] = open;
  prices[n] = close;

  const highs = new Float64Array(n + 1);
  const lows = new Float64Array(n + 1);
  const volumes = new Float64Array(n + 1);
  const weights = new Float64Array(n + 1);
  let weightSum = 0;
  for (let k = 1; k <= n; k++) {
    const a = prices[k - 1]!;
    const b = prices[k]!;
    const wick = Math.abs(normal()) * sigmaMinute * 0.5;
    highs[k] = clampAndRound(Math.max(a, b) * (1 + wick), limits, rule);
    lows[k] = clampAndRound(Math.min(a, b) * (1 - wick), limits, rule);
    if (highs[k]! < Math.max(a, b)) highs[k] = Math.max(a, b);
    if (lows[k]! > Math.min(a, b)) lows[k] = Math.min(a, b);
    // U-shaped activity over the day, more when the price moves.
    const x = (k - 0.5) / n;
    const u = 1 + 2 * (2 * x - 1) ** 2;
    const move = Math.abs(Math.log(b / a)) / sigmaMinute;
    weights[k] = u * (0.6 + 0.4 * Math.min(move, 4)) * Math.exp(0.3 * normal());
    weightSum += weights[k]!;
  }
  const dayMove = Math.abs(Math.log(close / prevClose)) / sigma;
  const dayVolume =
    instrument.avgDailyVolume * Math.exp(0.25 * normal()) * (0.8 + 0.2 * Math.min(dayMove, 5));
  const lot = instrument.lotSize;
  for (let k = 1; k <= n; k++) {
    volumes[k] = Math.round((dayVolume * weights[k]!) / weightSum / lot) * lot;
  }

  const runHigh = new Float64Array(n + 1);
  const runLow = new Float64Array(n + 1);
  const runVolume = new Float64Array(n + 1);
  const runTurnover = new Float64Array(n + 1);
  runHigh[0] = open;
  runLow[0] = open;
  for (let k = 1; k <= n; k++) {
    runHigh[k] = Math.max(runHigh[k - 1]!, highs[k]!);
    runLow[k] = Math.min(runLow[k - 1]!, lows[k]!);
    runVolume[k] = runVolume[k - 1]! + volumes[k]!;
    runTurnover[k] = runTurnover[k - 1]! + (volumes[k]! * (prices[k - 1]! + prices[k]!)) / 2;
  }
  return { day, prevClose, limits, prices, highs, lows, volumes, runHigh, runLow, runVolume, runTurnover };
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

/**
 * The daily series of one instrument with memoised closes and day paths. Deterministic: it only
 * caches what the pure functions above compute.
 */
export class InstrumentSeries {
  /** closes[i] is the close of day anchorDay + i (non-trading days repeat the last close). */
  private readonly closes: number[] = [];
  private readonly summaries = new Map<number, DaySummary>();
  private readonly paths = new Map<number, DayPath>();
  private static readonly PATH_CACHE = 8;

  constructor(readonly spec: SeriesSpec) {}

  /** The close of `day`; days before the anchor close at the reference price. */
  close(day: number): number {
    const { anchorDay, instrument } = this.spec;
    if (day < anchorDay) return instrument.referencePrice;
    const index = day - anchorDay;
    while (this.closes.length <= index) {
      const d = anchorDay + this.closes.length;
      const prev =
        this.closes.length === 0 ? instrument.referencePrice : this.closes[this.closes.length - 1]!;
      this.closes.push(this.spec.isTradingDay(d) ? nextClose(this.spec, d, prev) : prev);
    }
    return this.closes[index]!;
  }

  /** The previous trading day's close (the reference price before the anchor). */
  prevClose(day: number): number {
    let d = day - 1;
    while (d >= this.spec.anchorDay && !this.spec.isTradingDay(d)) d--;
    return this.close(d);
  }

  path(day: number): DayPath {
    const cached = this.paths.get(day);
    if (cached) {
      this.paths.delete(day);
      this.paths.set(day, cached);
      return cached;
    }
    const built = buildDayPath(this.spec, day, this.prevClose(day), this.close(day));
    this.paths.set(day, built);
    if (this.paths.size > InstrumentSeries.PATH_CACHE) {
      const oldest = this.paths.keys().next().value;
      if (oldest !== undefined) this.paths.delete(oldest);
    }
    return built;
  }

  /** The whole day's OHLCV (memoised; small). */
  daySummary(day: number): DaySummary {
    let s = this.summaries.get(day);
    if (!s) {
      // History is summarised without pushing the recent days' paths out of the small cache.
      const path = this.paths.get(day) ?? buildDayPath(this.spec, day, this.prevClose(day), this.close(day));
      s = summarise(path, this.spec.minutesPerDay);
      this.summaries.set(day, s);
    }
    return s;
  }
}
