/**
 * Trading sessions and days (DOMAIN.md "Markets, sessions, calendars"), as pure functions of time.
 * A day is identified by its day number: whole days since 1970-01-01 in the market's local time zone.
 * In `real` mode the exchange calendars in ./calendars/*.json (2025–2027: holidays and half days of
 * SSE/SZSE, HKEX and NYSE) decide which weekdays trade; outside the years a calendar covers, every Monday
 * to Friday trades. A half day keeps the full day's price path: its shorter session runs through it faster.
 */
import { readFileSync } from 'node:fs';
import type { StockMarket } from '../../src/shared/api/types';
import type { ClockMode } from '../config';

import { DAY_MS, MINUTE_MS, tzOffsetMinutes } from '../platform';

export { DAY_MS, MINUTE_MS, tzOffsetMinutes };

export type Session = readonly [number, number];

export interface MarketHours {
  timeZone: string;
  /**
   * Continuous sessions as [start, end) minutes from local midnight, in order. A first session starting
   * before 0 is a night session (Chinese futures, e.g. [-180, 150] for 21:00-02:30): it opens the trading
   * day on the evening of the trading day before (see sessionsOn).
   */
  sessions: readonly Session[];
  /** False for `always-open`, where every day trades. */
  weekdaysOnly: boolean;
  /**
   * Weekdays the exchange is closed (day numbers), with the holiday's name as a key of the locales'
   * `stationTexts.holiday` section (holidayName gives it in the reader's language).
   */
  holidays?: ReadonlyMap<number, string>;
  /** Days with shorter sessions (e.g. Christmas Eve), by day number. */
  halfDays?: ReadonlyMap<number, readonly Session[]>;
  /** The names of the half days (keys as for `holidays`), where the calendar gives one. */
  halfDayNames?: ReadonlyMap<number, string>;
  /** Years whose days are projected rather than published by the exchange. */
  provisionalYears?: readonly number[];
}

/** An exchange calendar data file (server/market/calendars/*.json). */
export interface CalendarFile {
  market: string;
  timeZone: string;
  sessions: string[];
  years: number[];
  provisional: number[];
  /** Date → the holiday's key under the locales' `stationTexts.holiday`. */
  holidays: Record<string, string>;
  halfDays: Record<string, string[]>;
  /** Date of a half day → its key under `stationTexts.holiday`. */
  halfDayNames?: Record<string, string>;
}

/** "09:30-11:30" → [570, 690]; throws on anything else. */
export function parseSession(text: string): Session {
  const m = /^(\d\d):(\d\d)-(\d\d):(\d\d)$/.exec(text);
  if (!m) throw new Error(`calendar: bad session "${text}"`);
  const start = Number(m[1]) * 60 + Number(m[2]);
  const end = Number(m[3]) * 60 + Number(m[4]);
  if (!(start < end && end <= 1440)) throw new Error(`calendar: bad session "${text}"`);
  return [start, end];
}

/** "2025-01-28" → its day number; throws unless it is a real date. */
export function dayOfDate(date: string): number {
  const t = Date.parse(`${date}T00:00:00Z`);
  if (
    !/^\d{4}-\d\d-\d\d$/.test(date) ||
    !Number.isFinite(t) ||
    new Date(t).toISOString().slice(0, 10) !== date
  ) {
    throw new Error(`calendar: bad date "${date}"`);
  }
  return t / DAY_MS;
}

/** The YYYY-MM-DD of a day number. */
export function dateOfDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** Checks a calendar file and turns it into market hours. */
export function hoursFromCalendar(file: CalendarFile): MarketHours {
  new Intl.DateTimeFormat('en-US', { timeZone: file.timeZone }); // throws on an unknown zone
  const holidays = new Map<number, string>();
  for (const [date, name] of Object.entries(file.holidays)) {
    const day = dayOfDate(date);
    if (!file.years.includes(Number(date.slice(0, 4))))
      throw new Error(`calendar: ${date} outside its years`);
    if (weekday(day) === 0 || weekday(day) === 6) throw new Error(`calendar: holiday ${date} is a weekend`);
    holidays.set(day, name);
  }
  const halfDays = new Map<number, readonly Session[]>();
  for (const [date, sessions] of Object.entries(file.halfDays)) {
    const day = dayOfDate(date);
    if (holidays.has(day)) throw new Error(`calendar: ${date} is both a holiday and a half day`);
    halfDays.set(day, sessions.map(parseSession));
  }
  const halfDayNames = new Map<number, string>();
  for (const [date, name] of Object.entries(file.halfDayNames ?? {})) {
    const day = dayOfDate(date);
    if (!halfDays.has(day)) throw new Error(`calendar: ${date} is named but not a half day`);
    halfDayNames.set(day, name);
  }
  return {
    timeZone: file.timeZone,
    sessions: file.sessions.map(parseSession),
    weekdaysOnly: true,
    holidays,
    halfDays,
    halfDayNames,
    provisionalYears: file.provisional,
  };
}

