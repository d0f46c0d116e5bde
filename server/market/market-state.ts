/**
 * Whether a market trades at an instant, and if not why and when it opens next (DOMAIN.md "Markets,
 * sessions, calendars"): what an order screen says before the user fills it in. A pure function of the
 * market's hours, so `always-open` answers "open" at every instant.
 */
import type { MarketState } from '../../src/shared/api/types';
import {
  holidayOn,
  isTradingDay,
  localDay,
  localMinuteToUtc,
  sessionsOn,
  type MarketHours,
} from './sessions';

/** A calendar never closes for longer than this (the longest holidays last about ten days). */
const SEARCH_DAYS = 31;

/**
 * The state at `t`: 'open' inside a session; 'lunch' between two sessions of one trading day; 'holiday' on a
 * weekday the calendar closes, with the holiday's key (holidayName names it in the reader's language); else
 * 'closed' (before the open, after the close, on a weekend). `nextOpen` is the instant the next session
 * opens (null while open).
 */
export function marketStateAt(t: number, hours: MarketHours): Omit<MarketState, 'timeZone'> {
  const today = localDay(t, hours.timeZone);
  // A night session opens the trading day after the evening it runs on: start a day back to see it.
  for (let day = today - 1; day <= today + SEARCH_DAYS; day++) {
    if (!isTradingDay(day, hours)) continue;
    let endedThisDay = false;
    for (const [start, end] of sessionsOn(day, hours)) {
      const opens = localMinuteToUtc(day, start, hours.timeZone);
      const closes = localMinuteToUtc(day, end, hours.timeZone);
      if (t >= closes) {
        endedThisDay = true;
        continue;
      }
      if (t >= opens) return { state: 'open', holiday: null, nextOpen: null };
      const holiday = holidayOn(today, hours) ?? null;
      if (holiday !== null) return { state: 'holiday', holiday, nextOpen: opens };
      return { state: endedThisDay ? 'lunch' : 'closed', holiday: null, nextOpen: opens };
    }
  }
  return { state: 'closed', holiday: holidayOn(today, hours) ?? null, nextOpen: null };
}
