/**
 * How a streamed quote moves the chart's last bar. A quote carries the day so far (open, running high and
 * low, price, cumulative volume), so for day, week and month bars it is the last bar itself or its latest
 * part; it does not carry a minute bar's own high and low, so on minute periods a changed quote asks for the
 * latest bars instead (one read, which the chart feeds through the same updateLastBar / appendBar path).
 */
import type { Adjust, Bar, Quote } from '../../shared/api/types';
import { isDayPeriod, type ChartPeriod } from './kline-data';

const DAY_MS = 86_400_000;

/** The day number (days since 1970-01-01) of the local date of `t` in `timeZone`. */
export function localDayNumber(t: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(t);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Math.floor(Date.UTC(get('year'), get('month') - 1, get('day')) / DAY_MS);
}

/** The bar a day falls in: the day itself, its Monday-based week, or its month (as the station groups). */
function groupOf(period: 'day' | 'week' | 'month', day: number): number {
  if (period === 'day') return day;
  if (period === 'week') return Math.floor((day + 3) / 7);
  const date = new Date(day * DAY_MS);
  return date.getUTCFullYear() * 12 + date.getUTCMonth();
}

export function sameQuote(a: Quote, b: Quote): boolean {
  return a.price === b.price && a.high === b.high && a.low === b.low && a.volume === b.volume;
}

/**
 * What a quote does to the chart: `next` builds the new last row from the chart's last bar, or answers
 * `'refresh'` when the quote starts a new bar or cannot be placed (then the chart reads the latest bars).
 * `previous` is the quote before this one, if any, since the chart loaded.
 */
export type TickPlan =
  | { kind: 'none' }
  | { kind: 'refresh' }
  | { kind: 'row'; next: (last: Bar | undefined) => Bar | 'refresh' | null };

export function planTick(
  period: ChartPeriod,
  adjust: Adjust,
  timeZone: string | undefined,
  previous: Quote | undefined,
  quote: Quote,
): TickPlan {
  if (previous && sameQuote(previous, quote)) return { kind: 'none' };
  // Minute bars need their own high and low; backward-adjusted prices need today's factor: read them.
  if (!isDayPeriod(period) || adjust === 'backward' || !timeZone) return { kind: 'refresh' };
  const quoteDay = localDayNumber(quote.time, timeZone);
  const sameDay = previous !== undefined && localDayNumber(previous.time, timeZone) === quoteDay;
  return {
    kind: 'row',
    next: (last) => {
      if (!last) return 'refresh';
      const lastGroup = groupOf(period, localDayNumber(last[0], timeZone));
      const group = groupOf(period, quoteDay);
      if (group < lastGroup) return null; // an old quote
      if (group > lastGroup) return 'refresh'; // a new day, week or month: a new bar
      if (period === 'day') {
        // Today's bar is the day so far (forward adjustment leaves today's prices as they are).
        return [last[0], quote.open, quote.high, quote.low, quote.price, quote.volume];
      }
      // The week or month so far: earlier days, then today. Volume grows by what traded since the last
      // quote heard today (the first quote after a load only moves the prices).
      const traded = sameDay && previous ? Math.max(0, quote.volume - previous.volume) : 0;
      return [
        last[0],
        last[1],
        Math.max(last[2], quote.high),
        Math.min(last[3], quote.low),
        quote.price,
        last[5] + traded,
      ];
    },
  };
}
