/**
 * What the order form reads before the user starts, over HTTP with a pinned clock: getMarketState.do
 * (DOMAIN.md "Markets, sessions, calendars": open, lunch break, closed, a holiday with its name, and the next
 * open) and whether orders need KYC on this station (getSetting.do, the ORDERS_NEED_KYC the gate enforces).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MarketState, SiteSetting } from '../../src/shared/api/types';
import { FixedClock } from '../../server/market/clock';
import { api, data, failure, startStation, T0, type TestStation } from './helpers/station';

const HOUR_MS = 3_600_000;
/** A Shanghai (and Hong Kong) wall-clock time, UTC+8, as epoch ms. */
const sh = (y: number, mo: number, d: number, h: number, mi = 0) =>
  Date.UTC(y, mo - 1, d, h, mi) - 8 * HOUR_MS;
/** A New York wall-clock time in summer time (UTC−4). */
const ny = (y: number, mo: number, d: number, h: number, mi = 0) =>
  Date.UTC(y, mo - 1, d, h, mi) + 4 * HOUR_MS;

describe('market state with CLOCK_MODE=real', () => {
  let station: TestStation<FixedClock>;
  const clock = new FixedClock(T0);
  const state = async (code: string, at: number) => {
    clock.set(at);
    return data(await api(station.url).get<MarketState>('/api/stock/getMarketState.do', { code }));
  };
  beforeAll(async () => {
    station = await startStation({
      db: 'sqlite',
      clock,
      env: { CLOCK_MODE: 'real', ORDERS_NEED_KYC: 'true' },
    });
  });
  afterAll(() => station.close());

  it('says open, lunch break with the afternoon open, and closed with the next morning open', async () => {
    expect(await state('600519', sh(2025, 3, 12, 10))).toEqual({
      state: 'open',
      holiday: null,
      nextOpen: null,
      timeZone: 'Asia/Shanghai',
    });
    expect(await state('600519', sh(2025, 3, 12, 12))).toMatchObject({
      state: 'lunch',
      nextOpen: sh(2025, 3, 12, 13),
    });
    expect(await state('SH000300', sh(2025, 3, 12, 12))).toMatchObject({ state: 'lunch' });
    expect(await state('600519', sh(2025, 3, 12, 16))).toMatchObject({
      state: 'closed',
      holiday: null,
      nextOpen: sh(2025, 3, 13, 9, 30),
    });
    // Saturday: Monday's open.
    expect(await state('600519', sh(2025, 3, 15, 10))).toMatchObject({
      state: 'closed',
      nextOpen: sh(2025, 3, 17, 9, 30),
    });
  });

  it('names the holiday and gives the first open after it', async () => {
    expect(await state('600519', sh(2025, 1, 29, 10))).toEqual({
      state: 'holiday',
      holiday: '春节',
      nextOpen: sh(2025, 2, 5, 9, 30),
      timeZone: 'Asia/Shanghai',
    });
    // Hong Kong's Christmas Eve is a half day: after its noon close the market is closed, not at lunch,
    // and the next open is after the two Christmas holidays and the weekend.
    expect(await state('00700', sh(2025, 12, 24, 13))).toEqual({
      state: 'closed',
      holiday: null,
      nextOpen: sh(2025, 12, 29, 9, 30),
      timeZone: 'Asia/Hong_Kong',
    });
    expect(await state('00700', sh(2025, 12, 25, 10))).toMatchObject({
      state: 'holiday',
      holiday: '圣诞节',
    });
  });

  it('gives the next open in the exchange zone of a US stock and a night-session future', async () => {
    // 22:00 in New York: tomorrow's 09:30 there.
    expect(await state('AAPL', ny(2025, 3, 11, 22))).toEqual({
      state: 'closed',
      holiday: null,
      nextOpen: ny(2025, 3, 12, 9, 30),
      timeZone: 'America/New_York',
    });
    expect(await state('AAPL', ny(2025, 3, 12, 10))).toMatchObject({ state: 'open' });
    // Gold trades in its night session at 23:00 in Shanghai; an index future does not.
    expect(await state('AU0', sh(2025, 3, 12, 23))).toMatchObject({ state: 'open' });
    expect(await state('IF0', sh(2025, 3, 12, 23))).toMatchObject({
      state: 'closed',
      nextOpen: sh(2025, 3, 13, 9, 30),
    });
  });

  it('says that orders need KYC when the station enforces it', async () => {
    const setting = data(await api(station.url).get<SiteSetting>('/api/admin/getSetting.do'));
    expect(setting.kycRequiredForOrders).toBe(true);
  });

  it('refuses an unknown or malformed code with a clear error', async () => {
    const client = api(station.url);
    const unknown = await client.get('/api/stock/getMarketState.do', { code: 'NOPE99' });
    expect(unknown.http).toBe(404);
    expect(failure(unknown).code).toBe('NOT_FOUND');
    const malformed = await client.get('/api/stock/getMarketState.do', { code: 'a b' });
    expect(malformed.http).toBe(400);
  });
});

describe('market state with CLOCK_MODE=always-open', () => {
  it('is open at any hour, a Sunday night included; orders need no KYC on this station', async () => {
    const station = await startStation({ db: 'sqlite', clock: new FixedClock(sh(2025, 3, 16, 23)) });
    try {
      const answer = data(
        await api(station.url).get<MarketState>('/api/stock/getMarketState.do', { code: '600519' }),
      );
      expect(answer).toMatchObject({ state: 'open', nextOpen: null });
      // ORDERS_NEED_KYC=false (the test stations' setting): the form must not ask for a KYC nobody checks.
      const setting = data(await api(station.url).get<SiteSetting>('/api/admin/getSetting.do'));
      expect(setting.kycRequiredForOrders).toBe(false);
    } finally {
      await station.close();
    }
  });
});
