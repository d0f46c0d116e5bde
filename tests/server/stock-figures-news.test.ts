import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  DayBars,
  Page,
  StockDetail,
  StockFigures,
  StockNewsDetail,
  StockNewsItem,
} from '../../src/shared/api/types';
import type { FixedClock } from '../../server/market/clock';
import { DAY_MS } from '../../server/market/sessions';
import {
  api,
  data,
  dbTargets,
  failure,
  startStation,
  type ApiClient,
  type TestStation,
} from './helpers/station';

describe.each(dbTargets)("A stock's figures and its own news (%s)", (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  const figuresOf = async (code: string) =>
    data(await client.get<StockFigures>('/api/stock/getStockFigures.do', { code }));

  it.each([
    ['600000', 'CNY'],
    ['00700', 'HKD'],
    ['AAPL', 'USD'],
  ])('works out %s figures from its quote, its seeded shares and the K-line', async (code, currency) => {
    const figures = await figuresOf(code);
    const quote = data(await client.get<StockDetail>('/api/stock/getSingleStock.do', { code }));
    expect(figures.code).toBe(code);
    expect(figures.currency).toBe(currency);
    // At the same moment (the clock is pinned): the quote's price and volume.
    expect(figures.price).toBe(quote.price);
    expect(figures.volume).toBe(quote.volume);
    expect(figures.marketCap).toBeCloseTo(quote.price * figures.sharesOutstanding, 2);
    expect(figures.turnoverRate).toBeCloseTo(quote.volume / figures.floatShares, 6);
    expect(figures.floatShares).toBeLessThanOrEqual(figures.sharesOutstanding);
    expect(figures.sharesOutstanding).toBeGreaterThan(1e6);
    if (figures.epsTtm > 0) expect(figures.peTtm).toBeCloseTo(quote.price / figures.epsTtm, 2);
    else expect(figures.peTtm).toBeNull();
    expect(figures.dividendYield).toBeCloseTo(figures.dividendPerShareTtm / quote.price, 6);

    // The 52-week range is the K-line's: the day bars from the window's start.
    const bars = data(await client.get<DayBars>('/api/stock/getDayK.do', { code, limit: 400 })).bars.filter(
      (bar) => bar[0] >= figures.windowStart,
    );
    expect(bars.length).toBeGreaterThan(200);
    expect(figures.windowStart).toBeGreaterThan(station.clock.now() - 365 * DAY_MS);
    expect(figures.high52w).toBe(Math.max(...bars.map((bar) => bar[2])));
    expect(figures.low52w).toBe(Math.min(...bars.map((bar) => bar[3])));
    expect(figures.low52w).toBeLessThanOrEqual(quote.low);
    expect(figures.high52w).toBeGreaterThanOrEqual(quote.high);
  });

  it('changes the figures only through the price: shares and earnings stay, the market cap follows', async () => {
    const before = await figuresOf('600000');
    expect(await figuresOf('600000')).toEqual(before);
    station.clock.advance(90 * 60_000);
    try {
      const later = await figuresOf('600000');
      expect(later.sharesOutstanding).toBe(before.sharesOutstanding);
      expect(later.epsTtm).toBe(before.epsTtm);
      expect(later.volume).toBeGreaterThan(before.volume);
      expect(later.turnoverRate).toBeGreaterThan(before.turnoverRate);
      expect(later.marketCap).toBeCloseTo(later.price * later.sharesOutstanding, 2);
    } finally {
      station.clock.advance(-90 * 60_000);
    }
  });

  it('refuses an index or a futures code with a clear translated error, an unknown one with NOT_FOUND', async () => {
    const en = client.withLang('en');
    for (const code of ['SH000001', 'IF0']) {
      for (const path of ['/api/stock/getStockFigures.do', '/api/stock/getStockNews.do']) {
        const res = await en.get(path, { code });
        expect(res.http).toBe(400);
        expect(failure(res).code).toBe('NOT_A_STOCK');
        expect(failure(res).msg).toMatch(/stocks only/);
      }
    }
    const zh = await client.get('/api/stock/getStockFigures.do', { code: 'SH000001' });
    expect(failure(zh).msg).toMatch(/指数/);
    expect((await client.get('/api/stock/getStockFigures.do', { code: 'ZZZZ99' })).http).toBe(404);
    expect((await client.get('/api/stock/getStockFigures.do', { code: "1' OR 1=1" })).http).toBe(400);
    expect((await client.get('/api/stock/getStockNewsDetail.do', { id: '600000-20250230-close' })).http).toBe(
      404,
    );
    expect((await client.get('/api/stock/getStockNewsDetail.do', { id: '<b>' })).http).toBe(400);
  });

  it("answers a stock's own news only, in the reader's language, agreeing with its bars", async () => {
    const page = data(
      await client.get<Page<StockNewsItem>>('/api/stock/getStockNews.do', { code: '600000', pageSize: 100 }),
    );
    expect(page.total).toBeGreaterThanOrEqual(5);
    expect(page.list.every((item) => item.code === '600000' && item.id.startsWith('600000-'))).toBe(true);
    for (let i = 1; i < page.list.length; i++)
      expect(page.list[i]!.publishedAt).toBeLessThanOrEqual(page.list[i - 1]!.publishedAt);
    const closes = page.list.filter((item) => item.kind === 'close');
    expect(closes).toHaveLength(5);
    expect(page.list.filter((item) => item.kind === 'results')).toHaveLength(1);
    expect(closes[0]!.title).toContain('浦发银行');
    expect(closes[0]!.lang).toBe('zh-CN');
    // The newest report is yesterday's bar (always-open: each UTC day trades; today is not complete).
    const bars = data(await client.get<DayBars>('/api/stock/getDayK.do', { code: '600000', limit: 2 })).bars;
    expect(closes[0]!.summary).toContain(`收于${bars[0]![4].toFixed(2)}元`);

    // Every listed item opens by its id, with the same title (results and ex-dividend items too).
    for (const item of page.list) {
      const one = data(
        await client.get<StockNewsDetail>('/api/stock/getStockNewsDetail.do', { id: item.id }),
      );
      expect(one.title).toBe(item.title);
      expect(one.content.length).toBeGreaterThan(item.summary.length);
    }
    // An item of a kind the day did not have is not there.
    const noResults = closes.find(
      (item) => !page.list.some((o) => o.id === item.id.replace('close', 'results')),
    );
    expect(
      (
        await client.get('/api/stock/getStockNewsDetail.do', {
          id: noResults!.id.replace('close', 'results'),
        })
      ).http,
    ).toBe(404);

    const other = data(
      await client.get<Page<StockNewsItem>>('/api/stock/getStockNews.do', { code: 'AAPL', pageSize: 100 }),
    );
    expect(other.list.length).toBeGreaterThan(0);
    expect(other.list.every((item) => item.code === 'AAPL')).toBe(true);

    const detail = data(
      await client
        .withLang('en')
        .get<StockNewsDetail>('/api/stock/getStockNewsDetail.do', { id: closes[0]!.id }),
    );
    expect(detail.id).toBe(closes[0]!.id);
    expect(detail.lang).toBe('en');
    expect(detail.title).toContain('Shanghai Pudong Development Bank');
    expect(detail.content).toContain(`closed at ${bars[0]![4].toFixed(2)} CNY`);
    for (const lang of ['zh-TW', 'th', 'vi'] as const) {
      const item = data(
        await client.get<StockNewsDetail>('/api/stock/getStockNewsDetail.do', { id: closes[0]!.id, lang }),
      );
      expect(item.lang).toBe(lang);
      expect(item.title).not.toBe(detail.title);
    }
  });
});
