/**
 * The seeded price engine of the simulated exchange: pure and deterministic, so the same MARKET_SEED and
 * instrument always give the same prices, byte for byte.
 *
 * - Days, walked forward from a fixed anchor day, each from its own seeded stream (seed, code, day): a
 *   mean-reverting log walk (levels stay realistic for years) whose daily volatility follows GARCH(1,1), so
 *   calm and stormy spells cluster; rare jumps; the open gaps from the previous close; high and low reach
 *   beyond them; volume grows with the move. Every price is clamped to the day's limits (none in the first
 *   five days after a listing) and rounded to the tick (the HKEX spread table in Hong Kong).
 * - Suspensions: now and then an instrument halts for one to five trading days (flat at the previous close,
 *   no volume) and then resumes.
 * - Corporate actions: about once a year a cash dividend, rarely a bonus issue (split); on the ex-date the
 *   limits and the change are measured from the ex-rights reference price, and cumulative factors give
 *   forward- and backward-adjusted history.
 * - Minutes of a day are built only when asked (today, the last few days): a Brownian bridge from the
 *   day's open to its close, stretched to touch exactly the day's high and low, with a U-shaped volume
 *   curve that sums exactly to the day's volume. So minute bars and the day bar always agree.
 */
import { SeededRandom, hashSeed, mixSeed, mulberry32 } from './prng';
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

/** A corporate action taking effect at the open of its ex-date. */
export interface CorporateAction {
  day: number;
  /** Cash dividend per share, in major units. */
  cash: number;
  /** Bonus shares per share held (0.3 = 3 for 10); 0 for a plain dividend. */
  bonus: number;
}

/** What the engine needs to know about an instrument, its market and the simulation. */
export interface SeriesSpec {
  seed: string;
  instrument: Pick<
    Instrument,
    'code' | 'tick' | 'referencePrice' | 'volatility' | 'avgDailyVolume' | 'lotSize'
  >;
  /** Daily price limit as a fraction, or null. */
  limit: number | null;
  /** The first day (day number) of simulated history; the day before closes at the reference price. */
  anchorDay: number;
  isTradingDay: (day: number) => boolean;
  /** Continuous trading minutes per day. */
  minutesPerDay: number;
  tradingDaysPerYear: number;
  /** A listing inside the simulated history: no trading before it, no limits for its first five days. */
  listedDay?: number;
  /** False for indexes and futures: no suspensions, no corporate actions. */
  corporateLife?: boolean;
}

/** Mean-reversion speed per trading day towards the reference price (half-life about 70 trading days). */
const REVERSION = 0.01;
const JUMP_PROBABILITY = 0.012;
const JUMP_SIZE = 0.07;
const OPEN_GAP_SCALE = 0.3;
const WICK_SCALE = 0.45;
/** GARCH(1,1): σ²ₜ = ω + α·ε²ₜ₋₁ + β·σ²ₜ₋₁ with ω = (1 − α − β)·σ̄². */
const GARCH_ALPHA = 0.08;
const GARCH_BETA = 0.9;
const SUSPEND_PROBABILITY = 0.0012;
const NEW_LISTING_FREE_DAYS = 5;

function longRunSigma(spec: SeriesSpec): number {
  return spec.instrument.volatility / Math.sqrt(spec.tradingDaysPerYear);
}

/** The ex-rights reference price after an action (the base for the day's change and limits). */
export function exRightsPrice(
  prevClose: number,
  action: CorporateAction | undefined,
  rule: TickRule,
): number {
  if (!action) return prevClose;
  return roundToTick((prevClose - action.cash) / (1 + action.bonus), rule);
}

