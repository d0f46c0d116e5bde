/**
 * The catalogue as the simulation trades it: the stocks (with the new-share calendar's listings), the
 * indexes and the futures products; each one's hours, daily price limit, listing day and seeded price series
 * (DOMAIN.md "The simulated market"). The other parts of the market (quotes, boards, bars, …) read
 * instruments and series from here.
 */
import type { Market } from '../../src/shared/api/types';
import type { ClockMode, Settings } from '../config';
import { AppError } from '../platform';
import type { Clock } from './clock';
import { loadCatalogueData, type FuturesDef, type IndexDef, type Instrument } from './catalogue';
import { InstrumentSeries, type SeriesHistory } from './price-engine';
import {
  ALWAYS_OPEN_HOURS,
  DAY_MS,
  dayOfDate,
  futuresHours,
  hoursFor,
  isTradingDay,
  localMinuteToUtc,
  nextTradingDayOpen,
  sessionMinutes,
  sessionPosition,
  type MarketHours,
  type SessionPosition,
} from './sessions';

export interface MarketOptions {
  seed: string;
  clockMode: ClockMode;
  settings: Settings;
  /** MARKET_SOURCE=replay: the imported history the instruments that have some replay. */
  history?: MarketHistory;
}

/** Real history for the catalogue to replay (history/replay-history.ts). */
export interface MarketHistory {
  /** Tells series built on this history from others in the process-wide cache. */
  readonly key: string;
  /** The first day of the replay's simulated history: before the replay's start and its first bar. */
  readonly anchorDay: number;
  seriesHistory(code: string, hours: MarketHours): SeriesHistory | undefined;
}

/** A tradable code: a stock, an index or a futures product, with the API market it trades in. */
export interface Tradable {
  instrument: Instrument;
  market: Market;
  /** A futures product's contract multiplier; null for stocks and indexes (an index's is a trading setting). */
  contractMultiplier: number | null;
}

/** A futures product's contract terms, its instrument for the engine and its hours. */
export interface FuturesProduct {
  def: FuturesDef;
  instrument: Instrument;
  hours: MarketHours;
}

/** Series are pure functions of their spec, so one cache serves every station in the process. */
const seriesCache = new Map<string, InstrumentSeries>();

export class InstrumentCatalogue {
  /** The first day of simulated history (settings.marketAnchorDate). */
  readonly anchorDay: number;
  private readonly byCode: Map<string, Instrument>;
  private readonly listingTimes = new Map<string, number>();
  private readonly indexByCode = new Map<string, Instrument>();
  private indexDefs: IndexDef[] = [];
  private readonly futuresByCode = new Map<string, FuturesProduct>();
  private futuresDefs: FuturesDef[] = [];
  /** This catalogue's series by code, in front of the process-wide cache (whose key costs a string each time). */
  private readonly seriesByCode = new Map<string, InstrumentSeries>();

  constructor(
    readonly stocks: readonly Instrument[],
    readonly options: MarketOptions,
    readonly clock: Clock,
  ) {
    this.byCode = new Map(stocks.map((i) => [i.code, i]));
    const anchor = Date.parse(`${options.settings.marketAnchorDate}T00:00:00Z`);
    if (!Number.isFinite(anchor)) throw new Error('settings.marketAnchorDate is not a date');
    this.anchorDay = Math.min(Math.floor(anchor / DAY_MS), options.history?.anchorDay ?? Infinity);
  }

  /** A stock by its code, once listed (a new listing is unknown before its listing day). */
  find(code: string): Instrument | undefined {
    const instrument = this.byCode.get(code.toUpperCase());
    return instrument && this.isListed(instrument) ? instrument : undefined;
  }

  /** A stock by its exact catalogue code, listed or not (for rows already known to be listed). */
  stock(code: string): Instrument | undefined {
    return this.byCode.get(code);
  }

  /** Any entry by its exact code, listed or not: a stock (new listings too), an index or a futures product. */
  entry(code: string): Instrument | undefined {
    const stock = this.byCode.get(code);
    if (stock) return stock;
    this.indexes();
    const index = this.indexByCode.get(code);
    if (index) return index;
    this.futures();
    return this.futuresByCode.get(code)?.instrument;
  }

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

  /** The stock, or NOT_FOUND. */
  get(code: string): Instrument {
    const instrument = this.find(code);
    if (!instrument) throw new AppError('NOT_FOUND');
    return instrument;
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

  /** Any tradable code: a stock, an index or a futures product. Undefined when the code is none of them. */
  findTradable(code: string): Tradable | undefined {
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

  hours(instrument: Instrument): MarketHours {
    return (
      this.futuresByCode.get(instrument.code)?.hours ?? hoursFor(instrument.market, this.options.clockMode)
    );
  }

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
            names: def.names,
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

  /** The futures product an instrument from getFutures stands for. */
  futuresProduct(instrument: Instrument): FuturesProduct {
    this.futures();
    return this.futuresByCode.get(instrument.code)!;
  }

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
          names: def.names,
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

  /** The daily price limit as a fraction: per market, stPriceLimit for ST names on the main boards, or none. */
  limitOf(instrument: Instrument): number | null {
    const futures = this.futuresByCode.get(instrument.code);
    if (futures) return futures.def.limit;
    if (instrument.st && instrument.board === 'main') return this.options.settings.stPriceLimit;
    return this.options.settings.priceLimit[instrument.market];
  }

  series(instrument: Instrument): InstrumentSeries {
    const known = this.seriesByCode.get(instrument.code);
    if (known) return known;
    const key = `${this.options.seed}\u001f${this.options.clockMode}\u001f${this.anchorDay}\u001f${this.options.history?.key ?? ''}\u001f${instrument.code}`;
    let series = seriesCache.get(key);
    if (!series) {
      const hours = this.hours(instrument);
      const isIndex = this.indexByCode.has(instrument.code);
      const isFutures = this.futuresByCode.has(instrument.code);
      const history = this.options.history?.seriesHistory(instrument.code, hours);
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
        ...(history ? { history } : {}),
      });
      seriesCache.set(key, series);
    }
    this.seriesByCode.set(instrument.code, series);
    return series;
  }

  position(instrument: Instrument, t = this.clock.now()): SessionPosition {
    return sessionPosition(t, this.hours(instrument));
  }

  /** T+1: when shares bought at `openedAt` may be sold (at once where the market is T+0). */
  sellableFrom(instrument: Instrument, openedAt: number): number {
    if (!this.options.settings.tPlusOne[instrument.market]) return openedAt;
    return nextTradingDayOpen(openedAt, this.hours(instrument));
  }

  /**
   * Builds every stock's day history up to today ahead of the first request, one stock per event-loop turn,
   * so the first market-wide call (move counts, the Dragon Tiger list) does not hold the station for seconds
   * while requests wait. The station's entry point runs it after listening; a request meanwhile builds what
   * it needs itself. Resolves with the number of stocks warmed.
   */
  async warmUp(shouldStop: () => boolean = () => false): Promise<number> {
    let warmed = 0;
    for (const instrument of this.stocks) {
      if (shouldStop()) break;
      this.series(instrument).record(this.position(instrument).day);
      warmed++;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return warmed;
  }
}
