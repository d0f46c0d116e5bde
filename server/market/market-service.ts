/**
 * The simulated exchange as the rest of the station sees it: instruments, quotes, session status and
 * bars at the clock's "now". It holds no state of its own beyond the engine's memoised series.
 */
import type {
  Adjust,
  Bar,
  DayPeriod,
  ExchangeRates,
  HaltEntry,
  InstrumentStatus,
  LimitUpEntry,
  Market,
  MinutePeriod,
  FuturesQuote,
  IndexNews,
  LhbEntry,
  LhbList,
  LhbSeat,
  MoveCounts,
  OrderBook,
  Page,
  Quote,
  StockDetail,
  StockMarket,
} from '../../src/shared/api/types';
import type { ClockMode, Settings } from '../config';
import { AppError } from '../platform/errors';
import type { Clock } from './clock';
import { FxSeries } from './fx';
import { loadCatalogueData, type FuturesDef, type IndexDef, type Instrument } from './catalogue';
import { InstrumentSeries, tickDecimals, tickFor, type DayRecord } from './price-engine';
import { hashSeed, SeededRandom } from './prng';
import {
  ALWAYS_OPEN_HOURS,
  DAY_MS,
  dayCloseTime,
  dayOfDate,
  parseSession,
  previousTradingDay,
  REAL_HOURS,
  type Session,
  elapsedToUtc,
  hoursFor,
  isTradingDay,
  localMinuteToUtc,
  nextTradingDayOpen,
  sessionMinutes,
  sessionPosition,
  sessionsOn,
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

/** Suspended for the day, else trading while in a session. */
function statusOf(record: DayRecord, pos: SessionPosition): InstrumentStatus {
  if (record.suspended) return 'suspended';
  return pos.inSession ? 'trading' : 'closed';
}

function round(value: number, decimals: number): number {
  return Number(value.toFixed(decimals));
}

/** An adjusted price: exact when the factor is 1, else to 4 decimals. */
function adjusted(price: number, factor: number): number {
  return factor === 1 ? price : Math.round(price * factor * 10_000) / 10_000;
}

/** The group a day belongs to: itself, its Monday-based week, or its month. */
function groupOf(period: DayPeriod, day: number): number {
  if (period === 'day') return day;
  if (period === 'week') return Math.floor((day + 3) / 7);
  const date = new Date(day * DAY_MS);
  return date.getUTCFullYear() * 12 + date.getUTCMonth();
}

/** The local day of a bar time (local midnight, in any zone within ±12 hours of UTC). */
function localDayOfTime(t: number): number {
  return Math.floor((t + 12 * 3_600_000) / DAY_MS);
}

/**
 * A futures product's hours on the Shanghai calendar. A session starting in the evening (21:00-23:00, or
 * 21:00-02:30 past midnight) is the night session, which opens the next trading day (the exchanges' rule):
 * it is kept as minutes before that day's midnight ([-180, 150] for 21:00-02:30), and sessionsOn moves it to
 * the evening of the trading day before (Friday for Monday), or drops it before a holiday.
 */
function futuresHours(sessions: readonly string[]): MarketHours {
  const parts: Session[] = [];
  for (const text of sessions) {
    const [from, to] = text.split('-');
    const start = parseSession(`${from}-23:59`)[0];
    const end = to === '24:00' ? 1440 : parseSession(`00:00-${to}`)[1];
    if (start >= 18 * 60) parts.push([start - 1440, end > start ? end - 1440 : end]);
    else parts.push([start, end]);
  }
  parts.sort((a, b) => a[0] - b[0]);
  const cn = REAL_HOURS.a;
  return { timeZone: cn.timeZone, sessions: parts, weekdaysOnly: true, holidays: cn.holidays };
}

/** Seats the simulated Dragon Tiger list draws from: real seat names of the kind the exchanges publish. */
const LHB_SEATS: readonly { seat: string; kind: LhbSeat['kind'] }[] = [
  { seat: '机构专用', kind: 'institution' },
  { seat: '沪股通专用', kind: 'connect' },
  { seat: '深股通专用', kind: 'connect' },
  { seat: '东方财富证券拉萨团结路第二证券营业部', kind: 'branch' },
  { seat: '东方财富证券拉萨东环路第二证券营业部', kind: 'branch' },
  { seat: '华泰证券上海武定路证券营业部', kind: 'branch' },
  { seat: '中信证券上海溧阳路证券营业部', kind: 'branch' },
  { seat: '国泰君安证券上海江苏路证券营业部', kind: 'branch' },
  { seat: '中国银河证券绍兴证券营业部', kind: 'branch' },
  { seat: '招商证券深圳深南东路证券营业部', kind: 'branch' },
  { seat: '光大证券宁波解放南路证券营业部', kind: 'branch' },
  { seat: '财通证券杭州上塘路证券营业部', kind: 'branch' },
  { seat: '国盛证券宁波桑田路证券营业部', kind: 'branch' },
  { seat: '开源证券西安西大街证券营业部', kind: 'branch' },
  { seat: '华鑫证券上海分公司', kind: 'branch' },
  { seat: '中国中金财富证券北京宋庄路证券营业部', kind: 'branch' },
];

/** Trading days of minute bars the 1, 5, 30 and 60 minute periods serve (the current one included). */
export const MINUTE_HISTORY_DAYS = 5;

/** A close at least this far from the previous close puts an A-share on the Dragon Tiger list. */
const LHB_DEVIATION = 0.07;

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

  /** A stock by its code, once listed (a new listing is unknown before its listing day). */
  find(code: string): Instrument | undefined {
    const instrument = this.byCode.get(code.toUpperCase());
    return instrument && this.isListed(instrument) ? instrument : undefined;
  }

  private readonly listingTimes = new Map<string, number>();

  /**
   * True from the local midnight of the instrument's listing day (always for one listed before the history):
   * from then it is quoted, searchable and tradable, and its history begins.
   */
  isListed(instrument: Instrument, t = this.clock.now()): boolean {
    if (instrument.listedOn === undefined) return true;
    let from = this.listingTimes.get(instrument.code);
    if (from === undefined) {
      from = localMinuteToUtc(dayOfDate(instrument.listedOn), 0, this.hours(instrument).timeZone);
      this.listingTimes.set(instrument.code, from);
    }
    return t >= from;
  }

  /** The instrument, or NOT_FOUND. */
  get(code: string): Instrument {
    const instrument = this.find(code);
    if (!instrument) throw new AppError('NOT_FOUND');
    return instrument;
  }

  /**
   * Any tradable code: a stock, an index or a futures product, with the API market it trades in and, for a
   * futures product, its contract multiplier (an index's multiplier is a trading setting). Undefined when
   * the code is none of them.
   */
  findTradable(
    code: string,
  ): { instrument: Instrument; market: Market; contractMultiplier: number | null } | undefined {
    const stock = this.find(code);
    if (stock) return { instrument: stock, market: stock.market, contractMultiplier: null };
    const upper = code.toUpperCase();
    this.indexes();
    const index = this.indexByCode.get(upper);
    if (index) return { instrument: index, market: 'index', contractMultiplier: null };
    this.futures();
    const futures = this.futuresByCode.get(upper);
    if (futures) {
      return {
        instrument: futures.instrument,
        market: 'futures',
        contractMultiplier: futures.def.multiplier,
      };
    }
    return undefined;
  }

  /** A quote of any tradable code with its API market (index and futures quotes say so). */
  tradableQuote(tradable: { instrument: Instrument; market: Market }, t = this.clock.now()): Quote {
    const quote = this.quote(tradable.instrument, t);
    return quote.market === tradable.market ? quote : { ...quote, market: tradable.market };
  }

  hours(instrument: Instrument): MarketHours {
    return (
      this.futuresByCode.get(instrument.code)?.hours ?? hoursFor(instrument.market, this.options.clockMode)
    );
  }

  private readonly futuresByCode = new Map<
    string,
    { def: FuturesDef; instrument: Instrument; hours: MarketHours }
  >();
  private futuresDefs: FuturesDef[] = [];

  /** The catalogue's futures products (loaded once): main continuous contracts, priced by the same engine. */
  futures(): readonly FuturesDef[] {
    if (this.futuresDefs.length === 0) {
      this.futuresDefs = loadCatalogueData().futures;
      for (const def of this.futuresDefs) {
        this.futuresByCode.set(def.code, {
          def,
          hours: this.options.clockMode === 'always-open' ? ALWAYS_OPEN_HOURS : futuresHours(def.sessions),
          instrument: {
            code: def.code,
            market: 'a',
            board: 'main',
            st: false,
            name: def.name,
            nameEn: def.nameEn,
            pinyin: def.pinyin,
            currency: 'CNY',
            lotSize: 1,
            tick: def.tick,
            referencePrice: def.referencePrice,
            volatility: def.volatility,
            avgDailyVolume: 100_000,
          },
        });
      }
    }
    return this.futuresDefs;
  }

  /** A futures product as an instrument for the engine's calls, or NOT_FOUND (never a tradable stock). */
  getFutures(code: string): Instrument {
    this.futures();
    const entry = this.futuresByCode.get(code.toUpperCase());
    if (!entry) throw new AppError('NOT_FOUND');
    return entry.instrument;
  }

  /** A futures product's quote with its contract terms, limits and session status. */
  futuresQuote(instrument: Instrument, t = this.clock.now()): FuturesQuote {
    this.futures();
    const { def, hours } = this.futuresByCode.get(instrument.code)!;
    const pos = sessionPosition(t, hours);
    const limits = this.series(instrument).record(pos.day).limits;
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

  /** This service's series by code, in front of the process-wide cache (whose key costs a string each time). */
  private readonly seriesByCode = new Map<string, InstrumentSeries>();

  series(instrument: Instrument): InstrumentSeries {
    const known = this.seriesByCode.get(instrument.code);
    if (known) return known;
    const key = `${this.options.seed}\u001f${this.options.clockMode}\u001f${this.anchorDay}\u001f${instrument.code}`;
    let series = seriesCache.get(key);
    if (!series) {
      const hours = this.hours(instrument);
      const isIndex = this.indexByCode.has(instrument.code);
      const isFutures = this.futuresByCode.has(instrument.code);
      series = new InstrumentSeries({
        seed: this.options.seed,
        instrument,
        limit: isIndex ? null : this.limitOf(instrument),
        corporateLife: !isIndex && !isFutures,
        anchorDay: this.anchorDay,
        ...(instrument.listedOn === undefined ? {} : { listedDay: dayOfDate(instrument.listedOn) }),
        isTradingDay: (day) => isTradingDay(day, hours),
        minutesPerDay: sessionMinutes(hours),
        tradingDaysPerYear: this.options.clockMode === 'always-open' ? 365 : 252,
      });
      seriesCache.set(key, series);
    }
    this.seriesByCode.set(instrument.code, series);
    return series;
  }

  /**
   * Builds every instrument's day history up to today ahead of the first request, one instrument per
   * event-loop turn, so the first market-wide call (move counts, the Dragon Tiger list) does not hold the
   * station for seconds while requests wait. The station's entry point runs it after listening; a request
   * meanwhile builds what it needs itself. Resolves with the number of instruments warmed.
   */
  async warmUp(shouldStop: () => boolean = () => false): Promise<number> {
    let warmed = 0;
    for (const instrument of this.instruments) {
      if (shouldStop()) break;
      this.series(instrument).record(this.position(instrument).day);
      warmed++;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return warmed;
  }

  private indexByCode = new Map<string, Instrument>();
  private indexDefs: IndexDef[] = [];

  /** The catalogue's indexes (loaded once), each priced by the engine like a stock without limits or actions. */
  indexes(): readonly IndexDef[] {
    if (this.indexDefs.length === 0) {
      this.indexDefs = loadCatalogueData().indexes;
      for (const def of this.indexDefs) {
        const market = def.region === 'cn' ? 'a' : def.region;
        this.indexByCode.set(def.code, {
          code: def.code,
          market,
          board: def.region === 'cn' ? 'main' : def.region,
          st: false,
          name: def.name,
          nameEn: def.nameEn,
          pinyin: def.pinyin,
          currency: def.region === 'cn' ? 'CNY' : def.region === 'hk' ? 'HKD' : 'USD',
          lotSize: 1,
          tick: 0.01,
          referencePrice: def.referencePrice,
          volatility: def.volatility,
          avgDailyVolume: 100_000_000,
        });
      }
    }
    return this.indexDefs;
  }

  /** The index as an instrument for the engine's calls, or NOT_FOUND (indexes are never tradable stocks). */
  getIndex(code: string): Instrument {
    this.indexes();
    const instrument = this.indexByCode.get(code.toUpperCase());
    if (!instrument) throw new AppError('NOT_FOUND');
    return instrument;
  }

  indexQuote(instrument: Instrument, t = this.clock.now()): Quote {
    return { ...this.quote(instrument, t), market: 'index' };
  }

  /** Quotes of every index, or of one region's. */
  indexList(region?: IndexDef['region'], t = this.clock.now()): Quote[] {
    return this.indexes()
      .filter((def) => region === undefined || def.region === region)
      .map((def) => this.indexQuote(this.getIndex(def.code), t));
  }

  /**
   * Market reports of the indexes (of one region, or one index): one per index and complete trading day over
   * its last `days` trading days, newest first. Each is written from the day's bar, so it agrees with the
   * index's day bars.
   */
  indexNews(
    filter: { code?: string; region?: IndexDef['region'] },
    days = 10,
    t = this.clock.now(),
  ): IndexNews[] {
    const out: IndexNews[] = [];
    const defs = this.indexes().filter(
      (def) =>
        (filter.code === undefined || def.code === filter.code.toUpperCase()) &&
        (filter.region === undefined || def.region === filter.region),
    );
    for (const def of defs) {
      const instrument = this.getIndex(def.code);
      const hours = this.hours(instrument);
      const series = this.series(instrument);
      const pos = sessionPosition(t, hours);
      let day =
        pos.elapsed >= series.spec.minutesPerDay && isTradingDay(pos.day, hours)
          ? pos.day
          : previousTradingDay(pos.day, hours);
      for (let n = 0; n < days && day >= this.anchorDay; n++, day = previousTradingDay(day, hours)) {
        const r = series.record(day);
        const change = (r.close - r.prevClose) / r.prevClose;
        const pct = Math.abs(change * 100).toFixed(2);
        const close = r.close.toFixed(2);
        const [verb, verbEn] =
          Math.abs(change) < 0.003
            ? ['窄幅震荡，收', 'is little changed,']
            : change >= 0.02
              ? ['大涨', 'surges']
              : change > 0
                ? ['收涨', 'closes up']
                : change <= -0.02
                  ? ['大跌', 'slumps']
                  : ['收跌', 'closes down'];
        const signed = `${change < 0 ? '-' : change > 0 ? '+' : ''}${pct}`;
        const date = new Date(day * DAY_MS).toISOString().slice(0, 10);
        out.push({
          id: `${def.code}-${date}`,
          code: def.code,
          time: dayCloseTime(day, hours),
          title:
            Math.abs(change) < 0.003
              ? `${def.name}${verb}${signed}%，报${close}点`
              : `${def.name}${verb}${pct}%，报${close}点`,
          titleEn:
            Math.abs(change) < 0.003
              ? `${def.nameEn} ${verbEn} ${signed}% at ${close}`
              : `${def.nameEn} ${verbEn} ${pct}% at ${close}`,
          summary: `${date}，${def.name}开盘${r.open.toFixed(2)}点，盘中最高${r.high.toFixed(2)}点、最低${r.low.toFixed(2)}点，收于${close}点。`,
          summaryEn: `On ${date} the ${def.nameEn} opened at ${r.open.toFixed(2)}, traded between ${r.low.toFixed(2)} and ${r.high.toFixed(2)} and closed at ${close}.`,
          changePct: round(change, 6),
          close: r.close,
        });
      }
    }
    return out.sort((a, b) => b.time - a.time || (a.code < b.code ? -1 : 1));
  }

  /** The daily price limit as a fraction: per market, ±5% for ST names on the main boards, none where absent. */
  limitOf(instrument: Instrument): number | null {
    const futures = this.futuresByCode.get(instrument.code);
    if (futures) return futures.def.limit;
    if (instrument.st && instrument.board === 'main') return this.options.settings.stPriceLimit;
    return this.options.settings.priceLimit[instrument.market];
  }

  position(instrument: Instrument, t = this.clock.now()): SessionPosition {
    return sessionPosition(t, this.hours(instrument));
  }

  /**
   * True while the instrument's market is in a continuous session (always, in always-open mode) and the
   * instrument itself is not suspended.
   */
  isOpen(instrument: Instrument, t = this.clock.now()): boolean {
    const pos = this.position(instrument, t);
    return pos.inSession && !this.series(instrument).record(pos.day).suspended;
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
    return this.quoteAt(instrument, t, hours, sessionPosition(t, hours), this.series(instrument));
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
      change: round(price - prevClose, this.decimals(instrument, price, prevClose)),
      changePct: round((price - prevClose) / prevClose, 6),
      volume: path.runVolume[k]!,
      turnover: Math.round(path.runTurnover[k]! * 100) / 100,
      time: Math.min(t, dayEnd),
    };
  }

  status(instrument: Instrument, t = this.clock.now()): InstrumentStatus {
    const pos = this.position(instrument, t);
    return statusOf(this.series(instrument).record(pos.day), pos);
  }

  /**
   * The quote with the day's limits, lot and status. The session position, series and day record are
   * worked out once here (an order asks for this on every call, issue 6 bench).
   */
  detail(instrument: Instrument, t = this.clock.now()): StockDetail {
    const hours = this.hours(instrument);
    const pos = sessionPosition(t, hours);
    const series = this.series(instrument);
    const quote = this.quoteAt(instrument, t, hours, pos, series);
    const record = series.record(pos.day);
    const limits = record.limits;
    // Added to the fresh quote rather than spread with it: on this V8 a spread followed by new keys costs
    // about 2 µs per key (14 µs here, more than the quote itself); the keys come out in the same order.
    return Object.assign(quote, {
      limitUp: limits?.up ?? null,
      limitDown: limits?.down ?? null,
      lotSize: this.options.settings.lotRules[instrument.market].sharesPerLot ?? instrument.lotSize,
      currency: instrument.currency,
      status: statusOf(record, pos),
      tPlus: this.options.settings.tPlusOne[instrument.market],
    });
  }

  /**
   * A simulated 5-level order book around the last price, new each clock second and the same for the same
   * seed, instrument and second. The last price sits at the best bid or the best ask; levels step by the tick
   * rule (the HKEX spread table in Hong Kong), none lies beyond the day's limits, and sizes are whole lots
   * scaled to the stock's usual volume. Empty while the stock is suspended.
   */
  orderBook(instrument: Instrument, t = this.clock.now()): OrderBook {
    const series = this.series(instrument);
    const record = series.record(this.position(instrument, t).day);
    if (record.suspended) return { bids: [], asks: [] };
    const { price } = this.quote(instrument, t);
    const rng = new SeededRandom(hashSeed(this.options.seed, 'book', instrument.code, Math.floor(t / 1000)));
    const lot = this.options.settings.lotRules[instrument.market].sharesPerLot ?? instrument.lotSize;
    const lotsScale = Math.max(1, Math.round(instrument.avgDailyVolume / lot / 2_000));
    const size = () => lot * (1 + Math.floor(rng.uniform() * lotsScale));
    const onTick = (p: number, tick: number) => round(p, tickDecimals(tick));
    const down = (p: number) => {
      const tick = tickFor(p - 1e-9, instrument.tick);
      return onTick(p - tick, tick);
    };
    const up = (p: number) => {
      const tick = tickFor(p, instrument.tick);
      return onTick(p + tick, tick);
    };
    const atBid = rng.uniform() < 0.5;
    let bid = atBid ? price : down(price);
    let ask = atBid ? up(price) : price;
    const limits = record.limits;
    const bids: OrderBook['bids'] = [];
    const asks: OrderBook['asks'] = [];
    for (let level = 0; level < 5; level++) {
      if (bid > 0 && (!limits || bid >= limits.down)) bids.push([bid, size()]);
      if (!limits || ask <= limits.up) asks.push([ask, size()]);
      bid = down(bid);
      ask = up(ask);
    }
    return { bids, asks };
  }

  /**
   * The Dragon Tiger list of the last complete trading day of one A-share market: every stock whose close
   * deviated 7% or more from the previous close, with five top buying and five top selling seats. The seats
   * and their amounts are drawn from the seed, the stock and the day, and add up to a share of its turnover.
   */
  dragonTiger(market: 'a' | 'star', t = this.clock.now()): LhbList {
    const list: LhbEntry[] = [];
    let listedDay: number | null = null;
    for (const instrument of this.instruments) {
      if (instrument.market !== market) continue;
      const hours = this.hours(instrument);
      const series = this.series(instrument);
      const pos = sessionPosition(t, hours);
      const day =
        pos.elapsed >= series.spec.minutesPerDay && isTradingDay(pos.day, hours)
          ? pos.day
          : previousTradingDay(pos.day, hours);
      listedDay ??= day;
      const r = series.record(day);
      if (!r.trading || r.suspended || !r.listed) continue;
      const changePct = round((r.close - r.prevClose) / r.prevClose, 6);
      if (Math.abs(changePct) < LHB_DEVIATION) continue;
      const turnover = Math.round(((r.volume * (r.open + r.high + r.low + r.close)) / 4) * 100) / 100;
      const rng = new SeededRandom(hashSeed(this.options.seed, 'lhb', instrument.code, day));
      // Ten distinct seats: a partial Fisher–Yates shuffle of the seat list.
      const pool = [...LHB_SEATS];
      for (let i = 0; i < 10; i++) {
        const j = i + Math.floor(rng.uniform() * (pool.length - i));
        [pool[i], pool[j]] = [pool[j]!, pool[i]!];
      }
      const side = (seats: typeof pool, share: number, main: 'buy' | 'sell'): LhbSeat[] => {
        const weights = seats.map(() => 0.2 + rng.uniform());
        const sum = weights.reduce((a, b) => a + b, 0);
        return seats
          .map((s, i) => {
            const amount = Math.round(((turnover * share * weights[i]!) / sum) * 100) / 100;
            const other = rng.uniform() < 0.3 ? Math.round(amount * rng.uniform() * 0.2 * 100) / 100 : 0;
            return { ...s, buy: main === 'buy' ? amount : other, sell: main === 'sell' ? amount : other };
          })
          .sort((a, b) => b[main] - a[main] || (a.seat < b.seat ? -1 : 1));
      };
      // Rising stocks draw more buying at the top seats, falling ones more selling.
      const lead = 0.12 + rng.uniform() * 0.18;
      const lag = 0.05 + rng.uniform() * 0.1;
      const rising = changePct > 0;
      const buys = side(pool.slice(0, 5), rising ? lead : lag, 'buy');
      const sells = side(pool.slice(5, 10), rising ? lag : lead, 'sell');
      const net = [...buys, ...sells].reduce((sum, s) => sum + s.buy - s.sell, 0);
      list.push({
        code: instrument.code,
        name: instrument.name,
        market,
        close: r.close,
        changePct,
        turnover,
        reason: rising ? 'rise' : 'fall',
        buys,
        sells,
        net: Math.round(net * 100) / 100,
      });
    }
    list.sort((a, b) => Math.abs(b.changePct) - Math.abs(a.changePct) || (a.code < b.code ? -1 : 1));
    return { date: listedDay === null ? '' : new Date(listedDay * DAY_MS).toISOString().slice(0, 10), list };
  }

  private snapshot: { market: StockMarket; second: number; quotes: Quote[]; sorted: Map<string, Quote[]> }[] =
    [];

  /** Every quote of one market at `t`, computed once per clock second and market. */
  quotesOf(market: StockMarket, t = this.clock.now()): { quotes: Quote[]; sorted: Map<string, Quote[]> } {
    const second = Math.floor(t / 1000);
    let snap = this.snapshot.find((x) => x.market === market && x.second === second);
    if (!snap) {
      const quotes = this.instruments
        .filter((i) => i.market === market && this.isListed(i, t))
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
        const i = this.byCode.get(q.code)!;
        return (
          i.code.toLowerCase().includes(keyword) ||
          i.name.toLowerCase().includes(keyword) ||
          i.nameEn.toLowerCase().includes(keyword) ||
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

  private fxSeries: FxSeries | null = null;

  /** The simulated CNY / HKD / USD rates of the current UTC day. */
  exchangeRates(t = this.clock.now()): ExchangeRates {
    this.fxSeries ??= new FxSeries(this.options.seed, this.anchorDay);
    const day = Math.floor(t / DAY_MS);
    const { perUsd } = this.fxSeries.rates(day);
    const cnyPer = { CNY: 1, HKD: round(perUsd.CNY / perUsd.HKD, 6), USD: perUsd.CNY };
    return { date: new Date(day * DAY_MS).toISOString().slice(0, 10), time: t, perUsd, cnyPer };
  }

  /** Stocks of one market sitting at their limit-up now, earliest to reach it first. */
  limitUpBoard(market: StockMarket, t = this.clock.now()): LimitUpEntry[] {
    const out: LimitUpEntry[] = [];
    for (const quote of this.quotesOf(market, t).quotes) {
      const instrument = this.byCode.get(quote.code)!;
      const hours = this.hours(instrument);
      const pos = this.position(instrument, t);
      const series = this.series(instrument);
      const record = series.record(pos.day);
      if (!record.limits || record.suspended || quote.price !== record.limits.up) continue;
      const path = series.path(pos.day);
      const done = Math.min(Math.floor(pos.elapsed), series.spec.minutesPerDay);
      let k = 0;
      while (k < done && path.prices[k]! < record.limits.up) k++;
      out.push({
        code: quote.code,
        name: quote.name,
        market,
        price: quote.price,
        prevClose: quote.prevClose,
        changePct: quote.changePct,
        turnover: quote.turnover,
        firstReached: Math.round(elapsedToUtc(pos.day, k, hours)),
      });
    }
    return out.sort((a, b) => a.firstReached - b.firstReached || (a.code < b.code ? -1 : 1));
  }

  /** The first `limit` quotes of a market by rise, fall or turnover. */
  top(market: StockMarket, by: 'gainers' | 'losers' | 'turnover', limit: number): Quote[] {
    const sort: QuoteSort = by === 'gainers' ? '-changePct' : by === 'losers' ? 'changePct' : '-turnover';
    return this.list(market, { sort, pageNum: 1, pageSize: limit }).list;
  }

  /** An instrument by a bare code or one with its exchange prefix (sh600519, sz000001, hk00700, usAAPL). */
  findByPrefixedCode(code: string): Instrument | undefined {
    const direct = this.find(code);
    if (direct) return direct;
    const m = /^(sh|sz|bj|hk|us)([A-Za-z0-9]{1,10})$/i.exec(code);
    if (!m) return undefined;
    const instrument = this.find(m[2]!);
    const prefix = m[1]!.toLowerCase();
    if (!instrument) return undefined;
    const fits =
      prefix === 'hk'
        ? instrument.market === 'hk'
        : prefix === 'us'
          ? instrument.market === 'us'
          : prefix === 'sh'
            ? /^6/.test(instrument.code)
            : prefix === 'sz'
              ? /^[03]/.test(instrument.code)
              : false;
    return fits ? instrument : undefined;
  }

  /**
   * Stocks of every market matching a keyword (code, Chinese or English name, pinyin initials): exact codes
   * first, then codes and pinyin that start with it, then the rest, each group in catalogue order.
   */
  search(keyword: string, limit: number, t = this.clock.now()): Quote[] {
    const k = keyword.trim().toLowerCase();
    if (k === '') return [];
    const rank = (i: Instrument): number => {
      const code = i.code.toLowerCase();
      const pinyin = i.pinyin.toLowerCase();
      if (code === k) return 0;
      if (code.startsWith(k) || pinyin.startsWith(k) || i.name.toLowerCase().startsWith(k)) return 1;
      if (
        code.includes(k) ||
        pinyin.includes(k) ||
        i.name.toLowerCase().includes(k) ||
        i.nameEn.toLowerCase().includes(k)
      ) {
        return 2;
      }
      return 3;
    };
    return this.instruments
      .map((i, order) => ({ i, order, r: rank(i) }))
      .filter((x) => x.r < 3 && this.isListed(x.i, t))
      .sort((a, b) => a.r - b.r || a.order - b.order)
      .slice(0, limit)
      .map((x) => this.quote(x.i, t));
  }

  /** Counts of one market's stocks by the current day's move (suspended stocks count only as suspended). */
  moveCounts(market: StockMarket, t = this.clock.now()): MoveCounts {
    const counts: MoveCounts = {
      market,
      rising: 0,
      falling: 0,
      flat: 0,
      limitUp: 0,
      limitDown: 0,
      suspended: 0,
      total: 0,
      time: t,
    };
    for (const quote of this.quotesOf(market, t).quotes) {
      const instrument = this.byCode.get(quote.code)!;
      const record = this.series(instrument).record(this.position(instrument, t).day);
      counts.total++;
      if (record.suspended) {
        counts.suspended++;
        continue;
      }
      if (quote.price > quote.prevClose) counts.rising++;
      else if (quote.price < quote.prevClose) counts.falling++;
      else counts.flat++;
      if (record.limits && quote.price === record.limits.up) counts.limitUp++;
      if (record.limits && quote.price === record.limits.down) counts.limitDown++;
    }
    return counts;
  }

  /** Stocks of one market suspended now, or resumed within the last five trading days; suspended first. */
  halts(market: StockMarket, t = this.clock.now()): HaltEntry[] {
    const out: HaltEntry[] = [];
    for (const instrument of this.instruments) {
      if (instrument.market !== market || !this.isListed(instrument, t)) continue;
      const hours = this.hours(instrument);
      const series = this.series(instrument);
      const today = this.position(instrument, t).day;
      const tradingDayBefore = (day: number) => {
        let d = day - 1;
        while (d > this.anchorDay && !series.record(d).trading) d--;
        return d;
      };
      const suspendedRun = (last: number) => {
        let first = last;
        let days = 0;
        for (let d = last; d >= this.anchorDay && series.record(d).suspended; d = tradingDayBefore(d)) {
          first = d;
          days++;
        }
        return { first, days };
      };
      const entry = (state: HaltEntry['state'], day: number, days: number): HaltEntry => {
        const quote = this.quote(instrument, t);
        return {
          code: instrument.code,
          name: instrument.name,
          market,
          state,
          since: localMinuteToUtc(day, 0, hours.timeZone),
          days,
          prevClose: quote.prevClose,
          price: quote.price,
        };
      };
      if (series.record(today).suspended) {
        const run = suspendedRun(today);
        out.push(entry('suspended', run.first, run.days));
        continue;
      }
      let day = today;
      for (let i = 0; i < 5 && day > this.anchorDay; i++, day = tradingDayBefore(day)) {
        if (series.record(day).resumed) {
          out.push(entry('resumed', day, suspendedRun(tradingDayBefore(day)).days));
          break;
        }
      }
    }
    return out.sort((a, b) =>
      a.state === b.state
        ? b.since - a.since || (a.code < b.code ? -1 : 1)
        : a.state === 'suspended'
          ? -1
          : 1,
    );
  }

  /**
   * What an instrument's bars depend on besides the query: its market's current day and the minutes of it
   * done. Two calls with the same query and the same value answer the same bars.
   */
  barClock(instrument: Instrument, t = this.clock.now()): string {
    const pos = sessionPosition(t, this.hours(instrument));
    return `${pos.day}:${Math.floor(pos.elapsed)}`;
  }

  private readonly history = new Map<string, { bars: Bar[]; lastDay: number }>();

  /**
   * Day, week or month bars, oldest first, ending with today's bar so far; only bars starting before
   * `before`. Suspended days have no bar. Adjusted bars multiply prices by the cumulative factor of each
   * day: backward from the first day, forward so that today's prices are unchanged.
   */
  dayBars(
    instrument: Instrument,
    period: DayPeriod,
    limit: number,
    before?: number,
    adjust: Adjust = 'none',
  ): Bar[] {
    const hours = this.hours(instrument);
    const series = this.series(instrument);
    const pos = sessionPosition(this.clock.now(), hours);
    const complete = pos.elapsed >= series.spec.minutesPerDay;
    // Completed history is memoised per instrument, period, adjustment and current day.
    const key = `${instrument.code}|${period}|${adjust}|${pos.day}|${complete ? 1 : 0}`;
    let cached = this.history.get(key);
    if (!cached) {
      const lastDay = complete ? pos.day : pos.day - 1;
      cached = { bars: this.buildBars(instrument, period, adjust, lastDay, pos.day), lastDay };
      if (this.history.size > 5000) this.history.clear();
      this.history.set(key, cached);
    }
    let bars = cached.bars;
    const today = series.record(pos.day);
    if (!complete && today.trading && !today.suspended && today.listed) {
      const path = series.path(pos.day);
      const k = Math.floor(pos.elapsed);
      const f = this.adjustFactor(series, pos.day, pos.day, adjust);
      const time = localMinuteToUtc(pos.day, 0, hours.timeZone);
      const part: Bar = [
        time,
        adjusted(path.prices[0]!, f),
        adjusted(path.runHigh[k]!, f),
        adjusted(path.runLow[k]!, f),
        adjusted(path.prices[k]!, f),
        path.runVolume[k]!,
      ];
      const last = bars[bars.length - 1];
      if (last && period !== 'day' && groupOf(period, localDayOfTime(last[0])) === groupOf(period, pos.day)) {
        bars = [
          ...bars.slice(0, -1),
          [
            last[0],
            last[1],
            Math.max(last[2], part[2]),
            Math.min(last[3], part[3]),
            part[4],
            last[5] + part[5],
          ],
        ];
      } else {
        bars = [...bars, part];
      }
    }
    let end = bars.length;
    if (before !== undefined) {
      let lo = 0;
      let hi = bars.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (bars[mid]![0] < before) lo = mid + 1;
        else hi = mid;
      }
      end = lo;
    }
    return bars.slice(Math.max(0, end - limit), end);
  }

  private adjustFactor(series: InstrumentSeries, day: number, today: number, adjust: Adjust): number {
    if (adjust === 'none') return 1;
    const factor = series.record(day).factor;
    return adjust === 'backward' ? factor : factor / series.record(today).factor;
  }

  private buildBars(
    instrument: Instrument,
    period: DayPeriod,
    adjust: Adjust,
    lastDay: number,
    today: number,
  ): Bar[] {
    const hours = this.hours(instrument);
    const series = this.series(instrument);
    const bars: Bar[] = [];
    let group: number | null = null;
    for (let day = this.anchorDay; day <= lastDay; day++) {
      const r = series.record(day);
      if (!r.trading || r.suspended || !r.listed) continue;
      const f = this.adjustFactor(series, day, today, adjust);
      const o = adjusted(r.open, f);
      const h = adjusted(r.high, f);
      const l = adjusted(r.low, f);
      const c = adjusted(r.close, f);
      const g = groupOf(period, day);
      const last = bars[bars.length - 1];
      if (period !== 'day' && last && g === group) {
        last[2] = Math.max(last[2], h);
        last[3] = Math.min(last[3], l);
        last[4] = c;
        last[5] += r.volume;
      } else {
        bars.push([localMinuteToUtc(day, 0, hours.timeZone), o, h, l, c, r.volume]);
        group = g;
      }
    }
    return bars;
  }

  /**
   * Minute bars (time = the bar's start), oldest first, aggregated per session. `intraday` is the current
   * trading day's session so far (rows add the running average price); 1, 5, 30 and 60 minutes cover the
   * last MINUTE_HISTORY_DAYS trading days of the instrument's market up to now (days it was suspended or not
   * yet listed have none). On a half day the bars cover the shorter sessions, each one summing the part of
   * the day's path it ran through.
   */
  minuteBars(instrument: Instrument, period: MinutePeriod): Bar[] {
    const hours = this.hours(instrument);
    const series = this.series(instrument);
    const pos = sessionPosition(this.clock.now(), hours);
    const done = Math.min(Math.floor(pos.elapsed), series.spec.minutesPerDay);
    if (period === 'intraday') {
      return series.record(pos.day).listed ? this.dayMinuteBars(instrument, pos.day, period, done) : [];
    }
    const days = [pos.day];
    for (let n = 1, d = pos.day; n < MINUTE_HISTORY_DAYS; n++) {
      d = previousTradingDay(d, hours);
      if (d < this.anchorDay) break;
      days.unshift(d);
    }
    const bars: Bar[] = [];
    for (const day of days) {
      const r = series.record(day);
      if (!r.listed || (day !== pos.day && (!r.trading || r.suspended))) continue;
      bars.push(
        ...this.dayMinuteBars(instrument, day, period, day === pos.day ? done : series.spec.minutesPerDay),
      );
    }
    return bars;
  }

  /** One trading day's minute bars over its first `done` path minutes. */
  private dayMinuteBars(instrument: Instrument, day: number, period: MinutePeriod, done: number): Bar[] {
    const hours = this.hours(instrument);
    const series = this.series(instrument);
    const path = series.path(day);
    const full = series.spec.minutesPerDay;
    const sessions = sessionsOn(day, hours);
    const dayLength = sessions.reduce((sum, [start, end]) => sum + (end - start), 0);
    const pathIndex = (realElapsed: number) => Math.round((realElapsed * full) / dayLength);
    const size = period === 'intraday' || period === '1' ? 1 : Number(period);
    const bars: Bar[] = [];
    let sessionStart = 0;
    for (const [start, end] of sessions) {
      const length = end - start;
      for (let offset = 0; offset < length; offset += size) {
        const from = pathIndex(sessionStart + offset); // path minutes k = from+1 … to
        const to = Math.min(pathIndex(Math.min(sessionStart + offset + size, sessionStart + length)), done);
        if (to <= from) break;
        let high = -Infinity;
        let low = Infinity;
        let volume = 0;
        for (let k = from + 1; k <= to; k++) {
          high = Math.max(high, path.highs[k]!);
          low = Math.min(low, path.lows[k]!);
          volume += path.volumes[k]!;
        }
        const time = localMinuteToUtc(day, start + offset, hours.timeZone);
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
