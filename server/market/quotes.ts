/**
 * Quotes of the simulated market at the clock's "now": one instrument's quote and detail (limits, lot,
 * status), futures and index quotes, a market's quote pages (computed once per clock second) and search.
 */
import type {
  FuturesQuote,
  InstrumentStatus,
  Market,
  Page,
  Quote,
  StockDetail,
  StockMarket,
} from '../../src/shared/api/types';
import { nameMatches, type IndexDef, type Instrument } from './catalogue';
import type { InstrumentCatalogue } from './instrument-catalogue';
import type { InstrumentSeries } from './price-engine';
import type { DayRecord } from './series-spec';
import { dayCloseTime, sessionPosition, type MarketHours, type SessionPosition } from './sessions';
import { tickDecimals, tickFor } from './ticks';

export type QuoteSort = 'changePct' | '-changePct' | 'turnover' | '-turnover' | 'price' | '-price';
export const QUOTE_SORTS: readonly QuoteSort[] = [
  'changePct',
  '-changePct',
  'turnover',
  '-turnover',
  'price',
  '-price',
];

/** A number to a fixed count of decimals (a price to its tick, a ratio to 6 decimals). */
export function round(value: number, decimals: number): number {
  return Number(value.toFixed(decimals));
}

/** Decimals needed to print every one of the prices at the instrument's tick. */
export function priceDecimals(instrument: Instrument, ...prices: number[]): number {
  return Math.max(...prices.map((p) => tickDecimals(tickFor(p, instrument.tick))));
}

/** Suspended for the day, else trading while in a session. */
function statusOf(record: DayRecord, pos: SessionPosition): InstrumentStatus {
  if (record.suspended) return 'suspended';
  return pos.inSession ? 'trading' : 'closed';
}

interface QuoteSnapshot {
  market: StockMarket;
  second: number;
  quotes: Quote[];
  sorted: Map<string, Quote[]>;
}

export class Quotes {
  private snapshot: QuoteSnapshot[] = [];

  constructor(private readonly catalogue: InstrumentCatalogue) {}

  private now(): number {
    return this.catalogue.clock.now();
  }

  quote(instrument: Instrument, t = this.now()): Quote {
    const hours = this.catalogue.hours(instrument);
    return this.quoteAt(instrument, t, hours, sessionPosition(t, hours), this.catalogue.series(instrument));
  }

  /** quote() given the instrument's hours, session position at `t` and series, computed once by the caller. */
  private quoteAt(
    instrument: Instrument,
    t: number,
    hours: MarketHours,
    pos: SessionPosition,
    series: InstrumentSeries,
  ): Quote {
    const path = series.path(pos.day);
    const k = Math.min(Math.floor(pos.elapsed), series.spec.minutesPerDay);
    const price = path.prices[k]!;
    const prevClose = path.prevClose;
    const dayEnd = dayCloseTime(pos.day, hours);
    return {
      code: instrument.code,
      name: instrument.name,
      market: instrument.market,
      price,
      prevClose,
      open: path.prices[0]!,
      high: path.runHigh[k]!,
      low: path.runLow[k]!,
      change: round(price - prevClose, priceDecimals(instrument, price, prevClose)),
      changePct: round((price - prevClose) / prevClose, 6),
      volume: path.runVolume[k]!,
      turnover: Math.round(path.runTurnover[k]! * 100) / 100,
      time: Math.min(t, dayEnd),
    };
  }

  /** A quote of any tradable code with its API market (index and futures quotes say so). */
  tradableQuote(tradable: { instrument: Instrument; market: Market }, t = this.now()): Quote {
    const quote = this.quote(tradable.instrument, t);
    return quote.market === tradable.market ? quote : { ...quote, market: tradable.market };
  }

  status(instrument: Instrument, t = this.now()): InstrumentStatus {
    const pos = this.catalogue.position(instrument, t);
    return statusOf(this.catalogue.series(instrument).record(pos.day), pos);
  }

  /**
   * True while the instrument's market is in a continuous session (always, in always-open mode) and the
   * instrument itself is not suspended.
   */
  isOpen(instrument: Instrument, t = this.now()): boolean {
    const pos = this.catalogue.position(instrument, t);
    return pos.inSession && !this.catalogue.series(instrument).record(pos.day).suspended;
  }

  /**
   * The quote with the day's limits, lot and status. The session position, series and day record are
   * worked out once here (an order asks for this on every call).
   */
  detail(instrument: Instrument, t = this.now()): StockDetail {
    const hours = this.catalogue.hours(instrument);
    const pos = sessionPosition(t, hours);
    const series = this.catalogue.series(instrument);
    const quote = this.quoteAt(instrument, t, hours, pos, series);
    const record = series.record(pos.day);
    const limits = record.limits;
    const { settings } = this.catalogue.options;
    // Added to the fresh quote rather than spread with it: on this V8 a spread followed by new keys costs
    // about 2 µs per key (14 µs here, more than the quote itself); the keys come out in the same order.
    return Object.assign(quote, {
      limitUp: limits?.up ?? null,
      limitDown: limits?.down ?? null,
      lotSize: settings.lotRules[instrument.market].sharesPerLot ?? instrument.lotSize,
      currency: instrument.currency,
      status: statusOf(record, pos),
      tPlus: settings.tPlusOne[instrument.market],
    });
  }