export function loadCalendar(name: 'cn' | 'hk' | 'us'): CalendarFile {
  return JSON.parse(
    readFileSync(new URL(`./calendars/${name}.json`, import.meta.url), 'utf8'),
  ) as CalendarFile;
}

const CN_HOURS = hoursFromCalendar(loadCalendar('cn'));

/** Real sessions and calendars per market; `always-open` makes each UTC day one 1440-minute session. */
export const REAL_HOURS: Record<StockMarket, MarketHours> = {
  a: CN_HOURS,
  star: CN_HOURS,
  hk: hoursFromCalendar(loadCalendar('hk')),
  us: hoursFromCalendar(loadCalendar('us')),
};

export const ALWAYS_OPEN_HOURS: MarketHours = { timeZone: 'UTC', sessions: [[0, 1440]], weekdaysOnly: false };

/** True when the market has a night session (its first session starts the evening before). */
export function hasNightSession(hours: MarketHours): boolean {
  return (hours.sessions[0]?.[0] ?? 0) < 0;
}

const nightSessionsCache = new WeakMap<MarketHours, Map<number, readonly Session[]>>();

/**
 * The sessions of `day` (shorter on a half day). A night session belongs to the trading day after the
 * evening it runs on (the Chinese exchanges' rule): it runs on the evening of the previous trading day, so
 * Friday night opens Monday; and there is none when a holiday lies between the two days (no night trading
 * before a holiday: the calendar files list the holidays, and the rule is derived from them). A day without
 * its night session is shorter and runs the whole day's path, as a half day does.
 */
export function sessionsOn(day: number, hours: MarketHours): readonly Session[] {
  const half = hours.halfDays?.get(day);
  if (half) return half;
  if (!hasNightSession(hours)) return hours.sessions;
  let byDay = nightSessionsCache.get(hours);
  if (!byDay) {
    byDay = new Map();
    nightSessionsCache.set(hours, byDay);
  }
  let sessions = byDay.get(day);
  if (!sessions) {
    const [night, ...rest] = hours.sessions as [Session, ...Session[]];
    const previous = previousTradingDay(day, hours);
    let holidayBetween = false;
    for (let d = previous + 1; d < day; d++) if (hours.holidays?.has(d)) holidayBetween = true;
    const shift = (day - previous - 1) * 1440;
    sessions = holidayBetween ? rest : [[night[0] - shift, night[1] - shift], ...rest];
    if (byDay.size > 4000) byDay.clear();
    byDay.set(day, sessions);
  }
  return sessions;
}

/** The holiday closing the market on `day`, if any (its key under the locales' `stationTexts.holiday`). */
export function holidayOn(day: number, hours: MarketHours): string | undefined {
  return hours.holidays?.get(day);
}

export function hoursFor(market: StockMarket, mode: ClockMode): MarketHours {
  return mode === 'always-open' ? ALWAYS_OPEN_HOURS : REAL_HOURS[market];
}

/**
 * A futures product's hours on the Shanghai calendar. A session starting in the evening (21:00-23:00, or
 * 21:00-02:30 past midnight) is the night session, which opens the next trading day (the exchanges' rule):
 * it is kept as minutes before that day's midnight ([-180, 150] for 21:00-02:30), and sessionsOn moves it to
 * the evening of the trading day before (Friday for Monday), or drops it before a holiday.
 */
