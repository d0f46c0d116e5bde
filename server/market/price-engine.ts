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
 * - Minutes of a day are built only when asked (day-path.ts), and agree with the day bar.
 * - Replay (MARKET_SOURCE=replay): an instrument with imported history trades its imported days instead, up
 *   to its last bar (`replayed`), with its imported minutes where there are some; the walk then goes on from
 *   the last close at the volatility the bars showed.
 *
 * Ticks and limits live in ticks.ts, corporate actions in corporate-actions.ts; this module re-exports them
 * as the engine's one import for the rest of the market.
 */
import { exRightsPrice, actionsOfYear } from './corporate-actions';
import { buildDayPath, pathFromMinutes, type DayPath, type DaySummary } from './day-path';
import { SeededRandom, hashSeed, mixSeed } from './prng';
import type { CorporateAction, DayRecord, SeriesHistory, SeriesSpec } from './series-spec';
import { clampAndRound, priceLimits } from './ticks';

export { actionsOfYear, exRightsPrice } from './corporate-actions';
export { buildDayPath, summarise, type DayPath, type DaySummary } from './day-path';
export type {
  CorporateAction,
  DayRecord,
  ImportedBar,
  ImportedMinute,
  SeriesHistory,
  SeriesSpec,
} from './series-spec';
export { clampAndRound, priceLimits, roundToTick, tickDecimals, tickFor, type PriceLimits } from './ticks';

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
export const NEW_LISTING_FREE_DAYS = 5;

function longRunSigma(spec: SeriesSpec): number {
  return spec.history?.dailySigma ?? spec.instrument.volatility / Math.sqrt(spec.tradingDaysPerYear);
}

/** Parkinson's estimate of a day's volatility from its range: ln(high / low) ÷ √(4 ln 2). */
const PARKINSON = Math.sqrt(4 * Math.LN2);

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
    // After a replayed history the simulation reverts to where the history left the price.
    this.reference = spec.history?.lastClose ?? spec.instrument.referencePrice;
  }

  /** The level the simulated walk reverts to. */
  private readonly reference: number;

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

  /**
   * A day of imported history (DOMAIN.md's rules still hold: the limits are the market's, measured from the
   * previous close; a bar beyond them, as unadjusted data shows on an ex-date, leaves the day without
   * limits rather than clamping what really traded). A trading day without a bar is a suspension.
   */
  private replayed(day: number, prev: DayRecord | null, history: SeriesHistory): DayRecord {
    const trading = this.spec.isTradingDay(day);
    const factor = prev ? prev.factor : 1;
    this.pendingAction = null;
    if (day < history.firstDay) return this.flat(day, history.firstOpen, factor, false, trading, false);
    const bar = history.day(day);
    const prevClose = prev && prev.listed ? prev.close : (bar?.open ?? history.firstOpen);
    if (!trading) return this.flat(day, prevClose, factor, true, false, false);
    if (!bar) {
      this.wasSuspended = true;
      return this.flat(day, prevClose, factor, true, true, true);
    }
    const resumed = this.wasSuspended;
    this.wasSuspended = false;
    const rule = this.spec.instrument.tick;
    const market = priceLimits(prevClose, this.spec.limit, rule);
    const within = market !== null && bar.low >= market.down - 1e-9 && bar.high <= market.up + 1e-9;
    const range = Math.log(bar.high / bar.low) / PARKINSON;
    const sigma = range > 0 ? range : longRunSigma(this.spec);
    const eps = Math.log(bar.close / prevClose);
    this.sigma2 = sigma * sigma;
    this.eps2 = eps * eps;
    return {
      day,
      prevClose,
      open: bar.open,
      high: bar.high,
      low: bar.low,
      close: bar.close,
      // A bar that moved traded something: a path needs volume to move (the lot is the least).
      volume: Math.max(bar.volume, this.spec.instrument.lotSize),
      sigma,
      trading: true,
      suspended: false,
      resumed,
      listed: true,
      action: null,
      limits: within ? market : null,
      factor,
    };
  }

  private step(day: number, prev: DayRecord | null): DayRecord {
    const { spec } = this;
    const { instrument } = spec;
    if (spec.history && day <= spec.history.lastDay) return this.replayed(day, prev, spec.history);
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
      REVERSION * (Math.log(this.reference) - Math.log(ref)) + sigma * rng.normal() - (sigma * sigma) / 2;
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
    const record = this.record(day);
    const minutes = record.trading && !record.suspended ? this.spec.history?.minutes(day) : undefined;
    const built = minutes
      ? pathFromMinutes(record, this.spec.minutesPerDay, minutes)
      : buildDayPath(this.spec, record);
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
