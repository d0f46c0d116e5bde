/**
 * The simulated exchange as the rest of the station sees it: instruments, quotes, session status, the order
 * book, boards, index news, exchange rates and bars at the clock's "now". It composes the market's parts,
 * one module per concern, and holds no state of its own beyond theirs (the engine's memoised series, the
 * quote snapshots, the bar history, the FX series).
 */
import type {
  Adjust,
  Bar,
  DayPeriod,
  ExchangeRates,
  FuturesQuote,
  HaltEntry,
  IndexNews,
  InstrumentStatus,
  LhbList,
  LimitUpEntry,
  MinutePeriod,
  MoveCounts,
  OrderBook,
  Page,
  Quote,
  StockDetail,
  StockFigures,
  StockMarket,
  StockNewsDetail,
} from '../../src/shared/api/types';
import type { ContentLang } from '../../src/shared/content';
import type { ClockMode } from '../config';
import { Bars } from './bars';
import { halts, limitUpBoard, moveCounts, topQuotes } from './boards';
import { nameIn, type FuturesDef, type IndexDef, type Instrument } from './catalogue';
import type { Clock } from './clock';
import { dragonTigerList } from './dragon-tiger';
import { FxSeries } from './fx';
import { indexNews } from './index-news';
import { InstrumentCatalogue, type MarketOptions, type Tradable } from './instrument-catalogue';
import { orderBook } from './order-book';
import type { InstrumentSeries } from './price-engine';
import { Quotes, type QuoteSort } from './quotes';
import type { MarketHours, SessionPosition } from './sessions';
import { StockFacts } from './stock-facts';

export { MINUTE_HISTORY_DAYS } from './bars';
export type { MarketOptions } from './instrument-catalogue';
export { QUOTE_SORTS, type QuoteSort } from './quotes';

export class MarketService {
  private readonly catalogue: InstrumentCatalogue;
  private readonly quotes: Quotes;
  private readonly bars: Bars;
  private readonly facts: StockFacts;
  private fxSeries: FxSeries | null = null;

  constructor(
    /** The stocks: the catalogue's and the new-share calendar's listings (each quoted from its listing day). */
    readonly instruments: readonly Instrument[],
    options: MarketOptions,
    private readonly clock: Clock,
  ) {
    this.catalogue = new InstrumentCatalogue(instruments, options, clock);
    this.quotes = new Quotes(this.catalogue);
    this.bars = new Bars(this.catalogue);
    this.facts = new StockFacts(this.catalogue, this.quotes, this.bars);
  }

  get clockMode(): ClockMode {
    return this.catalogue.options.clockMode;
  }

  now(): number {
    return this.clock.now();
  }

  // The catalogue: instruments, hours, limits, listing and series (instrument-catalogue.ts).

  find(code: string): Instrument | undefined {
    return this.catalogue.find(code);
  }

  /**
   * The name of `code` in `locale` when `name` is its Chinese catalogue name (localized-names.ts); undefined
   * for a code outside the catalogue or a name that is not the catalogue's.
   */
  localName(code: string, name: string, locale: string): string | undefined {
    const entry = this.catalogue.entry(code);
    return entry && entry.name === name ? nameIn(entry, locale) : undefined;
  }

  isListed(instrument: Instrument, t = this.clock.now()): boolean {
    return this.catalogue.isListed(instrument, t);
  }

  get(code: string): Instrument {
    return this.catalogue.get(code);
  }

  findByPrefixedCode(code: string): Instrument | undefined {
    return this.catalogue.findByPrefixedCode(code);
  }

  findTradable(code: string): Tradable | undefined {
    return this.catalogue.findTradable(code);
  }

  hours(instrument: Instrument): MarketHours {
    return this.catalogue.hours(instrument);
  }

  futures(): readonly FuturesDef[] {
    return this.catalogue.futures();
  }

  getFutures(code: string): Instrument {
    return this.catalogue.getFutures(code);
  }

  indexes(): readonly IndexDef[] {
    return this.catalogue.indexes();
  }

  getIndex(code: string): Instrument {
    return this.catalogue.getIndex(code);
  }

  limitOf(instrument: Instrument): number | null {
    return this.catalogue.limitOf(instrument);
  }

  series(instrument: Instrument): InstrumentSeries {
    return this.catalogue.series(instrument);
  }

  position(instrument: Instrument, t = this.clock.now()): SessionPosition {
    return this.catalogue.position(instrument, t);
  }

  /**
   * Whether `t` falls on the instrument's trading day whose prices are current at `now` (a day starts at its
   * first session's open, the evening before with night sessions): what "opened today" means for today's P&L.
   */
  onCurrentTradingDay(instrument: Instrument, t: number, now = this.clock.now()): boolean {
    return this.position(instrument, t).day === this.position(instrument, now).day;
  }