export function futuresHours(sessions: readonly string[]): MarketHours {
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
  return {
    timeZone: cn.timeZone,
    sessions: parts,
    weekdaysOnly: true,
    holidays: cn.holidays,
    provisionalYears: cn.provisionalYears,
  };
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
  return w !== 0 && w !== 6 && !hours.holidays?.has(day);
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

/** Minutes of continuous trading in one full day. */
export function sessionMinutes(hours: MarketHours): number {
  return hours.sessions.reduce((sum, [start, end]) => sum + (end - start), 0);
}

function minutesOf(sessions: readonly Session[]): number {
  return sessions.reduce((sum, [start, end]) => sum + (end - start), 0);
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
  if (hasNightSession(hours)) return nightSessionPosition(local, hours);
  const day = Math.floor(local / DAY_MS);
  const minute = (local - day * DAY_MS) / MINUTE_MS;
  const sessions = sessionsOn(day, hours);
  const first = sessions[0];
  const full = sessionMinutes(hours);
  if (!first || !isTradingDay(day, hours) || minute < first[0]) {
    return { day: previousTradingDay(day, hours), elapsed: full, inSession: false };
  }
  return positionIn(day, minute, sessions, full);
}

/**
 * sessionPosition for a market with night sessions: the trading day of local time `local` is the first one
 * not yet closed, so from its night session's open (the evening before, or the Friday before a Monday) the
 * clock is in the next trading day, and between its night and day sessions too.
 */
function nightSessionPosition(local: number, hours: MarketHours): SessionPosition {
  const full = sessionMinutes(hours);
  const calendarDay = Math.floor(local / DAY_MS);
  let day = isTradingDay(calendarDay, hours) ? calendarDay : nextTradingDay(calendarDay, hours);
  let sessions = sessionsOn(day, hours);
  let minute = (local - day * DAY_MS) / MINUTE_MS;
  if (minute >= (sessions[sessions.length - 1]?.[1] ?? 1440)) {
    day = nextTradingDay(day, hours);
    sessions = sessionsOn(day, hours);
    minute = (local - day * DAY_MS) / MINUTE_MS;
  }
  const first = sessions[0];
  if (!first || minute < first[0]) {
    return { day: previousTradingDay(day, hours), elapsed: full, inSession: false };
  }
  return positionIn(day, minute, sessions, full);
}

/** The position at local `minute` (from the local midnight of `day`) of a trading day with `sessions`. */
function positionIn(
  day: number,
  minute: number,
  sessions: readonly Session[],
  full: number,
): SessionPosition {
  let elapsed = 0;
  let inSession = false;
  for (const [start, end] of sessions) {
    if (minute >= start && minute < end) inSession = true;
    elapsed += Math.min(Math.max(minute - start, 0), end - start);
  }
  const length = minutesOf(sessions);
  // A half day runs the whole day's path in its shorter session.
  if (length !== full) elapsed = length > 0 ? (elapsed * full) / length : full;
  return { day, elapsed, inSession };
}

/** The instant the first session of `day` opens. */
export function dayOpenTime(day: number, hours: MarketHours): number {
  const first = sessionsOn(day, hours)[0];
  return localMinuteToUtc(day, first ? first[0] : 0, hours.timeZone);
}

/** The instant the last session of `day` closes (early on a half day). */
export function dayCloseTime(day: number, hours: MarketHours): number {
  const sessions = sessionsOn(day, hours);
  const last = sessions[sessions.length - 1];
  return localMinuteToUtc(day, last ? last[1] : 1440, hours.timeZone);
}

/**
 * The instant at which `elapsed` minutes of `day`'s price path are done (the path has sessionMinutes
 * steps; a half day's shorter sessions cover it proportionally).
 */
export function elapsedToUtc(day: number, elapsed: number, hours: MarketHours): number {
  const sessions = sessionsOn(day, hours);
  const full = sessionMinutes(hours);
  const length = minutesOf(sessions);
  let left = length === full ? elapsed : (elapsed * length) / full;
  for (const [start, end] of sessions) {
    const len = end - start;
    if (left <= len) return localMinuteToUtc(day, start, hours.timeZone) + left * MINUTE_MS;
    left -= len;
  }
  return dayCloseTime(day, hours);
}

/** When shares bought at `t` become sellable under T+1: the next trading day's open. */
export function nextTradingDayOpen(t: number, hours: MarketHours): number {
  // With night sessions the trading day of `t` may begin the evening before its date.
  const day = hasNightSession(hours) ? sessionPosition(t, hours).day : localDay(t, hours.timeZone);
  return dayOpenTime(nextTradingDay(day, hours), hours);
}
