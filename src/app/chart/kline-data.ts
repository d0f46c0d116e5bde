/**
 * Where the chart's bars come from: the minute call for intraday and 1–60 minute periods, the day call for
 * day, week and month (the only ones with price adjustment), and the latest bars for live updates.
 */
import type { Adjust, Bar, DayPeriod, Market, MinutePeriod } from '../../shared/api/types';
import { call } from '../api/client';
import type { LabelStyle } from '../../worker/kline-types';

/** spec §9: the candle periods, in the order the chart offers them. */
export type ChartPeriod = MinutePeriod | DayPeriod;
export const CHART_PERIODS: readonly ChartPeriod[] = [
  'intraday',
  '1',
  '5',
  '30',
  '60',
  'day',
  'week',
  'month',
];
/** The locale key of each period's label (keys cannot start with a digit). */
export const PERIOD_LABEL_KEY = {
  intraday: 'intraday',
  '1': 'min1',
  '5': 'min5',
  '30': 'min30',
  '60': 'min60',
  day: 'day',
  week: 'week',
  month: 'month',
} as const satisfies Record<ChartPeriod, string>;
export const ADJUSTS: readonly Adjust[] = ['none', 'forward', 'backward'];

/** How many day, week or month bars a chart loads: years of days, decades of months. */
export const DAY_BARS = 500;
/**
 * How many of the latest day, week or month bars a live refresh reads: the current one and those before,
 * so a day that turned while the page was away still joins up (a longer gap reloads the chart).
 */
const LIVE_DAY_BARS = 5;
/** How often the latest bar is read while there is no live stream to feed the chart. */
export const LIVE_REFRESH_MS = 5000;

export function isDayPeriod(period: ChartPeriod): period is DayPeriod {
  return period === 'day' || period === 'week' || period === 'month';
}

export function isChartPeriod(value: unknown): value is ChartPeriod {
  return typeof value === 'string' && (CHART_PERIODS as readonly string[]).includes(value);
}

export function labelStyleOf(period: ChartPeriod): LabelStyle {
  if (isDayPeriod(period)) return 'date';
  return period === 'intraday' ? 'time' : 'minute';
}

/** Whether a market's day bars can be adjusted for dividends and splits: stocks yes; indexes and futures no. */
export function hasAdjustment(market: Market): boolean {
  return market !== 'index' && market !== 'futures';
}

/** One read of day, week or month bars from the market's own call (API.md: stock, index and futures K-lines). */
async function dayBars(
  code: string,
  market: Market,
  period: DayPeriod,
  adjust: Adjust,
  limit: number,
  signal: AbortSignal,
): Promise<Bar[]> {
  if (market === 'index') {
    return (await call('GET /api/stock/getIndexDayK.do', { code, period, limit }, { signal })).bars;
  }
  if (market === 'futures') {
    return (await call('GET /api/stock/getFuturesDayK.do', { code, period, limit }, { signal })).bars;
  }
  return (await call('GET /api/stock/getDayK.do', { code, period, adjust, limit }, { signal })).bars;
}

/** The minute bars (intraday: today; 1–60 minutes: the last five trading days) from the market's own call. */
async function minuteBars(
  code: string,
  market: Market,
  period: MinutePeriod,
  signal: AbortSignal,
): Promise<Bar[]> {
  if (market === 'index') {
    return (await call('GET /api/stock/getIndexMinK_Echarts.do', { code, period }, { signal })).bars;
  }
  if (market === 'futures') {
    return (await call('GET /api/stock/getFuturesMinK_Echarts.do', { code, period }, { signal })).bars;
  }
  return (await call('GET /api/stock/getMinK_Echarts.do', { code, period }, { signal })).bars;
}

export async function loadBars(
  code: string,
  market: Market,
  period: ChartPeriod,
  adjust: Adjust,
  signal: AbortSignal,
): Promise<Bar[]> {
  return isDayPeriod(period)
    ? dayBars(code, market, period, adjust, DAY_BARS, signal)
    : minuteBars(code, market, period, signal);
}

/** The newest bars, where the call can limit them; the minute call answers with its last five trading days (intraday: today), and the chart skips the rows it has. */
export async function loadLatestBars(
  code: string,
  market: Market,
  period: ChartPeriod,
  adjust: Adjust,
  signal: AbortSignal,
): Promise<Bar[]> {
  return isDayPeriod(period)
    ? dayBars(code, market, period, adjust, LIVE_DAY_BARS, signal)
    : minuteBars(code, market, period, signal);
}