/** The corporate actions of one calendar year (deterministic): dated, not yet moved to trading days. */
export function actionsOfYear(
  spec: SeriesSpec,
  year: number,
): { date: number; cash: number; bonus: number }[] {
  if (spec.corporateLife === false) return [];
  const uniform = mulberry32(hashSeed(spec.seed, spec.instrument.code, year, 'actions'));
  const out: { date: number; cash: number; bonus: number }[] = [];
  if (uniform() < 0.75) {
    // One dividend, paid between late May and late August, of 0.5–3.5% of the reference price.
    const date = Date.UTC(year, 4, 20) / 86_400_000 + Math.floor(uniform() * 95);
    const cash = Math.round(spec.instrument.referencePrice * (0.005 + 0.03 * uniform()) * 1000) / 1000;
    const bonus = uniform() < 0.12 ? [0.2, 0.3, 0.5, 1][Math.floor(uniform() * 4)]! : 0;
    out.push({ date, cash, bonus });
  }
  return out;
}

/** One day of the simulation. Prices are unadjusted. */
export interface DayRecord {
  day: number;
  /** The base of the day's change and limits: the previous close, or its ex-rights price on an ex-date. */
  prevClose: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  sigma: number;
  trading: boolean;
  suspended: boolean;
  /** The first trading day after a suspension. */
  resumed: boolean;
  listed: boolean;
  action: CorporateAction | null;
  limits: PriceLimits | null;
  /** Product of (prevClose / ex-rights price) over actions up to and including this day: backward factor. */
  factor: number;
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

/** Builds the minute path of one day from its record: it opens, closes, peaks and bottoms as the day does. Pure. */
export function buildDayPath(spec: SeriesSpec, rec: DayRecord): DayPath {
  const { instrument } = spec;
  const n = spec.minutesPerDay;
  const rule = instrument.tick;
  const { open, close, high, low, limits } = rec;
  const prices = new Float64Array(n + 1);
  const highs = new Float64Array(n + 1);
  const lows = new Float64Array(n + 1);
  const volumes = new Float64Array(n + 1);
  const runHigh = new Float64Array(n + 1);
  const runLow = new Float64Array(n + 1);
  const runVolume = new Float64Array(n + 1);
  const runTurnover = new Float64Array(n + 1);
  if (!rec.trading || rec.suspended || rec.volume === 0) {
    prices.fill(rec.close);
    highs.fill(rec.close);
    lows.fill(rec.close);
    runHigh.fill(rec.close);
    runLow.fill(rec.close);
    return {
      day: rec.day,
      prevClose: rec.prevClose,
      limits,
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
  const rng = new SeededRandom(mixSeed(hashSeed(spec.seed, instrument.code), rec.day, 2));
  const normal = () => rng.normal();
  const sigmaMinute = rec.sigma / Math.sqrt(n);

  // Brownian bridge around the straight line from open to close (log prices).
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
  // Stretch the excursions above and below the line so the path touches the day's high and low.
  const stretch = (target: number, sign: 1 | -1): number => {
    const reach = (s: number) => {
      let best = -Infinity;
      for (let k = 0; k <= n; k++) {
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
  };
  const up = stretch(Math.log(high), 1);
  const down = stretch(Math.log(low), -1);
  for (let k = 0; k <= n; k++) {
    const d = dev[k]!;
    const p = Math.exp(base[k]! + (d > 0 ? up * d : down * d));
    prices[k] = Math.min(high, Math.max(low, clampAndRound(p, limits, rule)));
  }
  prices[0] = open;
  prices[n] = close;

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
    // U-shaped activity over the day, more when the price moves.
    const x = (k - 0.5) / n;
    const u = 1 + 2 * (2 * x - 1) ** 2;
    const move = Math.abs(Math.log(b / a)) / sigmaMinute;
    weights[k] = u * (0.6 + 0.4 * Math.min(move, 4)) * Math.exp(0.3 * normal());
    weightSum += weights[k]!;
  }
  // The day's extremes are printed somewhere (rounding may leave the stretched path one tick short).
  highs[topK] = high;
  lows[bottomK] = low;
  const lot = instrument.lotSize;
  let cumWeight = 0;
  let assigned = 0;
  for (let k = 1; k <= n; k++) {
    cumWeight += weights[k]!;
    const upTo = k === n ? rec.volume : Math.round((rec.volume * cumWeight) / weightSum / lot) * lot;
    volumes[k] = Math.max(0, upTo - assigned);
    assigned += volumes[k]!;
  }
  runHigh[0] = open;
  runLow[0] = open;
  for (let k = 1; k <= n; k++) {
    runHigh[k] = Math.max(runHigh[k - 1]!, highs[k]!);
    runLow[k] = Math.min(runLow[k - 1]!, lows[k]!);
    runVolume[k] = runVolume[k - 1]! + volumes[k]!;
    runTurnover[k] = runTurnover[k - 1]! + (volumes[k]! * (prices[k - 1]! + prices[k]!)) / 2;
  }
  return {
    day: rec.day,
    prevClose: rec.prevClose,
    limits,
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
 * The daily series of one instrument: day records computed once, in order, from the anchor and kept in a
 * compact form; minute paths built on demand for a few recent days. Deterministic: it only caches what the
 * pure steps compute.
 */
export class InstrumentSeries {
  /** Day records from the anchor, stored column-wise (a DayRecord object is made only when asked for). */
  private length = 0;
  private cols = InstrumentSeries.columns(0);
  private readonly actionDays = new Map<number, CorporateAction>();
  private last: DayRecord | null = null;
  private readonly paths = new Map<number, DayPath>();
  private static readonly PATH_CACHE = 6; // five days of minute bars and the next day
  private pendingAction: CorporateAction | null = null;
  private sigma2: number;
  private eps2: number;
  private suspendLeft = 0;
  private wasSuspended = false;

  constructor(readonly spec: SeriesSpec) {
    const s = longRunSigma(spec);
    this.baseHash = hashSeed(spec.seed, spec.instrument.code);
    this.sigma2 = s * s;
    this.eps2 = s * s;
  }

  private readonly baseHash: number;
  private actionYear = -1;
  private readonly yearActions = new Map<number, { cash: number; bonus: number }>();

  /** The action dated `day` (calendar date; it takes effect on the next trading day on or after it). */
  private actionDated(day: number): { cash: number; bonus: number } | undefined {
    const year = new Date(day * 86_400_000).getUTCFullYear();
    if (year !== this.actionYear) {
      this.actionYear = year;
      this.yearActions.clear();
      for (const a of actionsOfYear(this.spec, year)) this.yearActions.set(a.date, a);
    }
    return this.yearActions.get(day);
  }

  /** Computes the record of `day` from the previous one (pure given the sequence so far). */
  private flat(
    day: number,
    prevClose: number,
    factor: number,
    listed: boolean,
    trading: boolean,
    suspended: boolean,
  ): DayRecord {
    return {
      day,
      prevClose,
      open: prevClose,
      high: prevClose,
      low: prevClose,
      close: prevClose,
      volume: 0,
      sigma: Math.sqrt(this.sigma2),
      trading,
      suspended,
      resumed: false,
      listed,
      action: null,
      limits: null,
      factor,
    };
  }

  private step(day: number, prev: DayRecord | null): DayRecord {
    const { spec } = this;
    const { instrument } = spec;
    const rule = instrument.tick;
    const prevClose = prev ? prev.close : instrument.referencePrice;
    const prevFactor = prev ? prev.factor : 1;
    const dated = this.actionDated(day);
    if (dated) this.pendingAction = { day, cash: dated.cash, bonus: dated.bonus };
    const listed = spec.listedDay === undefined || day >= spec.listedDay;
    if (!spec.isTradingDay(day)) return this.flat(day, prevClose, prevFactor, listed, false, false);
    if (!listed) {
      // Dividends dated before the listing are not the new company's: its first day is no ex-date.
      this.pendingAction = null;
      return this.flat(day, prevClose, prevFactor, listed, true, false);
    }
    const rng = new SeededRandom(mixSeed(this.baseHash, day, 1));
    if (spec.corporateLife !== false) {
      if (this.suspendLeft === 0 && rng.uniform() < SUSPEND_PROBABILITY)
        this.suspendLeft = 1 + Math.floor(rng.uniform() * 5);
      if (this.suspendLeft > 0) {
        this.suspendLeft--;
        this.wasSuspended = true;
        return this.flat(day, prevClose, prevFactor, listed, true, true);
      }
    }
    const resumed = this.wasSuspended;
    this.wasSuspended = false;
    const action = this.pendingAction ? { ...this.pendingAction, day } : null;
    this.pendingAction = null;
    const ref = exRightsPrice(prevClose, action ?? undefined, rule);
    const factor = action ? prevFactor * (prevClose / ref) : prevFactor;
    const longRun = longRunSigma(spec);
    this.sigma2 =
      (1 - GARCH_ALPHA - GARCH_BETA) * longRun * longRun + GARCH_ALPHA * this.eps2 + GARCH_BETA * this.sigma2;
    const sigma = Math.sqrt(this.sigma2);
    // Five trading days lie within a month of the listing, whatever the holidays (cheap test first).
    const free =
      spec.listedDay !== undefined &&
      day - spec.listedDay < 31 &&
      this.tradingDaysSince(spec.listedDay, day) < NEW_LISTING_FREE_DAYS;
    const limits = free ? null : priceLimits(ref, spec.limit, rule);
    let move =
      REVERSION * (Math.log(instrument.referencePrice) - Math.log(ref)) +
      sigma * rng.normal() -
      (sigma * sigma) / 2;
    if (rng.uniform() < JUMP_PROBABILITY) move += JUMP_SIZE * rng.normal();
    const close = clampAndRound(ref * Math.exp(move), limits, rule);
    const open = clampAndRound(ref * Math.exp(OPEN_GAP_SCALE * sigma * rng.normal()), limits, rule);
    const top = Math.max(open, close);
    const bottom = Math.min(open, close);
    const high = Math.max(
      top,
      clampAndRound(top * Math.exp(Math.abs(rng.normal()) * sigma * WICK_SCALE), limits, rule),
    );
    const low = Math.min(
      bottom,
      clampAndRound(bottom * Math.exp(-Math.abs(rng.normal()) * sigma * WICK_SCALE), limits, rule),
    );
    const eps = Math.log(close / ref);
    this.eps2 = eps * eps;
    const lot = instrument.lotSize;
    const activity = Math.exp(0.25 * rng.normal()) * (0.8 + 0.2 * Math.min(Math.abs(eps) / longRun, 5));
    const volume = Math.max(lot, Math.round((instrument.avgDailyVolume * activity) / lot) * lot);
    return {
      day,
      prevClose: ref,
      open,
      high,
      low,
      close,
      volume,
      sigma,
      trading: true,
      suspended: false,
      resumed,
      listed,
      action,
      limits,
      factor,
    };
  }

  private tradingDaysSince(from: number, day: number): number {
    let count = 0;
    for (let d = from; d < day; d++) if (this.spec.isTradingDay(d)) count++;
    return count;
  }

  /** The record of `day` (days before the anchor: flat at the reference price). */
  record(day: number): DayRecord {
    const { anchorDay } = this.spec;
    if (day < anchorDay) {
      const p = this.spec.instrument.referencePrice;
      return {
        day,
        prevClose: p,
        open: p,
        high: p,
        low: p,
        close: p,
        volume: 0,
        sigma: longRunSigma(this.spec),
        trading: false,
        suspended: false,
        resumed: false,
        listed: false,
        action: null,
        limits: null,
        factor: 1,
      };
    }
    const index = day - anchorDay;
    while (this.length <= index) {
      const rec = this.step(anchorDay + this.length, this.last);
      this.store(rec, index);
      this.last = rec;
    }
    return this.load(index);
  }

  private static columns(size: number) {
    return {
      prevClose: new Float64Array(size),
      open: new Float64Array(size),
      high: new Float64Array(size),
      low: new Float64Array(size),
      close: new Float64Array(size),
      volume: new Float64Array(size),
      factor: new Float64Array(size),
      sigma: new Float32Array(size),
      /** bit 0 trading, 1 suspended, 2 resumed, 3 listed, 4 limit-free */
      flags: new Uint8Array(size),
    };
  }

  private store(r: DayRecord, wanted: number): void {
    const i = this.length;
    if (i >= this.cols.close.length) {
      // Grow to what is being asked for plus about a year, not by doubling: history is long and many.
      const grown = InstrumentSeries.columns(Math.max(wanted + 1, i + 1) + 370);
      for (const key of Object.keys(grown) as (keyof typeof grown)[]) grown[key].set(this.cols[key] as never);
      this.cols = grown;
    }
    const c = this.cols;
    c.prevClose[i] = r.prevClose;
    c.open[i] = r.open;
    c.high[i] = r.high;
    c.low[i] = r.low;
    c.close[i] = r.close;
    c.volume[i] = r.volume;
    c.factor[i] = r.factor;
    c.sigma[i] = r.sigma;
    const free = r.trading && !r.suspended && r.listed && r.limits === null && this.spec.limit !== null;
    c.flags[i] =
      (r.trading ? 1 : 0) |
      (r.suspended ? 2 : 0) |
      (r.resumed ? 4 : 0) |
      (r.listed ? 8 : 0) |
      (free ? 16 : 0);
    if (r.action) this.actionDays.set(r.day, r.action);
    this.length++;
  }

  private load(i: number): DayRecord {
    const c = this.cols;
    const flags = c.flags[i]!;
    const day = this.spec.anchorDay + i;
    const trading = (flags & 1) !== 0;
    const suspended = (flags & 2) !== 0;
    const listed = (flags & 8) !== 0;
    const prevClose = c.prevClose[i]!;
    return {
      day,
      prevClose,
      open: c.open[i]!,
      high: c.high[i]!,
      low: c.low[i]!,
      close: c.close[i]!,
      volume: c.volume[i]!,
      sigma: c.sigma[i]!,
      trading,
      suspended,
      resumed: (flags & 4) !== 0,
      listed,
      action: this.actionDays.get(day) ?? null,
      limits:
        trading && !suspended && listed && (flags & 16) === 0
          ? priceLimits(prevClose, this.spec.limit, this.spec.instrument.tick)
          : null,
      factor: c.factor[i]!,
    };
  }

  /** Number of days stored (for the engine's own tests and the bench). */
  get storedDays(): number {
    return this.length;
  }

  /** The close of `day`; days before the anchor close at the reference price. */
  close(day: number): number {
    return this.record(day).close;
  }

  /** The base of `day`'s change: the previous close (ex-rights on an ex-date). */
  prevClose(day: number): number {
    return this.record(day).prevClose;
  }

  path(day: number): DayPath {
    const cached = this.paths.get(day);
    if (cached) {
      this.paths.delete(day);
      this.paths.set(day, cached);
      return cached;
    }
    const built = buildDayPath(this.spec, this.record(day));
    this.paths.set(day, built);
    if (this.paths.size > InstrumentSeries.PATH_CACHE) {
      const oldest = this.paths.keys().next().value;
      if (oldest !== undefined) this.paths.delete(oldest);
    }
    return built;
  }

  /** The whole day's OHLCV, straight from the record (the minute path agrees with it). */
  daySummary(day: number): DaySummary {
    const r = this.record(day);
    return {
      day,
      open: r.open,
      high: r.high,
      low: r.low,
      close: r.close,
      volume: r.volume,
      turnover: Math.round(r.volume * ((r.open + r.high + r.low + r.close) / 4) * 100) / 100,
    };
  }
}
