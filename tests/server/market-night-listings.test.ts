/**
 * Futures night sessions that belong to the next trading day, and new listings inside the simulated history
 * (DOMAIN.md "Markets": no price limit for the first 5 trading days), over HTTP with a pinned clock.
 */
import { describe, expect, it } from 'vitest';
import type {
  Bar,
  DayBars,
  FuturesQuote,
  MinuteBars,
  Page,
  Quote,
  StockDetail,
} from '../../src/shared/api/types';
import { FixedClock } from '../../server/market/clock';
import {
  api,
  data,
  dbTargets,
  failure,
  newRequestId,
  register,
  startStation,
  T0,
  type ApiClient,
} from './helpers/station';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** A Shanghai wall-clock time (UTC+8, no daylight saving) as epoch ms. */
const sh = (y: number, mo: number, d: number, h: number, mi = 0) =>
  Date.UTC(y, mo - 1, d, h, mi) - 8 * HOUR_MS;

/** Reads the stream's first bytes (the retry line and the current second's events), then closes it. */
async function firstEvents(url: string): Promise<string> {
  const controller = new AbortController();
  const res = await fetch(url, { signal: controller.signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let raw = '';
  const deadline = setTimeout(() => controller.abort(), 1500);
  try {
    // The head and the current second's events are written at once; a short wait gathers them.
    while (!raw.includes('\n\nid: ') || !raw.endsWith('\n\n')) {
      const { value, done } = await reader.read();
      if (done) break;
      raw += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  } finally {
    clearTimeout(deadline);
    controller.abort();
  }
  return raw;
}

describe.each(dbTargets)('futures night sessions with CLOCK_MODE=real (%s)', (db) => {
  it('puts the night session into the next trading day around midnight, to its end and over the weekend', async () => {
    const clock = new FixedClock(sh(2025, 3, 12, 23, 59)); // Wednesday 23:59 in Shanghai
    const station = await startStation({ db, clock, env: { CLOCK_MODE: 'real' } });
    try {
      const client = api(station.url);
      const quote = async (code: string) =>
        data(await client.get<FuturesQuote>('/api/futures/querySingleMarket.do', { code }));
      const lastDayBar = async (code: string) =>
        data(await client.get<DayBars>('/api/stock/getFuturesDayK.do', { code, period: 'day', limit: 2 }))
          .bars;
      const intraday = async (code: string) =>
        data(
          await client.get<MinuteBars>('/api/stock/getFuturesMinK_Echarts.do', { code, period: 'intraday' }),
        ).bars;

      // 23:59: gold trades in Thursday's trading day, which began at 21:00 on Wednesday.
      const gold = await quote('AU0');
      expect(gold.status).toBe('trading');
      const [wednesday, thursday] = await lastDayBar('AU0');
      expect(thursday![0]).toBe(sh(2025, 3, 13, 0));
      expect(wednesday![0]).toBe(sh(2025, 3, 12, 0));
      expect(gold.prevClose).toBe(wednesday![4]);
      expect(thursday![4]).toBe(gold.price);
      let bars = await intraday('AU0');
      expect(bars).toHaveLength(179);
      expect(bars[0]![0]).toBe(sh(2025, 3, 12, 21));
      expect(bars.at(-1)![0]).toBe(sh(2025, 3, 12, 23, 58));
      expect(bars.at(-1)![4]).toBe(gold.price);
      // Index futures have no night session: their trading day is still Wednesday, and closed.
      expect((await quote('IF0')).status).toBe('closed');
      expect((await lastDayBar('IF0')).at(-1)![0]).toBe(sh(2025, 3, 12, 0));

      // Midnight and one minute past: the same trading day goes on.
      clock.set(sh(2025, 3, 13, 0, 0));
      expect((await quote('AU0')).status).toBe('trading');
      expect((await lastDayBar('AU0')).at(-1)![0]).toBe(sh(2025, 3, 13, 0));
      expect(await intraday('AU0')).toHaveLength(180);
      clock.set(sh(2025, 3, 13, 0, 1));
      expect((await quote('AU0')).status).toBe('trading');
      bars = await intraday('AU0');
      expect(bars).toHaveLength(181);
      expect(bars.at(-1)![0]).toBe(sh(2025, 3, 13, 0, 0));

      // The night session ends at 02:30 (the last minute trades, the end does not).
      clock.set(sh(2025, 3, 13, 2, 29));
      expect((await quote('AU0')).status).toBe('trading');
      clock.set(sh(2025, 3, 13, 2, 30));
      const ended = await quote('AU0');
      expect(ended.status).toBe('closed');
      bars = await intraday('AU0');
      expect(bars).toHaveLength(330);
      expect(bars.at(-1)![0]).toBe(sh(2025, 3, 13, 2, 29));
      expect(bars.at(-1)![4]).toBe(ended.price);
      // Between the night and the day session the trading day stays Thursday's.
      clock.set(sh(2025, 3, 13, 5, 0));
      expect((await quote('AU0')).price).toBe(ended.price);
      expect((await lastDayBar('AU0')).at(-1)![0]).toBe(sh(2025, 3, 13, 0));
      clock.set(sh(2025, 3, 13, 9, 0));
      expect((await quote('AU0')).status).toBe('trading');

      // Rebar's night session ends at 23:00.
      clock.set(sh(2025, 3, 13, 22, 59));
      expect((await quote('RB0')).status).toBe('trading');
      clock.set(sh(2025, 3, 13, 23, 0));
      expect((await quote('RB0')).status).toBe('closed');

      // Friday night opens Monday's trading day, and runs past midnight into Saturday.
      clock.set(sh(2025, 3, 14, 21, 30));
      expect((await quote('AU0')).status).toBe('trading');
      expect((await lastDayBar('AU0')).map((b) => b[0])).toEqual([sh(2025, 3, 14, 0), sh(2025, 3, 17, 0)]);
      clock.set(sh(2025, 3, 15, 0, 1));
      expect((await quote('AU0')).status).toBe('trading');
      clock.set(sh(2025, 3, 15, 2, 30));
      expect((await quote('AU0')).status).toBe('closed');
      clock.set(sh(2025, 3, 16, 14, 0)); // Sunday
      expect((await quote('AU0')).status).toBe('closed');
      expect((await lastDayBar('AU0')).at(-1)![0]).toBe(sh(2025, 3, 17, 0));
      clock.set(sh(2025, 3, 17, 9, 1)); // Monday
      const monday = await quote('AU0');
      expect(monday.status).toBe('trading');
      bars = await intraday('AU0');
      expect(bars[0]![0]).toBe(sh(2025, 3, 14, 21));
      expect(bars).toHaveLength(331);
      // Five trading days of minutes, in time order, the night sessions in their places.
      const minutes = data(
        await client.get<MinuteBars>('/api/stock/getFuturesMinK_Echarts.do', { code: 'AU0', period: '1' }),
      ).bars;
      expect(minutes.every((b, i) => i === 0 || b[0] > minutes[i - 1]![0])).toBe(true);
      expect(minutes.filter((b) => b[0] >= sh(2025, 3, 14, 21) && b[0] < sh(2025, 3, 15, 3))).toHaveLength(
        330,
      );
      // Tuesday to Thursday whole (555 minutes each, night included), Friday too, and Monday's 331 so far.
      expect(minutes).toHaveLength(4 * 555 + 331);
      expect(minutes[0]![0]).toBe(sh(2025, 3, 10, 21)); // Tuesday's trading day opened Monday night
      await station.assertLedger();
    } finally {
      await station.close();
    }
  });

  it('holds no night session before a holiday, and streams night ticks as futures quotes', async () => {
    // Thursday 3 April 2025: Friday is Qingming, so the next trading day (Monday 7 April) has no night session.
    const clock = new FixedClock(sh(2025, 4, 3, 21, 30));
    const station = await startStation({ db, clock, env: { CLOCK_MODE: 'real' } });
    try {
      const client = api(station.url);
      const status = async (code: string) =>
        data(await client.get<FuturesQuote>('/api/futures/querySingleMarket.do', { code })).status;
      expect(await status('AU0')).toBe('closed');
      clock.set(sh(2025, 4, 4, 0, 30));
      expect(await status('AU0')).toBe('closed');
      clock.set(sh(2025, 4, 7, 9, 0));
      expect(await status('AU0')).toBe('trading');
      clock.set(sh(2025, 4, 7, 15, 0));
      const monday = data(
        await client.get<FuturesQuote>('/api/futures/querySingleMarket.do', { code: 'AU0' }),
      );
      const bars = data(
        await client.get<MinuteBars>('/api/stock/getFuturesMinK_Echarts.do', {
          code: 'AU0',
          period: 'intraday',
        }),
      ).bars;
      // The day sessions only (09:00-10:15, 10:30-11:30, 13:30-15:00), running the whole day's path.
      expect(bars).toHaveLength(225);
      expect(bars[0]![0]).toBe(sh(2025, 4, 7, 9));
      expect(bars.at(-1)![4]).toBe(monday.price);
      const day = data(
        await client.get<DayBars>('/api/stock/getFuturesDayK.do', { code: 'AU0', period: 'day', limit: 1 }),
      ).bars[0]!;
      expect(day[0]).toBe(sh(2025, 4, 7, 0));
      expect(bars.reduce((sum, b) => sum + b[5], 0)).toBe(day[5]);
      // Monday night opens Tuesday's trading day as usual.
      clock.set(sh(2025, 4, 7, 21, 0));
      expect(await status('AU0')).toBe('trading');
      // Tuesday 30 September: the National Day holiday follows, so no night session.
      clock.set(sh(2025, 9, 30, 21, 30));
      expect(await status('AU0')).toBe('closed');

      // The stream carries futures: at Saturday 00:00 gold's night tick belongs to Monday's trading day.
      clock.set(sh(2025, 3, 15, 0, 0));
      const raw = await firstEvents(`${station.url}/api/stream/quotes?codes=AU0,IF0`);
      const events = raw
        .split('\n\n')
        .filter((b) => b.includes('event: quote'))
        .map((b) => JSON.parse(b.slice(b.indexOf('data: ') + 6)) as Quote);
      expect(events.map((q) => [q.code, q.market])).toEqual([['AU0', 'futures']]);
      const live = data(await client.get<FuturesQuote>('/api/futures/querySingleMarket.do', { code: 'AU0' }));
      expect(events[0]!.price).toBe(live.price);
      expect(events[0]!.prevClose).toBe(live.prevClose);
    } finally {
      await station.close();
    }
  });
});

describe.each(dbTargets)('new listings (%s)', (db) => {
  it('hides a stock before its listing day, then trades it without limits for five days', async () => {
    // Always-open mode, pinned at T0 (Wednesday 12 March 2025): 300896 listed on Monday the 10th, 002568
    // lists on Friday the 14th.
    const clock = new FixedClock(T0);
    const station = await startStation({ db, clock });
    try {
      const client: ApiClient = api(station.url);
      const detail = (code: string) => client.get<StockDetail>('/api/stock/getSingleStock.do', { code });
      const dayBars = async (code: string) =>
        data(await client.get<DayBars>('/api/stock/getDayK.do', { code, period: 'day', limit: 800 })).bars;
      const found = async (code: string) =>
        data(await client.get<Quote[]>('/api/realTime/findStock.do', { keyword: code })).map((q) => q.code);
      const listed = async (code: string) =>
        data(await client.get<Page<Quote>>('/api/stock/getStock.do', { market: 'a', keyword: code })).total;

      // Before its listing day: no quote, no bars, not searchable, not in the lists, not tradable.
      expect((await detail('002568')).http).toBe(404);
      expect((await client.get('/api/stock/getDayK.do', { code: '002568' })).http).toBe(404);
      expect((await client.get('/api/stock/getMinK_Echarts.do', { code: '002568', period: '5' })).http).toBe(
        404,
      );
      expect(await found('002568')).toEqual([]);
      expect(await listed('002568')).toBe(0);
      expect((await client.get('/api/stock/getSingleStockByCode.do', { code: 'sz002568' })).http).toBe(404);
      const user = await register(client);
      const buy = await user.client.post('/user/buy.do', {
        code: '002568',
        lots: 1,
        leverage: 1,
        requestId: newRequestId(),
      });
      expect(failure(buy).code).toBe('NOT_FOUND');

      // Listed two days ago: its history starts at the listing, and it has no price limit yet.
      const young = data(await detail('300896'));
      expect([young.limitUp, young.limitDown]).toEqual([null, null]);
      const youngBars = await dayBars('300896');
      expect(youngBars.map((b) => b[0])).toEqual([
        Date.UTC(2025, 2, 10),
        Date.UTC(2025, 2, 11),
        T0 - 2 * HOUR_MS,
      ]);
      const hourly = data(
        await client.get<MinuteBars>('/api/stock/getMinK_Echarts.do', { code: '300896', period: '60' }),
      ).bars;
      expect(hourly[0]![0]).toBe(Date.UTC(2025, 2, 10));
      expect(hourly).toHaveLength(24 + 24 + 2);

      // The listing day's midnight (the simulated market's day is the UTC day in always-open mode).
      clock.set(Date.UTC(2025, 2, 13, 23, 59, 59));
      expect((await detail('002568')).http).toBe(404);
      clock.set(Date.UTC(2025, 2, 14, 0, 0, 0));
      expect(await found('002568')).toEqual(['002568']);
      expect(await listed('002568')).toBe(1);
      clock.set(Date.UTC(2025, 2, 14, 6, 0, 0));
      const first = data(await detail('002568'));
      expect(first.status).toBe('trading');
      expect([first.limitUp, first.limitDown]).toEqual([null, null]);
      expect((await dayBars('002568')).map((b: Bar) => b[0])).toEqual([Date.UTC(2025, 2, 14)]);

      // Five trading days without a limit (14-18 March, every day trades here), then the board's ±10%.
      const { market } = station.app;
      const series = market.series(market.get('002568'));
      const listing = Date.UTC(2025, 2, 14) / DAY_MS;
      for (let day = listing; day < listing + 5; day++) expect(series.record(day).limits).toBeNull();
      clock.set(Date.UTC(2025, 2, 18, 12));
      expect(data(await detail('002568')).limitUp).toBeNull();
      clock.set(Date.UTC(2025, 2, 19, 12));
      const sixth = data(await detail('002568'));
      expect(sixth.limitUp).toBe(Math.round(sixth.prevClose * 1.1 * 100) / 100);
      expect(sixth.limitDown).toBe(Math.round(sixth.prevClose * 0.9 * 100) / 100);
      expect((await dayBars('002568'))[0]![0]).toBe(Date.UTC(2025, 2, 14));
    } finally {
      await station.close();
    }
  });

  it('lists a STAR stock at its listing day in Shanghai, counting five exchange trading days', async () => {
    // 688819 lists on Wednesday 18 June 2025.
    const clock = new FixedClock(sh(2025, 6, 17, 23, 59));
    const station = await startStation({ db, clock, env: { CLOCK_MODE: 'real' } });
    try {
      const client = api(station.url);
      const detail = (code: string) => client.get<StockDetail>('/api/stock/getSingleStock.do', { code });
      expect((await detail('688819')).http).toBe(404);
      clock.set(sh(2025, 6, 18, 0, 0));
      const before = data(await detail('688819'));
      expect(before.status).toBe('closed');
      expect(
        data(await client.get<DayBars>('/api/stock/getDayK.do', { code: '688819', period: 'day' })).bars,
      ).toEqual([]);
      clock.set(sh(2025, 6, 18, 10, 0));
      const first = data(await detail('688819'));
      expect(first.status).toBe('trading');
      expect(first.limitUp).toBeNull();
      const bars = data(
        await client.get<DayBars>('/api/stock/getDayK.do', { code: '688819', period: 'day' }),
      ).bars;
      expect(bars.map((b) => b[0])).toEqual([sh(2025, 6, 18, 0)]);
      // 18, 19, 20, 23 and 24 June are its first five trading days; the weekend does not count.
      clock.set(sh(2025, 6, 24, 14, 0));
      expect(data(await detail('688819')).limitUp).toBeNull();
      clock.set(sh(2025, 6, 25, 10, 0));
      const sixth = data(await detail('688819'));
      expect(sixth.limitUp).toBe(Math.round(sixth.prevClose * 1.2 * 100) / 100);
      expect(
        data(await client.get<Page<Quote>>('/api/stock/getStock.do', { market: 'star', keyword: '688819' }))
          .total,
      ).toBe(1);
    } finally {
      await station.close();
    }
  });
});
