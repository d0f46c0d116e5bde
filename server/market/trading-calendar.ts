/**
 * A market's coming trading calendar (DOMAIN.md "Markets, sessions, calendars"): its regular sessions in
 * exchange time, and the holidays and half days of the next days, each holiday run (consecutive closed
 * weekdays of one holiday, the weekends inside it included) as one entry with the instant trading resumes.
 * A pure function of the market's hours and an instant, so a pinned clock pins the listing.
 */
import type { Messages } from '../platform';
import {
  dateOfDay,
  dayOpenTime,
  isTradingDay,
  localDay,
  nextTradingDay,
  weekday,
  type MarketHours,
  type Session,
} from './sessions';

/** One holiday run or one half day. Names are keys of the locales' `stationTexts.holiday` (holidayName). */
export interface CalendarListingEntry {
  kind: 'holiday' | 'halfDay';
  /** First and last day, YYYY-MM-DD in the exchange's time zone (the same day for a half day). */
  from: string;
  to: string;
  name: string | null;
  /** A half day's shortened sessions, "HH:MM-HH:MM"; empty for a holiday. */
  sessions: string[];
  /** Epoch ms of the first open after a holiday run; a half day's own open. */
  opens: number;
  /** True when the exchange has not published the year yet (the calendar file projects it). */
  provisional: boolean;
}

export interface CalendarListing {
  /** Today in the exchange's time zone, YYYY-MM-DD. */
  today: string;
  /** The last day the listing covers. */
  through: string;
  entries: CalendarListingEntry[];
}

/** The longest listing a caller may ask for: the calendar files cover whole years. */
export const MAX_CALENDAR_DAYS = 366;

/** "HH:MM" of a minute of the day; a night session's minutes before midnight (negative) as the evening. */
function clockText(minute: number, end: boolean): string {
  if (end && minute === 1440) return '24:00';
  const m = ((minute % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** A session as the exchange writes it, "09:30-11:30" (a night session "21:00-02:30"). */
export function sessionText([start, end]: Session): string {
  return `${clockText(start, false)}-${clockText(end, true)}`;
}

function isProvisional(day: number, hours: MarketHours): boolean {
  return hours.provisionalYears?.includes(Number(dateOfDay(day).slice(0, 4))) ?? false;
}

function isWeekend(day: number): boolean {
  const w = weekday(day);
  return w === 0 || w === 6;
}

/**
 * The holidays and half days from today (the exchange's date at `t`) through `days` days. A holiday run
 * already under way today starts at its first day, so "Spring Festival, 28 Jan – 4 Feb" reads whole.
 */
export function calendarListing(t: number, hours: MarketHours, days: number): CalendarListing {
  const today = localDay(t, hours.timeZone);
  const last = today + Math.max(1, Math.min(days, MAX_CALENDAR_DAYS)) - 1;
  const entries: CalendarListingEntry[] = [];
  let run: { name: string; from: number; to: number } | null = null;
  const closeRun = () => {
    if (!run) return;
    entries.push({
      kind: 'holiday',
      from: dateOfDay(run.from),
      to: dateOfDay(run.to),
      name: run.name,
      sessions: [],
      opens: dayOpenTime(nextTradingDay(run.to, hours), hours),
      provisional: isProvisional(run.from, hours),
    });
    run = null;
  };
  // Back over a run already under way, so it is listed from its first day: today is one of its days, or a
  // weekend inside it (the weekdays on both sides closed for the same holiday).
  let start = today;
  let before = today;
  while (isWeekend(before)) before--;
  let after = today;
  while (isWeekend(after)) after++;
  const under = hours.holidays?.get(before);
  if (under !== undefined && (before === today || hours.holidays?.get(after) === under)) {
    for (let d = before; d > today - 31; d--) {
      if (hours.holidays?.get(d) === under) start = d;
      else if (!isWeekend(d)) break;
    }
  }
  for (let day = start; day <= last; day++) {
    const holiday = hours.holidays?.get(day);
    if (holiday !== undefined) {
      // The same holiday after nothing but a weekend continues the run (a week-long National Day).
      const continues = run !== null && run.name === holiday;
      if (continues) run!.to = day;
      else {
        closeRun();
        run = { name: holiday, from: day, to: day };
      }
      continue;
    }
    if (isWeekend(day)) continue;
    closeRun();
    const half = hours.halfDays?.get(day);
    if (half && isTradingDay(day, hours)) {
      entries.push({
        kind: 'halfDay',
        from: dateOfDay(day),
        to: dateOfDay(day),
        name: hours.halfDayNames?.get(day) ?? null,
        sessions: half.map(sessionText),
        opens: dayOpenTime(day, hours),
        provisional: isProvisional(day, hours),
      });
    }
  }
  // A run still under way at the listing's end is shown whole, as one under way today is.
  const open = run as { name: string; from: number; to: number } | null;
  if (open) {
    for (let d = last + 1; d < last + 31; d++) {
      if (hours.holidays?.get(d) === open.name) open.to = d;
      else if (!isWeekend(d)) break;
    }
  }
  closeRun();
  return { today: dateOfDay(today), through: dateOfDay(last), entries };
}

/** A holiday's name (a calendar key) in the reader's language. */
export function holidayName(messages: Messages, key: string): string {
  return messages.text(`holiday.${key}`);
}
