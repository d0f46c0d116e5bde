/**
 * The simulated exchange as the rest of the station sees it: instruments, quotes, session status and
 * bars at the clock's "now". It holds no state of its own beyond the engine's memoised series.
 */
import type {
  Bar,
  DayPeriod,
  InstrumentStatus,
  MinutePeriod,
  Page,
  Quote,
  StockDetail,
  StockMarket,
} from '../../src/shared/api/types';
import type { ClockMode, Settings } from '../config';
import { AppError } from '../errors';
import type { Clock } from './clock';
import type { Instrument } from './catalogue';
import { InstrumentSeries, priceLimits, tickDecimals, tickFor, type DaySummary } from './price-engine';
import {
  DAY_MS,
  elapsedToLocalMinute,
  hoursFor,
  isTradingDay,
  localMinuteToUtc,
  nextTradingDayOpen,
  previousTradingDay,
  sessionMinutes,
  sessionPosition,
  type MarketHours,
  type SessionPosition,
} from './sessions';

export type QuoteSort = 'changePct' | '-changePct' | 'turnover' | '-turnover' | 'price' | '-price';
export const QUOTE_SORTS: readonly QuoteSort[] = [
  'changePct',
  '-changePct',
  'turnover',
  '-turnover',
  'price',
  '-price',
];

export interface MarketOptions {
  seed: string;
  clockMode: ClockMode;
  settings: Settings;
}

/** Series are pure functions of their spec, so one cache serves every station in the process. */
const seriesCache = new Map<string, InstrumentSeries>();

function round(value: number, decimals: number): number {
  return Number(value.toFixed(decimals));
}

export class MarketService {
  private readonly byCode: Map<string, Instrument>;
  private readonly anchorDay: number;

  constructor(
    readonly instruments: readonly Instrument[],
    private readonly options: MarketOptions,
    private readonly clock: Clock,
  ) {
    this.byCode = new Map(instruments.map((i) => [i.code, i]));
    const anchor = Date.parse(`${options.settings.marketAnchorDate}T00:00:00Z`);
    if (!Number.isFinite(anchor)) throw new Error('settings.marketAnchorDate is not a date');
    this.anchorDay = Math.floor(anchor / DAY_MS);
  }

  get clockMode(): ClockMode {
    return this.options.clockMode;
  }

  now(): number {
    return this.clock.now();
  }

  find(code: string): Instrument | undefined {
    return this.byCode.get(code.toUpperCase());
  }

  /** The instrument, or NOT_FOUND. */
  get(code: string): Instrument {
    const instrument = this.find(code);
    if (!instrument) throw new AppError('NOT_FOUND');
    return instrument;
  }

  hours(instrument: Instrument): MarketHours {
    return hoursFor(instrument.market, this.options.clockMode);
  }

  series(instrument: Instrument): InstrumentSeries {
    const key = `${this.options.seed}\u001f${this.options.clockMode}\u001f${this.anchorDay}\u001f${instrument.code}`;
    let series = seriesCache.get(key);
    if (!series) {
      const hours = this.hours(instrument);
      series = new InstrumentSeries({
        seed: this.options.seed,
        instrument,
        limit: this.options.settings.priceLimit[instrument.market],
        anchorDay: this.anchorDay,
        isTradingDay: (day) => isTradingDay(day, hours),
        minutesPerDay: sessionMinutes(hours),
        tradingDaysPerYear: this.options.clockMode === 'always-open' ? 365 : 252,
      });
      seriesCache.set(key, series);
    }
    return series;
  }

  position(instrument: Instrument, t = this.clock.now()): SessionPosition {
    return sessionPosition(t, this.hours(instrument));
  }

  /** True while the instrument's market is in a continuous session (always, in always-open mode). */
  isOpen(instrument: Instrument, t = this.clock.now()): boolean {
    return this.position(instrument, t).inSession;
  }

  /** T+1: when shares bought at `openedAt` may be sold (at once where the market is T+0). */
  sellableFrom(instrument: Instrument, openedAt: number): number {
    if (!this.options.settings.tPlusOne[instrument.market]) return openedAt;
    return nextTradingDayOpen(openedAt, this.hours(instrument));
  }

  private decimals(instrument: Instrument, ...prices: number[]): number {
    return Math.max(...prices.map((p) => tickDecimals(tickFor(p, instrument.tick))));
  }

  quote(instrument: Instrument, t = this.clock.now()): Quote {
    const hours = this.hours(instrument);
    const pos = sessionPosition(t, hours);
    const series = this.series(instrument);
    const path = series.path(pos.day);
    const k = Math.min(Math.floor(pos.elapsed), series.spec.minutesPerDay);
    const price = path.prices[k]!;
    const prevClose = path.prevClose;
    const dayEnd = localMinuteToUtc(
      pos.day,
      elapsedToLocalMinute(series.spec.minutesPerDay, hours),
      hours.timeZone,
    );
    return {
      code: instrument.code,
      name: instrument.name,
      market: instrument.market,
      price,
      prevClose,
      open: path.prices[0]!,
      high: path.runHigh[k]!,
      low: path.runLow[k]!,
      change: round(price - prevClose, this.decimals(instrument, price, prevClose)),
      changePct: round((price - prevClose) / prevClose, 6),
      volume: path.runVolume[k]!,
      turnover: Math.round(path.runTurnover[k]! * 100) / 100,
      time: Math.min(t, dayEnd),
    };
  }

  status(instrument: Instrument, t = this.clock.now()): InstrumentStatus {
    return this.isOpen(instrument, t) ? 'trading' : 'closed';
  }