  indexQuote(instrument: Instrument, t = this.now()): Quote {
    return { ...this.quote(instrument, t), market: 'index' };
  }

  /** Quotes of every index, or of one region's. */
  indexList(region?: IndexDef['region'], t = this.now()): Quote[] {
    return this.catalogue
      .indexes()
      .filter((def) => region === undefined || def.region === region)
      .map((def) => this.indexQuote(this.catalogue.getIndex(def.code), t));
  }

  /** A futures product's quote with its contract terms, limits and session status. */
  futuresQuote(instrument: Instrument, t = this.now()): FuturesQuote {
    const { def, hours } = this.catalogue.futuresProduct(instrument);
    const pos = sessionPosition(t, hours);
    const limits = this.catalogue.series(instrument).record(pos.day).limits;
    return {
      ...this.quote(instrument, t),
      market: 'futures',
      exchange: def.exchange,
      multiplier: def.multiplier,
      unit: def.unit,
      tick: def.tick,
      limitUp: limits?.up ?? null,
      limitDown: limits?.down ?? null,
      status: pos.inSession ? 'trading' : 'closed',
      sessions: [...def.sessions],
    };
  }

  /** Every quote of one market at `t`, computed once per clock second and market. */
  quotesOf(market: StockMarket, t = this.now()): { quotes: Quote[]; sorted: Map<string, Quote[]> } {
    const second = Math.floor(t / 1000);
    let snap = this.snapshot.find((x) => x.market === market && x.second === second);
    if (!snap) {
      const quotes = this.catalogue.stocks
        .filter((i) => i.market === market && this.catalogue.isListed(i, t))
        .map((i) => this.quote(i, t));
      snap = { market, second, quotes, sorted: new Map() };
      this.snapshot = [...this.snapshot.filter((x) => x.second === second), snap];
    }
    return snap;
  }

  /** A page of quotes of one market, filtered by keyword (code, names, pinyin initials) and sorted. */
  list(
    market: StockMarket,
    query: { keyword?: string; sort?: QuoteSort; pageNum: number; pageSize: number },
  ): Page<Quote> {
    const keyword = (query.keyword ?? '').trim().toLowerCase();
    const snap = this.quotesOf(market);
    let quotes = snap.quotes;
    if (query.sort) {
      let sorted = snap.sorted.get(query.sort);
      if (!sorted) {
        const descending = query.sort.startsWith('-');
        const field = (descending ? query.sort.slice(1) : query.sort) as 'changePct' | 'turnover' | 'price';
        sorted = [...quotes].sort(
          (a, b) => (descending ? b[field] - a[field] : a[field] - b[field]) || (a.code < b.code ? -1 : 1),
        );
        snap.sorted.set(query.sort, sorted);
      }
      quotes = sorted;
    }
    if (keyword !== '') {
      quotes = quotes.filter((q) => {
        const i = this.catalogue.stock(q.code)!;
        return (
          i.code.toLowerCase().includes(keyword) ||
          nameMatches(i, keyword) ||
          i.pinyin.toLowerCase().includes(keyword)
        );
      });
    }
    const start = (query.pageNum - 1) * query.pageSize;
    return {
      list: quotes.slice(start, start + query.pageSize),
      total: quotes.length,
      pageNum: query.pageNum,
      pageSize: query.pageSize,
    };
  }

  /**
   * Stocks of every market matching a keyword (code, any of its names, pinyin initials): exact codes
   * first, then codes and pinyin that start with it, then the rest, each group in catalogue order.
   */
  search(keyword: string, limit: number, t = this.now()): Quote[] {
    const k = keyword.trim().toLowerCase();
    if (k === '') return [];
    const rank = (i: Instrument): number => {
      const code = i.code.toLowerCase();
      const pinyin = i.pinyin.toLowerCase();
      if (code === k) return 0;
      if (code.startsWith(k) || pinyin.startsWith(k) || i.name.toLowerCase().startsWith(k)) return 1;
      if (code.includes(k) || pinyin.includes(k) || nameMatches(i, k)) return 2;
      return 3;
    };
    return this.catalogue.stocks
      .map((i, order) => ({ i, order, r: rank(i) }))
      .filter((x) => x.r < 3 && this.catalogue.isListed(x.i, t))
      .sort((a, b) => a.r - b.r || a.order - b.order)
      .slice(0, limit)
      .map((x) => this.quote(x.i, t));
  }
}
