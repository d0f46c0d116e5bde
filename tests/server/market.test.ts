import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Bar, DayBars, MinuteBars, Page, Quote, StockDetail } from '../../src/shared/api/types';
import { DAY_MS } from '../../server/market/sessions';
import {
  T0,
  api,
  data,
  dbTargets,
  failure,
  newRequestId,
  register,
  startStation,
  type ApiClient,
  type TestStation,
} from './helpers/station';
import type { FixedClock } from '../../server/market/clock';

function expectWellFormed(bar: Bar, width: 6 | 7) {
  expect(bar).toHaveLength(width);
  const [time, open, high, low, close, volume] = bar;
  expect(Number.isInteger(time)).toBe(true);
  expect(high).toBeGreaterThanOrEqual(Math.max(open, close));
  expect(low).toBeLessThanOrEqual(Math.min(open, close));
  expect(low).toBeGreaterThan(0);
  expect(volume).toBeGreaterThanOrEqual(0);
}

describe.each(dbTargets)('market data (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
  });
  afterAll(async () => station?.close());
  afterEach(async () => station.assertLedger());

  it('pages a market list', async () => {
    const all = data(await client.get<Page<Quote>>('/api/stock/getStock.do', { market: 'a', pageSize: 100 }));
    expect(all.total).toBeGreaterThanOrEqual(8);
    expect(all.list.every((q) => q.market === 'a')).toBe(true);
    const page2 = data(
      await client.get<Page<Quote>>('/api/stock/getStock.do', { market: 'a', pageNum: 2, pageSize: 3 }),
    );
    expect(page2).toMatchObject({ pageNum: 2, pageSize: 3, total: all.total });
    expect(page2.list.map((q) => q.code)).toEqual(all.list.slice(3, 6).map((q) => q.code));
    const defaults = data(await client.get<Page<Quote>>('/api/stock/getStock.do', { market: 'hk' }));
    expect(defaults).toMatchObject({ pageNum: 1, pageSize: 15 });
    expect(defaults.list.map((q) => q.code)).toEqual(
      expect.arrayContaining(['00700', '09988', '03690', '01810', '00005', '02318']),
    );
    const beyond = data(
      await client.get<Page<Quote>>('/api/stock/getStock.do', { market: 'us', pageNum: 50 }),
    );
    expect(beyond.list).toEqual([]);
  });

  it('sorts by change, turnover and price in both directions', async () => {
    for (const field of ['changePct', 'turnover', 'price'] as const) {
      const up = data(
        await client.get<Page<Quote>>('/api/stock/getStock.do', { market: 'us', sort: field }),
      ).list;
      const down = data(
        await client.get<Page<Quote>>('/api/stock/getStock.do', { market: 'us', sort: `-${field}` }),
      ).list;
      const values = up.map((q) => q[field]);
      expect(values).toEqual([...values].sort((a, b) => a - b));
      expect(down.map((q) => q[field])).toEqual([...values].sort((a, b) => b - a));
    }
  });

  it('finds stocks by code, Chinese name, English name and pinyin initials', async () => {
    const search = async (market: string, keyword: string) =>
      data(await client.get<Page<Quote>>('/api/stock/getStock.do', { market, keyword })).list.map(
        (q) => q.code,
      );
    expect(await search('a', '茅台')).toEqual(['600519']);
    expect(await search('a', 'gzmt')).toEqual(['600519']);
    expect(await search('a', 'Moutai')).toEqual(['600519']);
    expect(await search('a', '6005')).toEqual(['600519']);
    expect(await search('star', '中芯')).toEqual(['688981']);
    expect(await search('hk', 'tencent')).toEqual(['00700']);
    expect(await search('us', 'AAPL')).toEqual(['AAPL']);
    expect(await search('us', '茅台')).toEqual([]);
  });

  it('details a stock with its limits, lot size, currency, status and T+1', async () => {
    const moutai = data(await client.get<StockDetail>('/api/stock/getSingleStock.do', { code: '600519' }));
    expect(moutai).toMatchObject({
      code: '600519',
      name: '贵州茅台',
      market: 'a',
      lotSize: 100,
      currency: 'CNY',
      status: 'trading',
      tPlus: true,
    });
    expect(moutai.limitUp).toBeCloseTo(Math.round(moutai.prevClose * 1.1 * 100) / 100, 2);
    expect(moutai.limitDown).toBeCloseTo(Math.round(moutai.prevClose * 0.9 * 100) / 100, 2);
    expect(moutai.price).toBeLessThanOrEqual(moutai.limitUp!);
    expect(moutai.change).toBeCloseTo(moutai.price - moutai.prevClose, 2);
    expect(moutai.changePct).toBeCloseTo((moutai.price - moutai.prevClose) / moutai.prevClose, 5);
    expect(moutai.time).toBe(T0);
    const smic = data(await client.get<StockDetail>('/api/stock/getSingleStock.do', { code: '688981' }));
    expect(smic.limitUp).toBeCloseTo(Math.round(smic.prevClose * 1.2 * 100) / 100, 2);
    const xiaomi = data(await client.get<StockDetail>('/api/stock/getSingleStock.do', { code: '01810' }));
    expect(xiaomi).toMatchObject({
      lotSize: 200,
      currency: 'HKD',
      limitUp: null,
      limitDown: null,
      tPlus: false,
    });
    const apple = data(await client.get<StockDetail>('/api/stock/getSingleStock.do', { code: 'aapl' }));
    expect(apple).toMatchObject({ code: 'AAPL', lotSize: 1, currency: 'USD', tPlus: false });
  });

  it('answers NOT_FOUND for an unknown code', async () => {
    const res = await client.withLang('en').get('/api/stock/getSingleStock.do', { code: 'ZZZZ' });
    expect(res.http).toBe(404);
    expect(res.body).toEqual({ status: 404, code: 'NOT_FOUND', msg: 'Not found' });
    expect((await client.get('/api/stock/getDayK.do', { code: '999999' })).http).toBe(404);
    expect((await client.get('/api/stock/getMinK_Echarts.do', { code: '999999' })).http).toBe(404);
  });

  it('gives day bars oldest first, ending with today so far', async () => {
    const quote = data(await client.get<StockDetail>('/api/stock/getSingleStock.do', { code: '600036' }));
    const res = data(
      await client.get<DayBars>('/api/stock/getDayK.do', { code: '600036', period: 'day', limit: 5 }),
    );
    expect(res).toMatchObject({ code: '600036', period: 'day', adjust: 'none' });
    expect(res.bars).toHaveLength(5);
    res.bars.forEach((bar) => expectWellFormed(bar, 6));
    const times = res.bars.map((b) => b[0]);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times.at(-1)).toBe(Math.floor(T0 / DAY_MS) * DAY_MS);
    const today = res.bars.at(-1)!;
    expect(today[4]).toBe(quote.price);
    expect(today[1]).toBe(quote.open);
    expect(res.bars.at(-2)![4]).toBe(quote.prevClose);

    const defaults = data(await client.get<DayBars>('/api/stock/getDayK.do', { code: '600036' }));
    expect(defaults.bars).toHaveLength(120);
    const before = data(
      await client.get<DayBars>('/api/stock/getDayK.do', { code: '600036', before: times[2]!, limit: 10 }),
    );
    expect(before.bars.at(-1)![0]).toBe(times[1]);
    const weeks = data(
      await client.get<DayBars>('/api/stock/getDayK.do', {
        code: '600036',
        period: 'week',
        limit: 4,
        adjust: 'forward',
      }),
    );
    expect(weeks).toMatchObject({ period: 'week', adjust: 'forward' });
    expect(weeks.bars).toHaveLength(4);
    weeks.bars.forEach((bar) => expectWellFormed(bar, 6));
    expect(weeks.bars.at(-1)![4]).toBe(quote.price);
    const months = data(
      await client.get<DayBars>('/api/stock/getDayK.do', { code: '600036', period: 'month', limit: 3 }),
    );
    expect(months.bars.map((b) => new Date(b[0]).getUTCDate())).toEqual([1, 1, 1]);
  });

  it("gives today's minute bars; intraday rows carry the running average price", async () => {
    const quote = data(await client.get<StockDetail>('/api/stock/getSingleStock.do', { code: 'MSFT' }));
    const intraday = data(
      await client.get<MinuteBars>('/api/stock/getMinK_Echarts.do', { code: 'MSFT', period: 'intraday' }),
    );
    // Always-open mode: the day is the UTC day, and the pinned clock is 02:00, so 120 minutes have passed.
    expect(intraday.bars).toHaveLength(120);
    intraday.bars.forEach((bar) => expectWellFormed(bar, 7));
    expect(intraday.bars[0]![0]).toBe(Math.floor(T0 / DAY_MS) * DAY_MS);
    expect(intraday.bars[1]![0] - intraday.bars[0]![0]).toBe(60_000);
    const last = intraday.bars.at(-1)!;
    expect(last[4]).toBe(quote.price);
    expect(last[6]).toBeGreaterThanOrEqual(quote.low);
    expect(last[6]).toBeLessThanOrEqual(quote.high);
    expect(intraday.bars.reduce((sum, b) => sum + b[5], 0)).toBe(quote.volume);
    const five = data(
      await client.get<MinuteBars>('/api/stock/getMinK_Echarts.do', { code: 'MSFT', period: '5' }),
    );
    expect(five.bars).toHaveLength(24);
    five.bars.forEach((bar) => expectWellFormed(bar, 6));
    expect(Math.max(...five.bars.map((b) => b[2]))).toBe(quote.high);
    expect(Math.min(...five.bars.map((b) => b[3]))).toBe(quote.low);
    const hourly = data(
      await client.get<MinuteBars>('/api/stock/getMinK_Echarts.do', { code: 'MSFT', period: '60' }),
    );
    expect(hourly.bars).toHaveLength(2);
  });

  it('refuses to buy at limit-up (PRICE_LIMIT)', async () => {
    // Find, with the station's own market, a minute where an A-share sits at its limit-up.
    const { market } = station.app;
    let found: { code: string; time: number } | null = null;
    const firstDay = Math.floor(T0 / DAY_MS) - 400;
    for (const instrument of market.instruments.filter((i) => i.market === 'a' || i.market === 'star')) {
      const series = market.series(instrument);
      for (let day = firstDay; day <= Math.floor(T0 / DAY_MS) && !found; day++) {
        // Cheap first look at the close; only days closing at the limit get their minutes built.
        if (series.close(day) < Math.round(series.prevClose(day) * 1.1 * 100) / 100 - 0.011) continue;
        const path = series.path(day);
        if (!path.limits) continue;
        // The last index is the close, reached only as the day ends: look for a minute inside the day.
        const k = path.prices.findIndex((p, i) => i < path.prices.length - 1 && p >= path.limits!.up);
        if (k >= 0) found = { code: instrument.code, time: day * DAY_MS + k * 60_000 + 30_000 };
      }
      if (found) break;
    }
    expect(found, 'the seeded market should reach limit-up somewhere in 400 days').not.toBeNull();
    station.clock.set(found!.time);
    try {
      const detail = data(
        await client.get<StockDetail>('/api/stock/getSingleStock.do', { code: found!.code }),
      );
      expect(detail.price).toBe(detail.limitUp);
      const user = await register(client);
      const res = await user.client.post('/user/buy.do', {
        code: found!.code,
        lots: 1,
        leverage: 1,
        requestId: newRequestId(),
      });
      expect(failure(res)).toEqual({ status: 409, code: 'PRICE_LIMIT', msg: '涨停不能买入，跌停不能卖出' });
    } finally {
      station.clock.set(T0);
    }
  });

  it('publishes the OpenAPI document and its page', async () => {
    const doc = (await (await client.raw('/docs/json')).json()) as {
      openapi: string;
      paths: Record<string, unknown>;
    };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/index/ping.do',
        '/api/user/reg.do',
        '/user/buy.do',
        '/user/sell.do',
        '/api/stock/getDayK.do',
        '/user/cash/list.do',
      ]),
    );
    const page = await client.raw('/docs');
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/swagger/i);
  });
});

describe('the seeded market', () => {
  it('gives the same prices for the same seed and other prices for another seed', async () => {
    const a = await startStation({ db: 'sqlite', env: { MARKET_SEED: 'class-7b' } });
    const b = await startStation({ db: 'sqlite', env: { MARKET_SEED: 'class-7b' } });
    const c = await startStation({ db: 'sqlite', env: { MARKET_SEED: 'another' } });
    try {
      const list = async (url: string) =>
        data(await api(url).get<Page<Quote>>('/api/stock/getStock.do', { market: 'us' })).list.map(
          (q) => q.price,
        );
      expect(await list(a.url)).toEqual(await list(b.url));
      expect(await list(a.url)).not.toEqual(await list(c.url));
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });
});