  detail(instrument: Instrument, t = this.clock.now()): StockDetail {
    const quote = this.quote(instrument, t);
    const limits = priceLimits(
      quote.prevClose,
      this.options.settings.priceLimit[instrument.market],
      instrument.tick,
    );
    return {
      ...quote,
      limitUp: limits?.up ?? null,
      limitDown: limits?.down ?? null,
      lotSize: this.options.settings.lotRules[instrument.market].sharesPerLot ?? instrument.lotSize,
      currency: instrument.currency,
      status: this.status(instrument, t),
      tPlus: this.options.settings.tPlusOne[instrument.market],
    };
  }

  /** A page of quotes of one market, filtered by keyword (code, names, pinyin initials) and sorted. */
  list(
    market: StockMarket,
    query: { keyword?: string; sort?: QuoteSort; pageNum: number; pageSize: number },
  ): Page<Quote> {
    const keyword = (query.keyword ?? '').trim().toLowerCase();
    const t = this.clock.now();
    let quotes = this.instruments
      .filter((i) => i.market === market)
      .filter(
        (i) =>
          keyword === '' ||
          i.code.toLowerCase().includes(keyword) ||
          i.name.toLowerCase().includes(keyword) ||
          i.nameEn.toLowerCase().includes(keyword) ||
          i.pinyin.toLowerCase().includes(keyword),
      )
      .map((i) => this.quote(i, t));
    if (query.sort) {
      const descending = query.sort.startsWith('-');
      const field = (descending ? query.sort.slice(1) : query.sort) as 'changePct' | 'turnover' | 'price';
      quotes = quotes.sort(
        (a, b) => (descending ? b[field] - a[field] : a[field] - b[field]) || (a.code < b.code ? -1 : 1),
      );
    }
    const start = (query.pageNum - 1) * query.pageSize;
    return {
      list: quotes.slice(start, start + query.pageSize),
      total: quotes.length,
      pageNum: query.pageNum,
      pageSize: query.pageSize,
    };
  }

  /** Day, week or month bars, oldest first, ending with today's bar so far; only bars starting before `before`. */
  dayBars(instrument: Instrument, period: DayPeriod, limit: number, before?: number): Bar[] {
    const hours = this.hours(instrument);
    const series = this.series(instrument);
    const t = this.clock.now();
    const pos = sessionPosition(t, hours);
    const dayTime = (day: number) => localMinuteToUtc(day, 0, hours.timeZone);
    const summaryOf = (day: number): DaySummary => {
      if (day !== pos.day || pos.elapsed >= series.spec.minutesPerDay) return series.daySummary(day);
      const path = series.path(day);
      const k = Math.floor(pos.elapsed);
      return {
        day,
        open: path.prices[0]!,
        high: path.runHigh[k]!,
        low: path.runLow[k]!,
        close: path.prices[k]!,
        volume: path.runVolume[k]!,
        turnover: path.runTurnover[k]!,
      };
    };
    const groupOf = (day: number): number => {
      if (period === 'day') return day;
      if (period === 'week') return Math.floor((day + 3) / 7); // weeks start on Monday
      const date = new Date(day * DAY_MS);
      return date.getUTCFullYear() * 12 + date.getUTCMonth();
    };

    // Walk back from the current trading day, gathering whole groups until `limit` groups are complete.
    let day = pos.day;
    if (before !== undefined) {
      while (day >= this.anchorDay && dayTime(day) >= before) day = previousTradingDay(day, hours);
    }
    const groups: DaySummary[][] = [];
    let currentGroup: number | null = null;
    while (day >= this.anchorDay) {
      const g = groupOf(day);
      if (g !== currentGroup) {
        if (groups.length === limit) break;
        groups.push([]);
        currentGroup = g;
      }
      groups[groups.length - 1]!.push(summaryOf(day));
      day = previousTradingDay(day, hours);
    }
    return groups.reverse().map((group): Bar => {
      const days = group.reverse();
      const first = days[0]!;
      const last = days[days.length - 1]!;
      return [
        dayTime(first.day),
        first.open,
        Math.max(...days.map((d) => d.high)),
        Math.min(...days.map((d) => d.low)),
        last.close,
        days.reduce((sum, d) => sum + d.volume, 0),
      ];
    });
  }

  /** The current trading day's minute bars (time = the bar's start), aggregated per session. */
  minuteBars(instrument: Instrument, period: MinutePeriod): Bar[] {
    const hours = this.hours(instrument);
    const series = this.series(instrument);
    const pos = sessionPosition(this.clock.now(), hours);
    const path = series.path(pos.day);
    const done = Math.min(Math.floor(pos.elapsed), series.spec.minutesPerDay);
    const size = period === 'intraday' || period === '1' ? 1 : Number(period);
    const bars: Bar[] = [];
    let sessionStart = 0;
    for (const [start, end] of hours.sessions) {
      const length = end - start;
      for (let offset = 0; offset < length; offset += size) {
        const from = sessionStart + offset; // minutes k = from+1 … to
        const to = Math.min(sessionStart + offset + size, sessionStart + length, done);
        if (to <= from) break;
        let high = -Infinity;
        let low = Infinity;
        let volume = 0;
        for (let k = from + 1; k <= to; k++) {
          high = Math.max(high, path.highs[k]!);
          low = Math.min(low, path.lows[k]!);
          volume += path.volumes[k]!;
        }
        const time = localMinuteToUtc(pos.day, start + offset, hours.timeZone);
        const bar: Bar = [time, path.prices[from]!, high, low, path.prices[to]!, volume];
        if (period === 'intraday') {
          const cumVolume = path.runVolume[to]!;
          const average = cumVolume > 0 ? path.runTurnover[to]! / cumVolume : path.prices[to]!;
          bars.push([...bar, round(average, this.decimals(instrument, average) + 1)]);
        } else {
          bars.push(bar);
        }
      }
      sessionStart += length;
    }
    return bars;
  }
}
