/**
 * Trading sessions and days (DOMAIN.md "Markets, sessions, calendars"), as pure functions of time.
 * A day is identified by its day number: whole days since 1970-01-01 in the market's local time zone.
 * Holidays are not modelled yet: in `real` mode every Monday to Friday is a trading day.
 */
import type { StockMarket } from '../../src/shared/api/types';
import type { ClockMode } from '../config';

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

export interface MarketHours {
  timeZone: string;
  /** Continuous sessions as [start, end) minutes from local midnight. */
  sessions: readonly (readonly [number, number])[];
  /** False for `always-open`, where every day trades. */
  weekdaysOnly: boolean;
}

const hm = (h: number, m: number) => h * 60 + m;

/** Real sessions per market; `always-open` makes each UTC day one 1440-minute session. */
export const REAL_HOURS: Record<StockMarket, MarketHours> = {
  a: {
    timeZone: 'Asia/Shanghai',
    sessions: [
      [hm(9, 30), hm(11, 30)],
      [hm(13, 0), hm(15, 0)],
    ],
    weekdaysOnly: true,
  },
  star: {
    timeZone: 'Asia/Shanghai',
    sessions: [
      [hm(9, 30), hm(11, 30)],
      [hm(13, 0), hm(15, 0)],
    ],
    weekdaysOnly: true,
  },
  hk: {
    timeZone: 'Asia/Hong_Kong',
    sessions: [
      [hm(9, 30), hm(12, 0)],
      [hm(13, 0), hm(16, 0)],
    ],
    weekdaysOnly: true,
  },
  us: { timeZone: 'America/New_York', sessions: [[hm(9, 30), hm(16, 0)]], weekdaysOnly: true },
};

export const ALWAYS_OPEN_HOURS: MarketHours = { timeZone: 'UTC', sessions: [[0, 1440]], weekdaysOnly: false };

export function hoursFor(market: StockMarket, mode: ClockMode): MarketHours {
  return mode === 'always-open' ? ALWAYS_OPEN_HOURS : REAL_HOURS[market];
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** Minutes the time zone is ahead of UTC at instant `t` (e.g. 480 for Asia/Shanghai). */
export function tzOffsetMinutes(timeZone: string, t: number): number {
  if (timeZone === 'UTC') return 0;
  let f = offsetFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    offsetFormatters.set(timeZone, f);
  }
  const parts = f.formatToParts(new Date(t));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'));
  const truncated = Math.floor(t / MINUTE_MS) * MINUTE_MS;
  return Math.round((asUtc - truncated) / MINUTE_MS);
}

/** The local day number of instant `t`. */
export function localDay(t: number, timeZone: string): number {
  return Math.floor((t + tzOffsetMinutes(timeZone, t) * MINUTE_MS) / DAY_MS);
}

/** The instant of local minute `minuteOfDay` on local day `day`. */
export function localMinuteToUtc(day: number, minuteOfDay: number, timeZone: string): number {
  const wall = day * DAY_MS + minuteOfDay * MINUTE_MS;
  let t = wall - tzOffsetMinutes(timeZone, wall) * MINUTE_MS;
  t = wall - tzOffsetMinutes(timeZone, t) * MINUTE_MS;
  return t;
}

/** 0 = Sunday … 6 = Saturday for a day number (1970-01-01 was a Thursday). */
export function weekday(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

export function isTradingDay(day: number, hours: MarketHours): boolean {
  if (!hours.weekdaysOnly) return true;
  const w = weekday(day);
  return w !== 0 && w !== 6;
}

export function previousTradingDay(day: number, hours: MarketHours): number {
  let d = day - 1;
  while (!isTradingDay(d, hours)) d--;
  return d;
}

export function nextTradingDay(day: number, hours: MarketHours): number {
  let d = day + 1;
  while (!isTradingDay(d, hours)) d++;
  return d;
}

/** Minutes of continuous trading in one day. */
export function sessionMinutes(hours: MarketHours): number {
  return hours.sessions.reduce((sum, [start, end]) => sum + (end - start), 0);
}

/** The local minute of day at which `elapsed` session minutes have passed (0 … sessionMinutes). */
export function elapsedToLocalMinute(elapsed: number, hours: MarketHours): number {
  let left = elapsed;
  for (const [start, end] of hours.sessions) {
    const len = end - start;
    if (left <= len) return start + left;
    left -= len;
  }
  const last = hours.sessions[hours.sessions.length - 1];
  return last ? last[1] : 0;
}

/** Where instant `t` falls in a market's trading days. */
export interface SessionPosition {
  /** The trading day whose prices are current: today once its first session has opened, else the last one. */
  day: number;
  /** Session minutes elapsed on `day` (fractional), from 0 to sessionMinutes. */
  elapsed: number;
  /** True while a continuous session is running. */
  inSession: boolean;
}

export function sessionPosition(t: number, hours: MarketHours): SessionPosition {
  const offset = tzOffsetMinutes(hours.timeZone, t);
  const local = t + offset * MINUTE_MS;
  const day = Math.floor(local / DAY_MS);
  const minute = (local - day * DAY_MS) / MINUTE_MS;
  const first = hours.sessions[0];
  if (!first || !isTradingDay(day, hours) || minute < first[0]) {
    return { day: previousTradingDay(day, hours), elapsed: sessionMinutes(hours), inSession: false };
  }
  let elapsed = 0;
  let inSession = false;
  for (const [start, end] of hours.sessions) {
    if (minute >= start && minute < end) inSession = true;
    elapsed += Math.min(Math.max(minute - start, 0), end - start);
  }
  return { day, elapsed, inSession };
}

/** The instant the first session of `day` opens. */
export function dayOpenTime(day: number, hours: MarketHours): number {
  const first = hours.sessions[0];
  return localMinuteToUtc(day, first ? first[0] : 0, hours.timeZone);
}

/** When shares bought at `t` become sellable under T+1: the next trading day's open. */
export function nextTradingDayOpen(t: number, hours: MarketHours): number {
  return dayOpenTime(nextTradingDay(localDay(t, hours.timeZone), hours), hours);
}
