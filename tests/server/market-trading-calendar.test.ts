/**
 * The trading calendar over HTTP with a pinned clock on the real exchange calendars (DOMAIN.md "Markets,
 * sessions, calendars"): getCalendar.do's sessions, today's state and coming holidays named in the
 * request's language; getMarketState.do's holiday in the reader's language; bad input answered with a 400;
 * and the too-many-lots refusal naming the maximum (spec §5).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MarketState, TradingCalendar } from '../../src/shared/api/types';
import { FixedClock } from '../../server/market/clock';
import {
  api,
  data,
  failure,
  newRequestId,
  register,
  startStation,
  type TestStation,
} from './helpers/station';

const HOUR_MS = 3_600_000;
/** A Shanghai or Hong Kong wall-clock time (UTC+8) as epoch ms. */
const sh = (y: number, mo: number, d: number, h: number, mi = 0) =>
  Date.UTC(y, mo - 1, d, h, mi) - 8 * HOUR_MS;

describe('trading calendar with CLOCK_MODE=real', () => {
  let station: TestStation<FixedClock>;
  const clock = new FixedClock(sh(2025, 9, 19, 10));
  const calendar = async (lang: string, query: Record<string, string | number>) =>
    data(await api(station.url).withLang(lang).get<TradingCalendar>('/api/stock/getCalendar.do', query));
  beforeAll(async () => {
    station = await startStation({
      db: 'sqlite',
      clock,
      env: { CLOCK_MODE: 'real', ORDERS_NEED_KYC: 'false' },
    });
  });
  afterAll(() => station.close());

  it('lists the A-share sessions, today open, and the National Day week named in en, th and vi', async () => {
    clock.set(sh(2025, 9, 19, 10));
    const names: Record<string, string> = {
      en: 'National Day and Mid-Autumn Festival',
      th: 'วันชาติจีนและเทศกาลไหว้พระจันทร์',
      vi: 'Quốc khánh Trung Quốc và Tết Trung thu',
    };
    for (const [lang, name] of Object.entries(names)) {
      const answer = await calendar(lang, { market: 'a' });
      expect(answer).toMatchObject({
        market: 'a',
        timeZone: 'Asia/Shanghai',
        today: '2025-09-19',
        through: '2025-11-17',
        holiday: null,
        sessions: [{ codes: [], sessions: ['09:30-11:30', '13:00-15:00'], state: 'open', nextOpen: null }],
      });
      expect(answer.days).toEqual([
        {
          kind: 'holiday',
          from: '2025-10-01',
          to: '2025-10-08',
          name,
          sessions: [],
          opens: sh(2025, 10, 9, 9, 30),
          provisional: false,
        },
      ]);
    }
  });

  it("names today's holiday and the next open, and lists Hong Kong's half days", async () => {
    clock.set(sh(2025, 12, 25, 10));
    const hk = await calendar('en', { market: 'hk', days: 10 });
    expect(hk.holiday).toBe('Christmas Day');
    expect(hk.sessions).toEqual([
      {
        codes: [],
        sessions: ['09:30-12:00', '13:00-16:00'],
        state: 'holiday',
        nextOpen: sh(2025, 12, 29, 9, 30),
      },
    ]);
    expect(hk.days.map((d) => [d.kind, d.from, d.name, d.sessions])).toEqual([
      ['holiday', '2025-12-25', 'Christmas Day', []],
      ['holiday', '2025-12-26', 'The first weekday after Christmas Day', []],
      ['halfDay', '2025-12-31', "New Year's Eve", ['09:30-12:00']],
      ['holiday', '2026-01-01', "New Year's Day", []],
    ]);
    const vi = await calendar('vi', { market: 'hk', days: 10 });
    expect(vi.holiday).toBe('Lễ Giáng sinh');
  });

  it('groups the futures by their sessions, the night session written as the exchange does', async () => {
    clock.set(sh(2025, 3, 12, 23));
    const futures = await calendar('en', { market: 'futures', days: 5 });
    const indexFutures = futures.sessions.find((g) => g.codes.includes('IF0'));
    const gold = futures.sessions.find((g) => g.codes.includes('AU0'));
    expect(indexFutures).toMatchObject({ sessions: ['09:30-11:30', '13:00-15:00'], state: 'closed' });
    expect(indexFutures!.nextOpen).toBe(sh(2025, 3, 13, 9, 30));
    expect(gold).toMatchObject({ state: 'open', nextOpen: null });
    expect(gold!.sessions[0]).toBe('21:00-02:30');
    expect(new Set(futures.sessions.flatMap((g) => g.codes)).size).toBe(
      futures.sessions.reduce((n, g) => n + g.codes.length, 0),
    );
  });

  it('answers bad input with a translated 400, never a 500', async () => {
    const client = api(station.url).withLang('en');
    for (const query of [
      { market: 'mars' },
      { market: 'a', days: 0 },
      { market: 'a', days: 10_000 },
      { market: 'a', days: 'soon' },
      { market: 'a', days: 1.5 },
      {},
    ]) {
      const answer = await client.get('/api/stock/getCalendar.do', query);
      expect(answer.http, JSON.stringify(query)).toBe(400);
      expect(failure(answer).code).toBe('VALIDATION');
      expect(failure(answer).msg).toMatch(/\S/);
    }
  });

  it("says getMarketState.do's holiday in the reader's language", async () => {
    clock.set(sh(2025, 1, 29, 10));
    const state = async (lang: string) =>
      data(
        await api(station.url)
          .withLang(lang)
          .get<MarketState>('/api/stock/getMarketState.do', { code: '600519' }),
      );
    expect(await state('th')).toMatchObject({
      state: 'holiday',
      holiday: 'เทศกาลตรุษจีน',
      nextOpen: sh(2025, 2, 5, 9, 30),
    });
    expect((await state('zh-TW')).holiday).toBe('春節');
    expect((await state('en')).holiday).toBe('Spring Festival');
  });

  it('refuses 101 lots of an A-share with a message that names the maximum of 100', async () => {
    clock.set(sh(2025, 3, 12, 10));
    const user = await register(api(station.url));
    const before = await station.counts();
    const buy = (lang: string) =>
      user.client.withLang(lang).post('/user/buy.do', {
        code: '601398',
        lots: 101,
        leverage: 1,
        requestId: newRequestId(),
      });
    for (const [lang, text] of [
      ['en', 'The quantity cannot exceed the maximum of 100'],
      ['vi', 'Số lượng không được vượt quá mức tối đa 100'],
      ['zh-CN', '数量不能超过最大值 100'],
    ] as const) {
      const refused = await buy(lang);
      expect(refused.http).toBe(400);
      expect(failure(refused)).toMatchObject({ code: 'VALIDATION', fields: { lots: text } });
    }
    expect(await station.counts()).toEqual(before);
  });
});
