/**
 * A stock's figures and its own news at the clock's "now": the seeded fundamentals (stock-figures.ts) and
 * the news writer (stock-news.ts) fed from the quote, the day bars and the price history's corporate actions,
 * so that the figures agree with the chart and the news with the figures.
 */
import type { StockFigures, StockNewsDetail } from '../../src/shared/api/types';
import type { ContentLang } from '../../src/shared/content';
import { AppError } from '../platform';
import type { Bars } from './bars';
import type { Instrument } from './catalogue';
import type { InstrumentCatalogue } from './instrument-catalogue';
import type { Quotes } from './quotes';
import type { DayRecord } from './series-spec';
import { fundamentalsOf, stockFigures, type Fundamentals } from './stock-figures';
import {
  CLOSE_REPORT_DAYS,
  lastReportingDay,
  parseStockNewsId,
  writeStockNews,
  type StockDay,
} from './stock-news';
import { localMinuteToUtc, nextTradingDay, previousTradingDay, sessionPosition } from './sessions';

/** 52 weeks back from today, today included. */
const WINDOW_DAYS = 52 * 7;
/** More day bars than 52 weeks can hold (always-open trades every day). */
const WINDOW_BARS = WINDOW_DAYS + 1;

const memoLimit = 5000;

export class StockFacts {
  private readonly fundamentals = new Map<string, Fundamentals>();
  /** code|day → product of (1 + bonus) over the bonus issues up to that day. */
  private readonly bonusFactors = new Map<string, number>();

  constructor(
    private readonly catalogue: InstrumentCatalogue,
    private readonly quotes: Quotes,
    private readonly bars: Bars,
  ) {}

  private fundamentalsOf(instrument: Instrument): Fundamentals {
    let f = this.fundamentals.get(instrument.code);
    if (!f) {
      f = fundamentalsOf(instrument, this.catalogue.options.seed);
      this.fundamentals.set(instrument.code, f);
    }
    return f;
  }

  /** Product of (1 + bonus shares per share) over the bonus issues from the start of history to `day`. */
  private bonusFactor(instrument: Instrument, day: number): number {
    const key = `${instrument.code}|${day}`;
    const known = this.bonusFactors.get(key);
    if (known !== undefined) return known;
    const series = this.catalogue.series(instrument);
    let factor = 1;
    for (let d = this.catalogue.anchorDay; d <= day; d++) {
      const bonus = series.record(d).action?.bonus ?? 0;
      if (bonus > 0) factor *= 1 + bonus;
    }
    if (this.bonusFactors.size > memoLimit) this.bonusFactors.clear();
    this.bonusFactors.set(key, factor);
    return factor;
  }

  /** The stock's figures at `t`: market cap, P/E (TTM), turnover rate, 52-week range, shares, yield. */
  figures(instrument: Instrument, t: number): StockFigures {
    const hours = this.catalogue.hours(instrument);
    const today = sessionPosition(t, hours).day;
    const quote = this.quotes.quote(instrument, t);
    const windowStart = localMinuteToUtc(today - WINDOW_DAYS, 0, hours.timeZone);
    // The same bars as getDayK.do (unadjusted day bars), cut to the window.
    const bars52w = this.bars
      .dayBars(instrument, 'day', WINDOW_BARS, undefined, 'none')
      .filter((bar) => bar[0] >= windowStart);
    const series = this.catalogue.series(instrument);
    let dividendsTtm = 0;
    for (let d = today - WINDOW_DAYS; d <= today; d++) dividendsTtm += series.record(d).action?.cash ?? 0;
    return stockFigures(instrument, this.fundamentalsOf(instrument), {
      price: quote.price,
      volume: quote.volume,
      bars52w,
      windowStart,
      dividendsTtm,
      bonusFactor: this.bonusFactor(instrument, today),
      time: quote.time,
    });
  }

  /** What the news writer needs about the stock's `day`. */
  private stockDay(instrument: Instrument, record: DayRecord): StockDay {
    const f = this.fundamentalsOf(instrument);
    const factor = this.bonusFactor(instrument, record.day);
    return {
      instrument,
      record,
      epsTtm: Math.round((f.baseEps / factor) * 10_000) / 10_000,
      sharesOutstanding: Math.round(f.baseShares * factor),
    };
  }

  /** The last complete day of the stock's market at `t`, and today. */
  private days(instrument: Instrument, t: number): { today: number; lastComplete: number } {
    const hours = this.catalogue.hours(instrument);
    const series = this.catalogue.series(instrument);
    const pos = sessionPosition(t, hours);
    const complete = pos.elapsed >= series.spec.minutesPerDay && series.record(pos.day).trading;
    return { today: pos.day, lastComplete: complete ? pos.day : previousTradingDay(pos.day, hours) };
  }

  /** A day that traded (listed, not suspended) and so has a bar and a report. */
  private traded(instrument: Instrument, day: number): DayRecord | null {
    if (day < this.catalogue.anchorDay) return null;
    const r = this.catalogue.series(instrument).record(day);
    return r.trading && r.listed && !r.suspended ? r : null;
  }

  /**
   * The stock's news at `t` in `lang`, newest first: its last complete trading days' reports, its latest
   * results and its ex-dividend dates of the last 12 months.
   */
  news(instrument: Instrument, lang: ContentLang, t: number): StockNewsDetail[] {
    const hours = this.catalogue.hours(instrument);
    const { today, lastComplete } = this.days(instrument, t);
    const out: StockNewsDetail[] = [];
    const write = (kind: 'close' | 'results' | 'dividend', r: DayRecord) =>
      out.push(writeStockNews(kind, this.stockDay(instrument, r), lang, hours));
    let day = lastComplete;
    // Suspended days are skipped; the look-back is bounded for a stock suspended for long.
    for (let n = 0, tries = 0; n < CLOSE_REPORT_DAYS && tries < 60; tries++) {
      const r = this.traded(instrument, day);
      if (r) {
        write('close', r);
        n++;
      }
      if (day < this.catalogue.anchorDay) break;
      day = previousTradingDay(day, hours);
    }
    const reported = lastReportingDay(this.catalogue.options.seed, instrument.code, lastComplete, hours);
    const results = this.traded(instrument, reported);
    if (results) write('results', results);
    const series = this.catalogue.series(instrument);
    for (let d = today - WINDOW_DAYS; d <= today; d++) {
      const r = series.record(d);
      if (r.action && r.listed) write('dividend', r);
    }
    return out.sort((a, b) => b.publishedAt - a.publishedAt || (a.id < b.id ? -1 : 1));
  }

  /** One news item by its id at `t`; NOT_FOUND for an id that names no item of the stock's history. */
  newsItem(id: string, lang: ContentLang, t: number, find: (code: string) => Instrument): StockNewsDetail {
    const parts = parseStockNewsId(id);
    if (!parts) throw new AppError('NOT_FOUND');
    const instrument = find(parts.code);
    const hours = this.catalogue.hours(instrument);
    const { today, lastComplete } = this.days(instrument, t);
    const { day, kind } = parts;
    const r = this.traded(instrument, day);
    const seed = this.catalogue.options.seed;
    const valid =
      r !== null &&
      (kind === 'close'
        ? day <= lastComplete
        : kind === 'results'
          ? day <= lastComplete &&
            lastReportingDay(seed, instrument.code, nextTradingDay(day, hours) - 1, hours) === day
          : day <= today && r.action !== null);
    if (!valid) throw new AppError('NOT_FOUND');
    return writeStockNews(kind, this.stockDay(instrument, r), lang, hours);
  }
}
