/**
 * The checks every imported bar passes before anything is written: a real trading day (minute bars: a
 * minute inside that day's sessions, half days and night sessions included), times strictly increasing per
 * code and period, high ≥ max(open, close), min(open, close) ≥ low > 0, and the market's daily price limit
 * against the previous day's close (the rule and rounding of ticks.ts, the listing exemption of the price
 * engine). A minute bar stays inside its day's high and low when the import gives that day's bar.
 */
import { NEW_LISTING_FREE_DAYS, priceLimits } from '../price-engine';
import { dayOfDate, isTradingDay, localMinuteToUtc, sessionPosition, type MarketHours } from '../sessions';
import type { CsvBar, HistoryProblem } from './csv';
import type { HistorySubject } from './instruments';

/** A day bar as history_day_bars keeps it. */
export interface HistoryDayBar {
  code: string;
  day: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** A minute bar as history_minute_bars keeps it. */
export interface HistoryMinuteBar extends HistoryDayBar {
  t: number;
}

/** Prices in files carry a few decimals; a limit price and a bar's own price compare within this. */
const PRICE_EPSILON = 1e-6;

const MARKET_NAMES: Record<HistorySubject['market'], string> = {
  a: 'A-share',
  star: 'STAR/ChiNext',
  hk: 'Hong Kong',
  us: 'US',
  index: 'index',
  futures: 'futures',
};

/** What is wrong with a bar's own prices, or null. */
function priceProblem(bar: CsvBar): string | null {
  if (!(bar.low > 0)) return `low ${bar.low} is not above 0`;
  if (bar.high < Math.max(bar.open, bar.close))
    return `high ${bar.high} is below the open or the close (${bar.open}, ${bar.close})`;
  if (bar.low > Math.min(bar.open, bar.close))
    return `low ${bar.low} is above the open or the close (${bar.open}, ${bar.close})`;
  return null;
}

/** True on the first trading days of a listing, which trade without a limit (as the price engine has it). */
function freeOfLimit(subject: HistorySubject, day: number): boolean {
  const listed = subject.listedDay;
  if (listed === null || day < listed) return false;
  let tradingDays = 0;
  for (let d = listed; d < day && tradingDays < NEW_LISTING_FREE_DAYS; d++)
    if (isTradingDay(d, subject.hours)) tradingDays++;
  return tradingDays < NEW_LISTING_FREE_DAYS;
}

/** What breaks the daily price limit against the previous close, or null. */
function limitProblem(
  bar: CsvBar,
  day: number,
  prevClose: number | undefined,
  subject: HistorySubject,
): string | null {
  // The first bar known of a code has no previous close to hold it to.
  if (prevClose === undefined || freeOfLimit(subject, day)) return null;
  const limits = priceLimits(prevClose, subject.limit, subject.tick);
  if (!limits) return null;
  const percent = `${Math.round((subject.limit ?? 0) * 1000) / 10}%`;
  const of = `the ${percent} limit of ${MARKET_NAMES[subject.market]} ${subject.code} from the previous close ${prevClose}`;
  if (bar.high > limits.up + PRICE_EPSILON) return `high ${bar.high} is above ${limits.up}, ${of}`;
  if (bar.low < limits.down - PRICE_EPSILON) return `low ${bar.low} is below ${limits.down}, ${of}`;
  return null;
}

const barRow = (bar: CsvBar, day: number): HistoryDayBar => ({
  code: bar.code,
  day,
  open: bar.open,
  high: bar.high,
  low: bar.low,
  close: bar.close,
  volume: bar.volume,
});

/**
 * Checks a file's day bars (in file order); returns those that pass. `priorClose` is each code's last close
 * stored before this import's first bar of it (the reference of that first bar's limit).
 */
export function checkDayBars(
  file: string,
  bars: readonly CsvBar[],
  subjects: ReadonlyMap<string, HistorySubject>,
  priorClose: ReadonlyMap<string, number>,
  problems: HistoryProblem[],
): HistoryDayBar[] {
  const rows: HistoryDayBar[] = [];
  const last = new Map<string, { day: number; close: number; line: number }>();
  for (const bar of bars) {
    const subject = subjects.get(bar.code);
    if (bar.minute !== null || !subject) continue;
    const day = dayOfDate(bar.date);
    const previous = last.get(bar.code);
    const problem =
      (isTradingDay(day, subject.hours)
        ? null
        : `${bar.date} is not a trading day on the ${MARKET_NAMES[subject.market]} calendar`) ??
      (previous && day <= previous.day
        ? `${bar.code} ${bar.date} is not after its day bar of line ${previous.line}`
        : null) ??
      priceProblem(bar) ??
      limitProblem(bar, day, previous?.close ?? priorClose.get(bar.code), subject);
    if (problem) problems.push({ file, line: bar.line, message: problem });
    else rows.push(barRow(bar, day));
    // A refused bar still orders the ones after it, so one bad line reports once.
    if (!previous || day > previous.day) last.set(bar.code, { day, close: bar.close, line: bar.line });
  }
  return rows;
}

/** The trading day and start instant of a minute bar, or null when the minute is outside the sessions. */
function minuteOf(bar: CsvBar, hours: MarketHours): { t: number; day: number } | null {
  const t = localMinuteToUtc(dayOfDate(bar.date), bar.minute ?? 0, hours.timeZone);
  const position = sessionPosition(t, hours);
  return position.inSession ? { t, day: position.day } : null;
}

const clock = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

/**
 * Checks a file's minute bars (in file order); returns those that pass. `dayBars` holds the import's day
 * bars by code and day: a minute stays inside its day's range.
 */
export function checkMinuteBars(
  file: string,
  bars: readonly CsvBar[],
  subjects: ReadonlyMap<string, HistorySubject>,
  dayBars: ReadonlyMap<string, ReadonlyMap<number, HistoryDayBar>>,
  problems: HistoryProblem[],
): HistoryMinuteBar[] {
  const rows: HistoryMinuteBar[] = [];
  const last = new Map<string, { t: number; line: number }>();
  for (const bar of bars) {
    const subject = subjects.get(bar.code);
    if (bar.minute === null || !subject) continue;
    const at = minuteOf(bar, subject.hours);
    const previous = last.get(bar.code);
    const day = at ? dayBars.get(bar.code)?.get(at.day) : undefined;
    const problem =
      (at
        ? null
        : `${bar.date} ${clock(bar.minute)} is not inside the ${MARKET_NAMES[subject.market]} sessions ` +
          '(a minute bar is labelled by the minute it starts)') ??
      (at && previous && at.t <= previous.t
        ? `${bar.code} ${bar.date} ${clock(bar.minute)} is not after its minute bar of line ${previous.line}`
        : null) ??
      priceProblem(bar) ??
      (day && bar.high > day.high + PRICE_EPSILON
        ? `high ${bar.high} is above the day's high ${day.high}`
        : null) ??
      (day && bar.low < day.low - PRICE_EPSILON ? `low ${bar.low} is below the day's low ${day.low}` : null);
    if (problem || !at) problems.push({ file, line: bar.line, message: problem ?? '' });
    else rows.push({ ...barRow(bar, at.day), t: at.t });
    if (at && (!previous || at.t > previous.t)) last.set(bar.code, { t: at.t, line: bar.line });
  }
  return rows;
}
