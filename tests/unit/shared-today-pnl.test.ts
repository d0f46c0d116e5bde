import { describe, expect, it } from 'vitest';
import { todayPnl } from '../../src/shared/pnl';

const base = { shares: 300, openPrice: 10, prevClose: 9.5, price: 10.4 } as const;

describe("today's P&L of an open position", () => {
  it('counts the move since the previous close for a position opened on an earlier day', () => {
    // (10.40 − 9.50) × 300 = ¥270.00.
    expect(todayPnl({ ...base, direction: 'long', openedToday: false })).toBe(27_000);
  });

  it('counts the move since the open price for a position opened today', () => {
    // (10.40 − 10.00) × 300 = ¥120.00: yesterday's move was never the user's.
    expect(todayPnl({ ...base, direction: 'long', openedToday: true })).toBe(12_000);
  });

  it('turns the move the other way round for a short', () => {
    expect(todayPnl({ ...base, direction: 'short', openedToday: false })).toBe(-27_000);
    expect(todayPnl({ ...base, direction: 'short', openedToday: true })).toBe(-12_000);
  });

  it('converts at the settlement rate fixed at the open', () => {
    // An index contract of 50 × multiplier 10 = 500 shares of points, quoted in HKD, booked in CNY at 0.92:
    // (20,100 − 20,000) × 500 × 0.92 = ¥46,000.00.
    const move = { direction: 'long', shares: 500, fxRate: 0.92, openPrice: 19_000 } as const;
    expect(todayPnl({ ...move, prevClose: 20_000, price: 20_100, openedToday: false })).toBe(4_600_000);
  });

  it('is zero when the price has not moved since its starting point', () => {
    expect(todayPnl({ ...base, direction: 'long', price: 10, openedToday: true })).toBe(0);
    expect(todayPnl({ ...base, direction: 'long', price: 9.5, openedToday: false })).toBe(0);
  });
});
