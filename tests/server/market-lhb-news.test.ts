import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DayBars, IndexNews, LhbList, Page } from '../../src/shared/api/types';
import type { FixedClock } from '../../server/market/clock';
import { DAY_MS } from '../../server/market/sessions';
import {
  T0,
  api,
  data,
  dbTargets,
  failure,
  startStation,
  type ApiClient,
  type TestStation,
} from './helpers/station';

describe.each(dbTargets)('Dragon Tiger list and index news (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  it('lists the A-shares that closed 7% or more from the previous close, with ten seats adding up', async () => {
    const lhb = data(await client.get<LhbList>('/api/stock/getlhb.do'));
    // always-open: each UTC day trades; before the day ends the list is yesterday's.
    expect(lhb.date).toBe(new Date(T0 - DAY_MS).toISOString().slice(0, 10));
    expect(lhb.list.length).toBeGreaterThan(0);
    for (const entry of lhb.list) {
      expect(entry.market).toBe('a');
      expect(Math.abs(entry.changePct)).toBeGreaterThanOrEqual(0.07);
      expect(entry.reason).toBe(entry.changePct > 0 ? 'rise' : 'fall');
      expect(entry.buys).toHaveLength(5);
      expect(entry.sells).toHaveLength(5);
      const seats = [...entry.buys, ...entry.sells].map((s) => s.seat);
      expect(new Set(seats).size).toBe(10);
      for (let i = 1; i < 5; i++) {
        expect(entry.buys[i]!.buy).toBeLessThanOrEqual(entry.buys[i - 1]!.buy);
        expect(entry.sells[i]!.sell).toBeLessThanOrEqual(entry.sells[i - 1]!.sell);
      }
      const sum = [...entry.buys, ...entry.sells].reduce((s, x) => s + x.buy - x.sell, 0);
      expect(entry.net).toBeCloseTo(sum, 1);
      const traded = [...entry.buys, ...entry.sells].reduce((s, x) => s + x.buy + x.sell, 0);
      expect(traded).toBeLessThan(entry.turnover);
    }
    for (let i = 1; i < lhb.list.length; i++) {
      expect(Math.abs(lhb.list[i]!.changePct)).toBeLessThanOrEqual(Math.abs(lhb.list[i - 1]!.changePct));
    }
    // The entry agrees with the stock's day bar of that date.
    const first = lhb.list[0]!;
    const bars = data(await client.get<DayBars>('/api/stock/getDayK.do', { code: first.code, limit: 2 }));
    expect(bars.bars[0]![4]).toBe(first.close);
    // The same seed and day give the same seats and amounts.
    expect(data(await client.get<LhbList>('/api/stock/getlhb.do', { market: 'a' }))).toEqual(lhb);
    const star = data(await client.get<LhbList>('/api/stock/getlhb.do', { market: 'star' }));
    expect(star.list.every((e) => e.market === 'star' && Math.abs(e.changePct) >= 0.07)).toBe(true);
    expect((await client.get('/api/stock/getlhb.do', { market: 'hk' })).http).toBe(400);
  });

  it('moves the list to the next day once the day is complete', async () => {
    const before = data(await client.get<LhbList>('/api/stock/getlhb.do'));
    station.clock.set((Math.floor(T0 / DAY_MS) + 1) * DAY_MS + 3_600_000);
    try {
      const next = data(await client.get<LhbList>('/api/stock/getlhb.do'));
      expect(next.date).toBe(new Date(T0).toISOString().slice(0, 10));
      expect(next).not.toEqual(before);
    } finally {
      station.clock.set(T0);
    }
  });

  it("reports each index's last ten complete days, newest first, agreeing with its day bars", async () => {
    const news = data(
      await client.get<Page<IndexNews>>('/api/index/queryIndexNews.do', { code: 'SH000001', pageSize: 20 }),
    );
    expect(news.total).toBe(10);
    expect(news.list).toHaveLength(10);
    for (let i = 1; i < news.list.length; i++)
      expect(news.list[i]!.time).toBeLessThan(news.list[i - 1]!.time);
    const bars = data(
      await client.get<DayBars>('/api/stock/getIndexDayK.do', { code: 'SH000001', limit: 11 }),
    );
    // The bars end with today so far; the news covers the ten complete days before it.
    const complete = bars.bars.slice(0, 10).reverse();
    news.list.forEach((item, i) => {
      expect(item.close).toBe(complete[i]![4]);
      expect(item.code).toBe('SH000001');
      expect(item.title).toContain('上证指数');
      expect(item.title).toContain(item.close.toFixed(2));
      expect(item.titleEn).toContain(item.close.toFixed(2));
      expect(item.summary).toContain(item.id.slice(-10));
    });
    const cn = data(
      await client.get<Page<IndexNews>>('/api/index/queryIndexNews.do', { region: 'cn', pageSize: 100 }),
    );
    expect(cn.list.length).toBeGreaterThan(10);
    const page2 = data(
      await client.get<Page<IndexNews>>('/api/index/queryIndexNews.do', {
        region: 'cn',
        pageNum: 2,
        pageSize: 5,
      }),
    );
    expect(page2.list.map((n) => n.id)).toEqual(cn.list.slice(5, 10).map((n) => n.id));
    const unknown = await client.get('/api/index/queryIndexNews.do', { code: 'NOPE1' });
    expect(failure(unknown)).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});
