/**
 * Where the chart's bars come from: the minute call for intraday and 1–60 minute periods, the day call for
 * day, week and month (the only ones with price adjustment), and the latest bars for live updates.
 */
import type { Adjust, Bar, DayPeriod, MinutePeriod } from '../../shared/api/types';
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

export async function loadBars(
  code: string,
  period: ChartPeriod,
  adjust: Adjust,
  signal: AbortSignal,
): Promise<Bar[]> {
  if (isDayPeriod(period)) {
    const answer = await call(
      'GET /api/stock/getDayK.do',
      { code, period, adjust, limit: DAY_BARS },
      { signal },
    );
    return answer.bars;
  }
  const answer = await call('GET /api/stock/getMinK_Echarts.do', { code, period }, { signal });
  return answer.bars;
}

/** The newest bars, where the call can limit them; the minute call answers with its last five trading days (intraday: today), and the chart skips the rows it has. */
export async function loadLatestBars(
  code: string,
  period: ChartPeriod,
  adjust: Adjust,
  signal: AbortSignal,
): Promise<Bar[]> {
  if (isDayPeriod(period)) {
    const answer = await call(
      'GET /api/stock/getDayK.do',
      { code, period, adjust, limit: LIVE_DAY_BARS },
      { signal },
    );
    return answer.bars;
  }
  const answer = await call('GET /api/stock/getMinK_Echarts.do', { code, period }, { signal });
  return answer.bars;
}
