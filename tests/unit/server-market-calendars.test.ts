import { describe, expect, it } from 'vitest';
import {
  REAL_HOURS,
  dateOfDay,
  dayCloseTime,
  dayOfDate,
  holidayOn,
  hoursFromCalendar,
  isTradingDay,
  loadCalendar,
  localDay,
  nextTradingDayOpen,
  sessionMinutes,
  sessionPosition,
  type CalendarFile,
  type MarketHours,
} from '../../server/market/sessions';

const utc = (y: number, mo: number, d: number, h: number, mi = 0, s = 0) => Date.UTC(y, mo - 1, d, h, mi, s);
const SECOND = 1000;

/** Asserts the market is closed just before and open at each opening, open just before and closed at each close. */
function expectBoundaries(hours: MarketHours, opens: number[], closes: number[]) {
  for (const t of opens) {
    expect(sessionPosition(t - SECOND, hours).inSession, `closed before ${new Date(t).toISOString()}`).toBe(
      false,
    );
    expect(sessionPosition(t, hours).inSession, `open at ${new Date(t).toISOString()}`).toBe(true);
  }
  for (const t of closes) {
    expect(sessionPosition(t - SECOND, hours).inSession, `open before ${new Date(t).toISOString()}`).toBe(
      true,
    );
    expect(sessionPosition(t, hours).inSession, `closed at ${new Date(t).toISOString()}`).toBe(false);
  }
}

describe('exchange calendars 2025-2027', () => {
  it('load for every market with holidays on weekdays only, in each year', () => {
    for (const name of ['cn', 'hk', 'us'] as const) {
      const file = loadCalendar(name);
      const hours = hoursFromCalendar(file);
      for (const year of [2025, 2026, 2027]) {
        const inYear = [...hours.holidays!.keys()].filter((d) => dateOfDay(d).startsWith(`${year}`));
        expect(inYear.length, `${name} ${year}`).toBeGreaterThanOrEqual(8);
      }
    }
  });

  it('refuses a holiday on a weekend, a date that does not exist, a bad session and a name for no half day', () => {
    const base = (): CalendarFile => ({
      ...loadCalendar('us'),
      holidays: {},
      halfDays: {},
      halfDayNames: {},
    });
    expect(() => hoursFromCalendar({ ...base(), holidays: { '2025-03-15': 'Saturday' } })).toThrow(/weekend/);
    expect(() => hoursFromCalendar({ ...base(), holidays: { '2025-02-30': 'no such day' } })).toThrow(
      /bad date/,
    );
    expect(() => hoursFromCalendar({ ...base(), sessions: ['16:00-09:30'] })).toThrow(/bad session/);
    expect(() => hoursFromCalendar({ ...base(), timeZone: 'Mars/Olympus' })).toThrow();
    expect(() =>
      hoursFromCalendar({ ...base(), halfDayNames: { '2025-07-03': 'independenceDayEve' } }),
    ).toThrow(/not a half day/);
  });
});

describe('Shanghai and Shenzhen sessions', () => {
  const a = REAL_HOURS.a;

  it('opens and closes at 09:30, 11:30, 13:00 and 15:00 Shanghai time to the second', () => {
    // Thursday 9 October 2025, the first day after the National Day holiday (Shanghai = UTC+8).
    expectBoundaries(
      a,
      [utc(2025, 10, 9, 1, 30), utc(2025, 10, 9, 5, 0)],
      [utc(2025, 10, 9, 3, 30), utc(2025, 10, 9, 7, 0)],
    );
  });

  it('is shut for the National Day week and shows the last trading day meanwhile', () => {
    const sept30 = dayOfDate('2025-09-30');
    for (const date of ['2025-10-01', '2025-10-03', '2025-10-06', '2025-10-08']) {
      const day = dayOfDate(date);
      expect(isTradingDay(day, a), date).toBe(false);
      expect(holidayOn(day, a)).toMatch(/^nationalDay/);
      expect(sessionPosition(utc(2025, 10, day - dayOfDate('2025-10-01') + 1, 2), a)).toEqual({
        day: sept30,
        elapsed: 240,
        inSession: false,
      });
    }
  });

  it('knows the Spring Festival 2026 and moves T+1 across it', () => {
    expect(isTradingDay(dayOfDate('2026-02-13'), a)).toBe(true);
    for (const date of ['2026-02-16', '2026-02-20', '2026-02-23'])
      expect(isTradingDay(dayOfDate(date), a)).toBe(false);
    // Bought on Friday 13 February: sellable from the open on Tuesday 24 February.
    expect(nextTradingDayOpen(utc(2026, 2, 13, 2), a)).toBe(utc(2026, 2, 24, 1, 30));
  });

  it('never trades on a make-up working Saturday', () => {
    // 28 September 2025 (Sunday) and 11 October 2025 (Saturday) were working days, not trading days.
    expect(isTradingDay(dayOfDate('2025-09-28'), a)).toBe(false);
    expect(isTradingDay(dayOfDate('2025-10-11'), a)).toBe(false);
  });
});

