/**
 * The trading calendar's listing (server/market/trading-calendar.ts) on the real exchange calendars at pinned
 * instants: a holiday run read whole with the open after it, half days with their shortened sessions, and
 * every holiday and half-day name a key all five locales translate.
 */
import { describe, expect, it } from 'vitest';
import zhCN from '../../locales/zh-CN';
import zhTW from '../../locales/zh-TW';
import en from '../../locales/en';
import th from '../../locales/th';
import vi from '../../locales/vi';
import { REAL_HOURS, futuresHours, loadCalendar } from '../../server/market/sessions';
import { calendarListing, sessionText } from '../../server/market/trading-calendar';

const HOUR_MS = 3_600_000;
/** A Shanghai or Hong Kong wall-clock time (UTC+8) as epoch ms. */
const sh = (y: number, mo: number, d: number, h: number, mi = 0) =>
  Date.UTC(y, mo - 1, d, h, mi) - 8 * HOUR_MS;
/** A New York wall-clock time in winter (UTC−5). */
const nyWinter = (y: number, mo: number, d: number, h: number, mi = 0) =>
  Date.UTC(y, mo - 1, d, h, mi) + 5 * HOUR_MS;

describe('calendarListing', () => {
  it('lists the A-share National Day week as one run, weekend inside, with the open after it', () => {
    // Friday 19 September 2025, 10:00 in Shanghai.
    const listing = calendarListing(sh(2025, 9, 19, 10), REAL_HOURS.a, 60);
    expect(listing.today).toBe('2025-09-19');
    expect(listing.through).toBe('2025-11-17');
    expect(listing.entries).toEqual([
      {
        kind: 'holiday',
        from: '2025-10-01',
        to: '2025-10-08',
        name: 'nationalDayMidAutumn',
        sessions: [],
        opens: sh(2025, 10, 9, 9, 30),
        provisional: false,
      },
    ]);
  });

  it('reads a run under way today from its first day, and a run crossing the end of the listing whole', () => {
    // The Spring Festival 2026 closes 16–23 February: on Wednesday the 18th it is listed from the 16th.
    const during = calendarListing(sh(2026, 2, 18, 10), REAL_HOURS.a, 30);
    expect(during.entries[0]).toMatchObject({
      from: '2026-02-16',
      to: '2026-02-23',
      name: 'springFestival',
      opens: sh(2026, 2, 24, 9, 30),
    });
    // On Saturday 4 October 2025, a weekend inside the National Day week, the week is listed whole.
    const weekend = calendarListing(sh(2025, 10, 4, 10), REAL_HOURS.a, 30);
    expect(weekend.entries[0]).toMatchObject({ from: '2025-10-01', to: '2025-10-08' });
    // The Saturday after Good Friday is no holiday run: Hong Kong's Easter Monday is a holiday of its own.
    const easter = calendarListing(sh(2025, 4, 19, 10), REAL_HOURS.hk, 5);
    expect(easter.entries[0]).toMatchObject({ from: '2025-04-21', to: '2025-04-21', name: 'easterMonday' });
    // Five days from Thursday 12 February reach the 16th: the run is still shown to the 23rd.
    const before = calendarListing(sh(2026, 2, 12, 10), REAL_HOURS.a, 5);
    expect(before.through).toBe('2026-02-16');
    expect(before.entries).toEqual([expect.objectContaining({ from: '2026-02-16', to: '2026-02-23' })]);
  });

  it('lists the Hong Kong Christmas half days and holidays in order, each with its name', () => {
    const listing = calendarListing(sh(2025, 12, 15, 10), REAL_HOURS.hk, 20);
    expect(listing.entries.map((e) => [e.kind, e.from, e.to, e.name, e.sessions])).toEqual([
      ['halfDay', '2025-12-24', '2025-12-24', 'christmasEve', ['09:30-12:00']],
      ['holiday', '2025-12-25', '2025-12-25', 'christmas', []],
      ['holiday', '2025-12-26', '2025-12-26', 'firstWeekdayAfterChristmas', []],
      ['halfDay', '2025-12-31', '2025-12-31', 'newYearsEve', ['09:30-12:00']],
      ['holiday', '2026-01-01', '2026-01-01', 'newYear', []],
    ]);
    // A half day's open is its own morning; the two Christmas holidays reopen on Monday the 29th.
    expect(listing.entries[0]!.opens).toBe(sh(2025, 12, 24, 9, 30));
    expect(listing.entries[2]!.opens).toBe(sh(2025, 12, 29, 9, 30));
  });

  it("lists the US Thanksgiving holiday and the next day's early close", () => {
    const listing = calendarListing(nyWinter(2025, 11, 20, 12), REAL_HOURS.us, 10);
    expect(listing.entries).toEqual([
      {
        kind: 'holiday',
        from: '2025-11-27',
        to: '2025-11-27',
        name: 'thanksgiving',
        sessions: [],
        opens: nyWinter(2025, 11, 28, 9, 30),
        provisional: false,
      },
      {
        kind: 'halfDay',
        from: '2025-11-28',
        to: '2025-11-28',
        name: 'dayAfterThanksgiving',
        sessions: ['09:30-13:00'],
        opens: nyWinter(2025, 11, 28, 9, 30),
        provisional: false,
      },
    ]);
  });

  it('marks a projected year provisional, and says a night session as the exchange does', () => {
    const listing = calendarListing(sh(2026, 12, 28, 10), REAL_HOURS.a, 10);
    expect(listing.entries[0]).toMatchObject({ from: '2027-01-01', name: 'newYear', provisional: true });
    const gold = futuresHours(['09:00-10:15', '10:30-11:30', '13:30-15:00', '21:00-02:30']);
    expect(gold.sessions.map(sessionText)).toEqual([
      '21:00-02:30',
      '09:00-10:15',
      '10:30-11:30',
      '13:30-15:00',
    ]);
    expect(sessionText([0, 1440])).toBe('00:00-24:00');
  });

  it('names every holiday and half day of every calendar in all five languages', () => {
    const locales = { 'zh-CN': zhCN, 'zh-TW': zhTW, en, th, vi };
    for (const name of ['cn', 'hk', 'us'] as const) {
      const file = loadCalendar(name);
      const keys = new Set([...Object.values(file.holidays), ...Object.values(file.halfDayNames ?? {})]);
      for (const key of keys) {
        for (const [tag, locale] of Object.entries(locales)) {
          const names = locale.stationTexts.holiday as Record<string, string>;
          expect(names[key], `${tag} ${name} ${key}`).toMatch(/\S/);
        }
      }
    }
    // Translated, not copied: the Thai and Vietnamese names differ from the English ones.
    expect(th.stationTexts.holiday.springFestival).not.toBe(en.stationTexts.holiday.springFestival);
    expect(vi.stationTexts.holiday.christmas).not.toBe(en.stationTexts.holiday.christmas);
  });
});
