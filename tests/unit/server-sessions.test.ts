import { describe, expect, it } from 'vitest';
import {
  ALWAYS_OPEN_HOURS,
  REAL_HOURS,
  localDay,
  nextTradingDayOpen,
  sessionPosition,
  tzOffsetMinutes,
} from '../../server/market/sessions';
import { endOfDay } from '../../server/identity/auth';

const utc = (y: number, mo: number, d: number, h: number, mi = 0) => Date.UTC(y, mo - 1, d, h, mi);

describe('market sessions', () => {
  it('knows the A-share sessions in Shanghai time', () => {
    const a = REAL_HOURS.a;
    // Wednesday 12 March 2025: 10:00, 12:00 (lunch) and 14:00 in Shanghai.
    expect(sessionPosition(utc(2025, 3, 12, 2), a)).toMatchObject({ inSession: true, elapsed: 30 });
    expect(sessionPosition(utc(2025, 3, 12, 4), a)).toMatchObject({ inSession: false, elapsed: 120 });
    expect(sessionPosition(utc(2025, 3, 12, 6), a)).toMatchObject({ inSession: true, elapsed: 180 });
    expect(sessionPosition(utc(2025, 3, 12, 8), a)).toMatchObject({ inSession: false, elapsed: 240 });
  });

  it('is closed at weekends and before the open, showing the last trading day', () => {
    const a = REAL_HOURS.a;
    const friday = localDay(utc(2025, 3, 14, 2), 'Asia/Shanghai');
    expect(sessionPosition(utc(2025, 3, 15, 3), a)).toEqual({ day: friday, elapsed: 240, inSession: false });
    expect(sessionPosition(utc(2025, 3, 17, 1), a)).toEqual({ day: friday, elapsed: 240, inSession: false });
    expect(sessionPosition(utc(2025, 3, 17, 1, 30), a).inSession).toBe(true);
  });

  it('follows New York daylight saving time for US stocks', () => {
    expect(tzOffsetMinutes('America/New_York', utc(2025, 1, 15, 12))).toBe(-300);
    expect(tzOffsetMinutes('America/New_York', utc(2025, 7, 15, 12))).toBe(-240);
    // Friday 7 March 2025 (EST): the open is 14:30 UTC; Monday 10 March (EDT): 13:30 UTC.
    expect(sessionPosition(utc(2025, 3, 7, 14, 29), REAL_HOURS.us).inSession).toBe(false);
    expect(sessionPosition(utc(2025, 3, 7, 14, 30), REAL_HOURS.us).inSession).toBe(true);
    expect(sessionPosition(utc(2025, 3, 10, 13, 30), REAL_HOURS.us).inSession).toBe(true);
    expect(sessionPosition(utc(2025, 3, 10, 20, 0), REAL_HOURS.us).inSession).toBe(false);
  });

  it('has a lunch break in Hong Kong', () => {
    expect(sessionPosition(utc(2025, 3, 12, 3, 59), REAL_HOURS.hk).inSession).toBe(true);
    expect(sessionPosition(utc(2025, 3, 12, 4, 30), REAL_HOURS.hk)).toMatchObject({
      inSession: false,
      elapsed: 150,
    });
    expect(sessionPosition(utc(2025, 3, 12, 5, 0), REAL_HOURS.hk).inSession).toBe(true);
  });

  it('trades around the clock, every day, in always-open mode', () => {
    expect(sessionPosition(utc(2025, 3, 15, 23, 59), ALWAYS_OPEN_HOURS)).toMatchObject({
      inSession: true,
      elapsed: 1439,
    });
  });

  it('makes the next trading day open the T+1 time', () => {
    expect(nextTradingDayOpen(utc(2025, 3, 14, 2), REAL_HOURS.a)).toBe(utc(2025, 3, 17, 1, 30));
    expect(nextTradingDayOpen(utc(2025, 3, 12, 2), REAL_HOURS.a)).toBe(utc(2025, 3, 13, 1, 30));
    expect(nextTradingDayOpen(utc(2025, 3, 15, 23), ALWAYS_OPEN_HOURS)).toBe(utc(2025, 3, 16, 0));
  });

  it('ends the login cookie at midnight in Shanghai', () => {
    expect(endOfDay(utc(2025, 3, 12, 2), 'Asia/Shanghai')).toBe(utc(2025, 3, 12, 16));
    expect(endOfDay(utc(2025, 3, 12, 17), 'Asia/Shanghai')).toBe(utc(2025, 3, 13, 16));
  });
});
