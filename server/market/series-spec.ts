/** What the price engine is told about an instrument, and what it answers for one day of the simulation. */
import type { Instrument } from './catalogue';
import type { PriceLimits } from './ticks';

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
  /** Real history to replay instead of simulating it, up to its last day (MARKET_SOURCE=replay). */
  history?: SeriesHistory;
}

/** One imported bar (prices in major units, as traded). */
export interface ImportedBar {
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** One imported minute: `k` is the path minute it ends (1 for the session's first minute, as in DayPath). */
export interface ImportedMinute extends ImportedBar {
  k: number;
}

/**
 * An instrument's imported history as the engine replays it: before its first day the instrument does not
 * trade, from it to its last day each trading day is the imported bar (no bar: suspended), and after it the
 * seeded simulation goes on from the last close with the volatility the bars showed.
 */
export interface SeriesHistory {
  firstDay: number;
  lastDay: number;
  /** The first day's open: the price quoted before the history begins. */
  firstOpen: number;
  /** The last day's close: where the simulation continues from, and the level it reverts to. */
  lastClose: number;
  /** The daily volatility the bars showed (from their ranges), for the days simulated after them. */
  dailySigma: number;
  /** The day's bar: its minutes' when it has imported minutes, else the imported day bar. */
  day(day: number): ImportedBar | undefined;
  /** The day's imported minutes in path order, or undefined when it has none. */
  minutes(day: number): readonly ImportedMinute[] | undefined;
}

/** A corporate action taking effect at the open of its ex-date. */
export interface CorporateAction {
  day: number;
  /** Cash dividend per share, in major units. */
  cash: number;
  /** Bonus shares per share held (0.3 = 3 for 10); 0 for a plain dividend. */
  bonus: number;
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
