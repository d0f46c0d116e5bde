import { describe, expect, it } from 'vitest';
import { localDayNumber, planTick } from '../../src/app/chart/live-bars';
import type { Bar, Quote } from '../../src/shared/api/types';

const TZ = 'Asia/Shanghai';
/** Wednesday 2025-03-12 00:00 in Shanghai (16:00 UTC the day before): the day bar's time. */
const WED = Date.UTC(2025, 2, 11, 16, 0);
const MON = WED - 2 * 86_400_000;

function quote(time: number, price: number, high: number, low: number, volume: number): Quote {
  return {
    code: '600000',
    name: 'x',
    market: 'a',
    price,
    prevClose: 10,
    open: 10.1,
    high,
    low,
    change: price - 10,
    changePct: (price - 10) / 10,
    volume,
    turnover: volume * price,
    time,
  };
}

function rowOf(plan: ReturnType<typeof planTick>, last: Bar | undefined) {
  if (plan.kind !== 'row') throw new Error(`expected a row plan, got ${plan.kind}`);
  return plan.next(last);
}

describe('live bars from streamed quotes', () => {
  it('makes the day so far the last day bar', () => {
    const q = quote(WED + 3_600_000 * 10, 10.4, 10.6, 9.9, 5000);
    const last: Bar = [WED, 10.1, 10.2, 10, 10.2, 1000];
    expect(rowOf(planTick('day', 'none', TZ, undefined, q), last)).toEqual([
      WED,
      10.1,
      10.6,
      9.9,
      10.4,
      5000,
    ]);
    expect(rowOf(planTick('day', 'forward', TZ, undefined, q), last)).toEqual([
      WED,
      10.1,
      10.6,
      9.9,
      10.4,
      5000,
    ]);
  });

  it('asks for the latest bars when a quote starts a new day, and ignores an older day', () => {
    const q = quote(WED + 3_600_000 * 2, 10.4, 10.6, 9.9, 5000);
    const yesterday: Bar = [WED - 86_400_000, 10, 10.2, 9.8, 10, 900];
    expect(rowOf(planTick('day', 'none', TZ, undefined, q), yesterday)).toBe('refresh');
    const tomorrow: Bar = [WED + 86_400_000, 10, 10.2, 9.8, 10, 900];
    expect(rowOf(planTick('day', 'none', TZ, undefined, q), tomorrow)).toBeNull();
    expect(rowOf(planTick('day', 'none', TZ, undefined, q), undefined)).toBe('refresh');
  });

  it('grows the week bar by the volume traded since the previous quote of the same day', () => {
    const week: Bar = [MON, 9.5, 10.3, 9.4, 10.2, 20_000];
    const first = quote(WED + 3_600_000 * 2, 10.2, 10.5, 9.9, 3000);
    // The first quote after a load moves prices only: its volume is already in the loaded bar.
    expect(rowOf(planTick('week', 'none', TZ, undefined, first), week)).toEqual([
      MON,
      9.5,
      10.5,
      9.4,
      10.2,
      20_000,
    ]);
    const second = quote(WED + 3_600_000 * 2 + 60_000, 9.3, 10.5, 9.3, 3400);
    expect(rowOf(planTick('week', 'none', TZ, first, second), week)).toEqual([
      MON,
      9.5,
      10.5, // the week had 10.3; today reached 10.5
      9.3,
      9.3,
      20_400,
    ]);
    // A month bar groups the same way.
    expect(
      rowOf(planTick('month', 'none', TZ, first, second), [MON - 86_400_000 * 9, 9, 11, 9.4, 10, 1]),
    ).toEqual([MON - 86_400_000 * 9, 9, 11, 9.3, 9.3, 401]);
    // Next Monday is a new week.
    const nextWeek = quote(MON + 7 * 86_400_000 + 3_600_000 * 2, 10, 10, 10, 10);
    expect(rowOf(planTick('week', 'none', TZ, second, nextWeek), week)).toBe('refresh');
  });

  it('reads the latest bars for minute periods and backward adjustment, and skips an unchanged quote', () => {
    const a = quote(WED + 3_600_000 * 2, 10.2, 10.5, 9.9, 3000);
    const b = quote(WED + 3_600_000 * 2 + 1000, 10.2, 10.5, 9.9, 3000);
    const c = quote(WED + 3_600_000 * 2 + 60_000, 10.3, 10.5, 9.9, 3100);
    for (const period of ['intraday', '1', '5', '30', '60'] as const) {
      expect(planTick(period, 'none', TZ, a, c).kind).toBe('refresh');
    }
    expect(planTick('day', 'backward', TZ, a, c).kind).toBe('refresh');
    expect(planTick('day', 'none', undefined, a, c).kind).toBe('refresh');
    expect(planTick('day', 'none', TZ, a, b).kind).toBe('none');
    expect(planTick('5', 'none', TZ, a, b).kind).toBe('none');
  });

  it('finds the local day of a time in the market time zone', () => {
    expect(localDayNumber(WED, TZ)).toBe(Date.UTC(2025, 2, 12) / 86_400_000);
    expect(localDayNumber(WED - 1, TZ)).toBe(Date.UTC(2025, 2, 11) / 86_400_000);
    expect(localDayNumber(Date.UTC(2025, 2, 12, 3, 0), 'America/New_York')).toBe(
      Date.UTC(2025, 2, 11) / 86_400_000,
    );
  });
});