describe('Hong Kong sessions', () => {
  const hk = REAL_HOURS.hk;

  it('opens and closes at 09:30, 12:00, 13:00 and 16:00 Hong Kong time', () => {
    expectBoundaries(
      hk,
      [utc(2025, 12, 23, 1, 30), utc(2025, 12, 23, 5, 0)],
      [utc(2025, 12, 23, 4, 0), utc(2025, 12, 23, 8, 0)],
    );
  });

  it('trades the morning only on Christmas Eve, running the whole day in it', () => {
    const eve = dayOfDate('2025-12-24');
    expectBoundaries(hk, [utc(2025, 12, 24, 1, 30)], [utc(2025, 12, 24, 4, 0)]);
    expect(sessionPosition(utc(2025, 12, 24, 5, 30), hk)).toEqual({
      day: eve,
      elapsed: 330,
      inSession: false,
    });
    // Half of the 150-minute morning is half of the 330-minute day.
    expect(sessionPosition(utc(2025, 12, 24, 2, 45), hk).elapsed).toBeCloseTo(165, 6);
    expect(dayCloseTime(eve, hk)).toBe(utc(2025, 12, 24, 4, 0));
  });

  it('is shut for Christmas and Boxing Day, and for the Lunar New Year', () => {
    for (const date of ['2025-12-25', '2025-12-26', '2026-02-17', '2026-02-18', '2026-02-19']) {
      expect(isTradingDay(dayOfDate(date), hk), date).toBe(false);
    }
    expect(sessionPosition(utc(2025, 12, 26, 3), hk).day).toBe(dayOfDate('2025-12-24'));
  });
});

describe('New York sessions', () => {
  const us = REAL_HOURS.us;

  it('opens at 09:30 and closes at 16:00 New York time on both sides of daylight saving', () => {
    // Friday 31 October 2025 (EDT, UTC-4) and Monday 3 November 2025 (EST, UTC-5).
    expectBoundaries(
      us,
      [utc(2025, 10, 31, 13, 30), utc(2025, 11, 3, 14, 30)],
      [utc(2025, 10, 31, 20), utc(2025, 11, 3, 21)],
    );
  });

  it('closes for Thanksgiving and at 13:00 the day after', () => {
    expect(isTradingDay(dayOfDate('2025-11-27'), us)).toBe(false);
    expect(holidayOn(dayOfDate('2025-11-27'), us)).toBe('thanksgiving');
    expectBoundaries(us, [utc(2025, 11, 28, 14, 30)], [utc(2025, 11, 28, 18)]);
    expect(sessionPosition(utc(2025, 11, 28, 18), us).elapsed).toBe(sessionMinutes(us));
  });

  it('closed for the national day of mourning on 9 January 2025 and for observed holidays', () => {
    for (const date of ['2025-01-09', '2026-07-03', '2027-06-18', '2027-07-05', '2027-12-24']) {
      expect(isTradingDay(dayOfDate(date), us), date).toBe(false);
    }
    expect(localDay(utc(2025, 1, 9, 15), us.timeZone)).toBe(dayOfDate('2025-01-09'));
    expect(sessionPosition(utc(2025, 1, 9, 15), us).inSession).toBe(false);
  });
});