  sellableFrom(instrument: Instrument, openedAt: number): number {
    return this.catalogue.sellableFrom(instrument, openedAt);
  }

  warmUp(shouldStop?: () => boolean): Promise<number> {
    return this.catalogue.warmUp(shouldStop);
  }

  // Quotes, status and search (quotes.ts).

  quote(instrument: Instrument, t = this.clock.now()): Quote {
    return this.quotes.quote(instrument, t);
  }

  tradableQuote(tradable: Pick<Tradable, 'instrument' | 'market'>, t = this.clock.now()): Quote {
    return this.quotes.tradableQuote(tradable, t);
  }

  status(instrument: Instrument, t = this.clock.now()): InstrumentStatus {
    return this.quotes.status(instrument, t);
  }

  isOpen(instrument: Instrument, t = this.clock.now()): boolean {
    return this.quotes.isOpen(instrument, t);
  }

  detail(instrument: Instrument, t = this.clock.now()): StockDetail {
    return this.quotes.detail(instrument, t);
  }

  indexQuote(instrument: Instrument, t = this.clock.now()): Quote {
    return this.quotes.indexQuote(instrument, t);
  }

  indexList(region?: IndexDef['region'], t = this.clock.now()): Quote[] {
    return this.quotes.indexList(region, t);
  }

  futuresQuote(instrument: Instrument, t = this.clock.now()): FuturesQuote {
    return this.quotes.futuresQuote(instrument, t);
  }

  quotesOf(market: StockMarket, t = this.clock.now()): { quotes: Quote[]; sorted: Map<string, Quote[]> } {
    return this.quotes.quotesOf(market, t);
  }

  list(
    market: StockMarket,
    query: { keyword?: string; sort?: QuoteSort; pageNum: number; pageSize: number },
  ): Page<Quote> {
    return this.quotes.list(market, query);
  }

  search(keyword: string, limit: number, t = this.clock.now()): Quote[] {
    return this.quotes.search(keyword, limit, t);
  }

  // The order book, boards, index news and exchange rates.

  orderBook(instrument: Instrument, t = this.clock.now()): OrderBook {
    return orderBook(this.catalogue, this.quotes, instrument, t);
  }

  limitUpBoard(market: StockMarket, t = this.clock.now()): LimitUpEntry[] {
    return limitUpBoard(this.catalogue, this.quotes, market, t);
  }

  top(market: StockMarket, by: 'gainers' | 'losers' | 'turnover', limit: number): Quote[] {
    return topQuotes(this.quotes, market, by, limit);
  }

  moveCounts(market: StockMarket, t = this.clock.now()): MoveCounts {
    return moveCounts(this.catalogue, this.quotes, market, t);
  }

  halts(market: StockMarket, t = this.clock.now()): HaltEntry[] {
    return halts(this.catalogue, this.quotes, market, t);
  }

  dragonTiger(market: 'a' | 'star', t = this.clock.now()): LhbList {
    return dragonTigerList(this.catalogue, market, t);
  }

  indexNews(
    filter: { code?: string; region?: IndexDef['region'] },
    days = 10,
    t = this.clock.now(),
  ): IndexNews[] {
    return indexNews(this.catalogue, filter, days, t);
  }

  /** The simulated CNY / HKD / USD rates of the current UTC day. */
  exchangeRates(t = this.clock.now()): ExchangeRates {
    this.fxSeries ??= new FxSeries(this.catalogue.options.seed, this.catalogue.anchorDay);
    return this.fxSeries.exchangeRates(t);
  }

  // A stock's figures and own news (stock-facts.ts).

  /** Market cap, P/E (TTM), turnover rate, 52-week range, shares outstanding and dividend yield at `t`. */
  figures(instrument: Instrument, t = this.clock.now()): StockFigures {
    return this.facts.figures(instrument, t);
  }

  /** The stock's own news in `lang`, newest first. */
  stockNews(instrument: Instrument, lang: ContentLang, t = this.clock.now()): StockNewsDetail[] {
    return this.facts.news(instrument, lang, t);
  }

  /** One of a stock's news items by id, or NOT_FOUND. */
  stockNewsItem(id: string, lang: ContentLang, t = this.clock.now()): StockNewsDetail {
    return this.facts.newsItem(id, lang, t, (code) => this.catalogue.get(code));
  }

  // Bars (bars.ts).

  barClock(instrument: Instrument, t = this.clock.now()): string {
    return this.bars.barClock(instrument, t);
  }

  dayBars(
    instrument: Instrument,
    period: DayPeriod,
    limit: number,
    before?: number,
    adjust: Adjust = 'none',
  ): Bar[] {
    return this.bars.dayBars(instrument, period, limit, before, adjust);
  }

  minuteBars(instrument: Instrument, period: MinutePeriod): Bar[] {
    return this.bars.minuteBars(instrument, period);
  }
}
