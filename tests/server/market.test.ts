import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type {
  Bar,
  DayBars,
  ExchangeRates,
  HaltEntry,
  LimitUpEntry,
  MinuteBars,
  MoveCounts,
  Page,
  Quote,
  StockDetail,
  StockDetailWithBook,
} from '../../src/shared/api/types';
import { DAY_MS } from '../../server/market/sessions';
import { tickFor } from '../../server/market/price-engine';
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
    expect(defaults.list).toHaveLength(15);
    const hkCodes: string[] = [];
    for (let pageNum = 1; hkCodes.length < defaults.total; pageNum++) {
      const page = data(
        await client.get<Page<Quote>>('/api/stock/getStock.do', { market: 'hk', pageNum, pageSize: 100 }),
      );
      expect(page.list.length).toBeGreaterThan(0);
      hkCodes.push(...page.list.map((q) => q.code));
    }
    expect(new Set(hkCodes).size).toBe(defaults.total);
    expect(hkCodes).toEqual(expect.arrayContaining(['00700', '09988', '03690', '01810', '00005', '02318']));
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
      const downValues = down.map((q) => q[field]);
      expect(values).toEqual([...values].sort((a, b) => a - b));
      expect(downValues).toEqual([...downValues].sort((a, b) => b - a));
      // The first page ascending holds the smallest values, descending the largest.
      expect(downValues[0]).toBeGreaterThanOrEqual(values[values.length - 1]!);
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
    expect(await search('a', '600519')).toEqual(['600519']);
    const prefix = await search('a', '6005');
    expect(prefix).toContain('600519');
    expect(prefix.every((code) => code.includes('6005'))).toBe(true);
    expect(await search('a', 'kgzmt')).toEqual([]);
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

  it('gives a 5-level order book around the last price, in ticks and whole lots, the same within a second', async () => {
    for (const code of ['600519', '00700', 'AAPL']) {
      const detail = data(await client.get<StockDetailWithBook>('/api/stock/getSingleStock.do', { code }));
      const { bids, asks } = detail.book;
      expect(bids).toHaveLength(5);
      expect(asks).toHaveLength(5);
      // The last price is the best bid or the best ask.
      expect([bids[0]![0], asks[0]![0]]).toContain(detail.price);
      for (let i = 1; i < 5; i++) {
        expect(bids[i]![0]).toBeLessThan(bids[i - 1]![0]);
        expect(asks[i]![0]).toBeGreaterThan(asks[i - 1]![0]);
      }
      expect(asks[0]![0]).toBeGreaterThan(bids[0]![0]);
      for (const [price, shares] of [...bids, ...asks]) {
        const tick = tickFor(price, code === '00700' ? 'hkex' : 0.01); // Hong Kong: the HKEX spread table
        expect(Math.abs(price / tick - Math.round(price / tick))).toBeLessThan(1e-6);
        expect(shares % detail.lotSize).toBe(0);
        expect(shares).toBeGreaterThan(0);
      }
      const again = data(await client.get<StockDetailWithBook>('/api/stock/getSingleStock.do', { code }));
      expect(again.book).toEqual(detail.book); // the clock is pinned: same second, same book
    }
    station.clock.advance(1000);
    try {
      const first = data(
        await client.get<StockDetailWithBook>('/api/stock/getSingleStock.do', { code: '600519' }),
      );
      const second = data(
        await client.get<StockDetailWithBook>('/api/stock/getSingleStock.do', { code: '600519' }),
      );
      expect(second.book).toEqual(first.book);
    } finally {
      station.clock.set(T0);
    }
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

  it("gives today's intraday minutes with the running average, and five days of 1-60 minute bars", async () => {
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
    // The last five trading days (always-open: every UTC day), oldest first: four whole days, then today.
    const today = Math.floor(T0 / DAY_MS) * DAY_MS;
    expect(five.bars).toHaveLength(4 * 288 + 24);
    five.bars.forEach((bar) => expectWellFormed(bar, 6));
    expect(five.bars[0]![0]).toBe(today - 4 * DAY_MS);
    expect(five.bars.every((b, i) => i === 0 || b[0] - five.bars[i - 1]![0] === 300_000)).toBe(true);
    const fiveToday = five.bars.filter((b) => b[0] >= today);
    expect(fiveToday).toHaveLength(24);
    expect(Math.max(...fiveToday.map((b) => b[2]))).toBe(quote.high);
    expect(Math.min(...fiveToday.map((b) => b[3]))).toBe(quote.low);
    const hourly = data(
      await client.get<MinuteBars>('/api/stock/getMinK_Echarts.do', { code: 'MSFT', period: '60' }),
    );
    expect(hourly.bars).toHaveLength(4 * 24 + 2);
    expect(hourly.bars.filter((b) => b[0] >= today)).toHaveLength(2);
    // A past day's minutes add up to its day bar.
    const days = data(
      await client.get<DayBars>('/api/stock/getDayK.do', { code: 'MSFT', period: 'day', limit: 2 }),
    );
    const yesterday = days.bars[0]!;
    const yesterdayHours = hourly.bars.filter((b) => b[0] >= yesterday[0] && b[0] < today);
    expect(yesterdayHours).toHaveLength(24);
    expect(yesterdayHours[0]![1]).toBe(yesterday[1]);
    expect(Math.max(...yesterdayHours.map((b) => b[2]))).toBe(yesterday[2]);
    expect(Math.min(...yesterdayHours.map((b) => b[3]))).toBe(yesterday[3]);
    expect(yesterdayHours.at(-1)![4]).toBe(yesterday[4]);
    expect(yesterdayHours.reduce((sum, b) => sum + b[5], 0)).toBe(yesterday[5]);
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
      // Nobody offers above the limit: the book has bids only.
      const { book } = data(
        await client.get<StockDetailWithBook>('/api/stock/getSingleStock.do', { code: found!.code }),
      );
      expect(book.asks).toEqual([]);
      expect(book.bids[0]![0]).toBe(detail.limitUp);
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

describe.each(dbTargets)('adjusted history and suspensions over HTTP (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  it('serves forward- and backward-adjusted day bars that invert each other', async () => {
    const bars = async (adjust: string) =>
      data(await client.get<DayBars>('/api/stock/getDayK.do', { code: '600519', adjust, limit: 1000 }));
    const none = await bars('none');
    const forward = await bars('forward');
    const backward = await bars('backward');
    expect([forward.adjust, backward.adjust]).toEqual(['forward', 'backward']);
    expect(forward.bars.map((b) => b[0])).toEqual(none.bars.map((b) => b[0]));
    const total = backward.bars.at(-1)![4] / none.bars.at(-1)![4];
    expect(total).toBeGreaterThan(1); // at least one dividend or bonus issue in the window
    for (let i = 0; i < none.bars.length; i++) {
      expect(backward.bars[i]![4] / forward.bars[i]![4] / total).toBeCloseTo(1, 3);
      expect(forward.bars[i]![5]).toBe(none.bars[i]![5]);
    }
    expect(forward.bars.at(-1)).toEqual(none.bars.at(-1));
    expect(forward.bars.some((b, i) => b[4] !== none.bars[i]![4])).toBe(true);
    expect((await client.get('/api/stock/getDayK.do', { code: '600519', adjust: 'sideways' })).http).toBe(
      400,
    );
  });

  it('shows a suspended stock as suspended, without a bar for the day, and refuses orders for it', async () => {
    const { market } = station.app;
    const today = Math.floor(T0 / DAY_MS);
    let found: { code: string; day: number } | null = null;
    for (const instrument of market.instruments) {
      const series = market.series(instrument);
      for (let day = today - 200; day <= today && !found; day++) {
        if (series.record(day).suspended) found = { code: instrument.code, day };
      }
      if (found) break;
    }
    expect(found, 'some stock is suspended on some day of the last 200').not.toBeNull();
    station.clock.set(found!.day * DAY_MS + 12 * 3_600_000);
    try {
      const detail = data(
        await client.get<StockDetail>('/api/stock/getSingleStock.do', { code: found!.code }),
      );
      expect(detail).toMatchObject({ status: 'suspended', volume: 0, price: detail.prevClose });
      expect(
        data(await client.get<StockDetailWithBook>('/api/stock/getSingleStock.do', { code: found!.code }))
          .book,
      ).toEqual({ bids: [], asks: [] });
      const days = data(await client.get<DayBars>('/api/stock/getDayK.do', { code: found!.code, limit: 5 }));
      expect(days.bars.every((b) => b[0] < found!.day * DAY_MS)).toBe(true);
      const user = await register(client);
      const res = await user.client.post('/user/buy.do', {
        code: found!.code,
        lots: 1,
        leverage: 1,
        requestId: newRequestId(),
      });
      expect(failure(res)).toMatchObject({ status: 409, code: 'SUSPENDED' });
      await station.assertLedger();
    } finally {
      station.clock.set(T0);
    }
  });
});

describe.each(dbTargets)('market breadth and suspensions lists (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  it('counts rising, falling, flat, limit-up, limit-down and suspended stocks, agreeing with the quotes', async () => {
    const counts = data(await client.get<MoveCounts>('/api/stock/getZdfNumber.do', { market: 'a' }));
    const quotes: Quote[] = [];
    for (let pageNum = 1; quotes.length === (pageNum - 1) * 100; pageNum++) {
      const page = data(
        await client.get<Page<Quote>>('/api/stock/getStock.do', { market: 'a', pageNum, pageSize: 100 }),
      );
      quotes.push(...page.list);
      if (page.list.length === 0) break;
    }
    expect(counts.total).toBe(quotes.length);
    expect(counts.rising + counts.falling + counts.flat + counts.suspended).toBe(counts.total);
    expect(counts.rising).toBe(quotes.filter((q) => q.price > q.prevClose).length);
    expect(counts.falling).toBe(quotes.filter((q) => q.price < q.prevClose).length);
    expect(counts.flat + counts.suspended).toBe(quotes.filter((q) => q.price === q.prevClose).length);
    expect(counts.limitUp).toBeLessThanOrEqual(counts.rising);
    expect(counts.limitDown).toBeLessThanOrEqual(counts.falling);
    expect(counts).toMatchObject({ market: 'a', time: T0 });
    expect((await client.get('/api/stock/getZdfNumber.do', {})).http).toBe(400);
    expect((await client.get('/api/stock/getZdfNumber.do', { market: 'moon' })).http).toBe(400);
  });

  it('lists a stock as suspended while it halts and as resumed once it trades again', async () => {
    const { market } = station.app;
    const today = Math.floor(T0 / DAY_MS);
    let found: { code: string; first: number; resumed: number } | null = null;
    for (const instrument of market.instruments.filter((i) => i.market === 'a')) {
      const series = market.series(instrument);
      for (let day = today - 300; day <= today && !found; day++) {
        if (series.record(day).suspended && !series.record(day - 1).suspended) {
          let end = day;
          while (series.record(end).suspended) end++;
          if (end <= today) found = { code: instrument.code, first: day, resumed: end };
        }
      }
      if (found) break;
    }
    expect(found).not.toBeNull();
    const { code, first, resumed } = found!;
    try {
      station.clock.set(first * DAY_MS + 12 * 3_600_000);
      const halted = data(await client.get<HaltEntry[]>('/api/stock/getStop.do', { market: 'a' }));
      const mine = halted.find((h) => h.code === code);
      expect(mine).toMatchObject({ state: 'suspended', since: first * DAY_MS, days: 1 });
      expect(halted.findIndex((h) => h.state === 'resumed')).not.toBe(0);
      const counts = data(await client.get<MoveCounts>('/api/stock/getZdfNumber.do', { market: 'a' }));
      expect(counts.suspended).toBe(halted.filter((h) => h.state === 'suspended').length);
      station.clock.set(resumed * DAY_MS + 12 * 3_600_000);
      const after = data(await client.get<HaltEntry[]>('/api/stock/getStop.do', { market: 'a' }));
      expect(after.find((h) => h.code === code)).toMatchObject({
        state: 'resumed',
        since: resumed * DAY_MS,
        days: resumed - first,
      });
      const detail = data(await client.get<StockDetail>('/api/stock/getSingleStock.do', { code }));
      expect(detail.status).toBe('trading');
      expect((await client.get('/api/stock/getStop.do', { market: 'a', extra: '1' })).http).toBe(400);
    } finally {
      station.clock.set(T0);
    }
  });
});

describe.each(dbTargets)('top lists, limit-up board, prefixed codes and exchange rates (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  it('ranks the top gainers, losers and turnover of a market', async () => {
    const top = async (by: string, limit = 10) =>
      data(await client.get<Quote[]>('/api/stock/getTop.do', { market: 'hk', by, limit }));
    const gainers = await top('gainers');
    const losers = await top('losers', 5);
    const turnover = await top('turnover');
    expect(gainers).toHaveLength(10);
    expect(losers).toHaveLength(5);
    const sorted = data(
      await client.get<Page<Quote>>('/api/stock/getStock.do', {
        market: 'hk',
        sort: '-changePct',
        pageSize: 10,
      }),
    ).list;
    expect(gainers).toEqual(sorted);
    expect(losers.map((q) => q.changePct)).toEqual(losers.map((q) => q.changePct).sort((a, b) => a - b));
    expect(turnover.map((q) => q.turnover)).toEqual(turnover.map((q) => q.turnover).sort((a, b) => b - a));
    expect(gainers[0]!.changePct).toBeGreaterThan(losers[0]!.changePct);
    expect((await client.get('/api/stock/getTop.do', { market: 'hk', limit: 51 })).http).toBe(400);
    expect((await client.get('/api/stock/getTop.do', { market: 'hk', by: 'luck' })).http).toBe(400);
  });

  it('puts stocks at their limit-up on the board, earliest first, and nothing else', async () => {
    const { market } = station.app;
    const today = Math.floor(T0 / DAY_MS);
    // Find a moment when some A-share sits at limit-up, with the station's own market.
    let moment: number | null = null;
    for (const instrument of market.instruments.filter((i) => i.market === 'a')) {
      const series = market.series(instrument);
      for (let day = today - 100; day < today && moment === null; day++) {
        const r = series.record(day);
        if (r.limits && r.close === r.limits.up) moment = day * DAY_MS + DAY_MS - 60_000;
      }
      if (moment !== null) break;
    }
    expect(moment).not.toBeNull();
    station.clock.set(moment!);
    try {
      const board = data(await client.get<LimitUpEntry[]>('/api/stock/getztb.do', { market: 'a' }));
      expect(board.length).toBeGreaterThan(0);
      for (const entry of board) {
        const detail = data(
          await client.get<StockDetail>('/api/stock/getSingleStock.do', { code: entry.code }),
        );
        expect(detail.price).toBe(detail.limitUp);
        expect(entry.price).toBe(detail.limitUp);
        expect(entry.firstReached).toBeGreaterThanOrEqual(Math.floor(moment! / DAY_MS) * DAY_MS);
        expect(entry.firstReached).toBeLessThanOrEqual(moment!);
      }
      expect(board.map((e) => e.firstReached)).toEqual(
        board.map((e) => e.firstReached).sort((a, b) => a - b),
      );
      const counts = data(await client.get<MoveCounts>('/api/stock/getZdfNumber.do', { market: 'a' }));
      expect(counts.limitUp).toBe(board.length);
      expect(data(await client.get<LimitUpEntry[]>('/api/stock/getztb.do', { market: 'us' }))).toEqual([]);
    } finally {
      station.clock.set(T0);
    }
  });

  it('finds a stock by its code with or without the exchange prefix', async () => {
    const byCode = async (code: string) =>
      client.get<StockDetail>('/api/stock/getSingleStockByCode.do', { code });
    expect(data(await byCode('sh600519')).code).toBe('600519');
    expect(data(await byCode('SZ000001')).code).toBe('000001');
    expect(data(await byCode('hk00700')).code).toBe('00700');
    expect(data(await byCode('usAAPL')).code).toBe('AAPL');
    // getSingleStock.do adds the order book to the same detail.
    const single = data(
      await client.get<StockDetailWithBook>('/api/stock/getSingleStock.do', { code: '600519' }),
    );
    expect({ ...data(await byCode('600519')), book: single.book }).toEqual(single);
    expect((await byCode('sz600519')).http).toBe(404);
    expect((await byCode('hkAAPL')).http).toBe(404);
    expect((await byCode('sh 600519')).http).toBe(400);
  });

  it('quotes CNY, HKD and USD with a daily drift, the same all day and within the HKD band', async () => {
    const rate = async () => data(await client.get<ExchangeRates>('/api/site/exchange/rate'));
    const today = await rate();
    expect(today.date).toBe('2025-03-12');
    expect(today.perUsd.USD).toBe(1);
    expect(today.perUsd.CNY).toBeGreaterThan(6);
    expect(today.perUsd.CNY).toBeLessThan(8.5);
    expect(today.perUsd.HKD).toBeGreaterThanOrEqual(7.75);
    expect(today.perUsd.HKD).toBeLessThanOrEqual(7.85);
    expect(today.cnyPer.USD).toBe(today.perUsd.CNY);
    expect(today.cnyPer.HKD).toBeCloseTo(today.perUsd.CNY / today.perUsd.HKD, 6);
    try {
      station.clock.set(T0 + 3_600_000);
      expect((await rate()).perUsd).toEqual(today.perUsd);
      station.clock.set(T0 + DAY_MS);
      const tomorrow = await rate();
      expect(tomorrow.date).toBe('2025-03-13');
      expect(tomorrow.perUsd.CNY).not.toBe(today.perUsd.CNY);
      expect(Math.abs(Math.log(tomorrow.perUsd.CNY / today.perUsd.CNY))).toBeLessThan(0.02);
    } finally {
      station.clock.set(T0);
    }
    expect((await client.get('/api/site/exchange/rate', { currency: 'EUR' })).http).toBe(400);
  });
});

describe.each(dbTargets)('index quotes and bars (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  it('lists the twelve indexes, by region, and quotes one', async () => {
    const all = data(await client.get<Quote[]>('/api/index/queryListIndex.do'));
    expect(all).toHaveLength(12);
    expect(all.every((q) => q.market === 'index' && q.price > 0)).toBe(true);
    const cn = data(await client.get<Quote[]>('/api/index/queryListIndex.do', { region: 'cn' }));
    expect(cn.map((q) => q.code)).toEqual(
      expect.arrayContaining(['SH000001', 'SZ399001', 'SZ399006', 'SH000300']),
    );
    const us = data(await client.get<Quote[]>('/api/index/queryListIndex.do', { region: 'us' }));
    expect(us.map((q) => q.code).sort()).toEqual(['DJI', 'IXIC', 'SPX']);
    const hsi = data(await client.get<Quote>('/api/index/querySingleIndex.do', { code: 'hsi' }));
    expect(hsi).toMatchObject({ code: 'HSI', name: '恒生指数', market: 'index' });
    // One index's quote adds the currency its points are worth (the Hang Seng's: Hong Kong dollars).
    expect(hsi).toEqual({ ...all.find((q) => q.code === 'HSI'), currency: 'HKD' });
    expect((await client.get('/api/index/querySingleIndex.do', { code: '600519' })).http).toBe(404);
    expect((await client.get('/api/index/queryListIndex.do', { region: 'eu' })).http).toBe(400);
  });

  it('gives index day and minute bars that end at the current quote; an index trades from the index account', async () => {
    const quote = data(await client.get<Quote>('/api/index/querySingleIndex.do', { code: 'SH000300' }));
    const days = data(
      await client.get<DayBars>('/api/stock/getIndexDayK.do', { code: 'SH000300', limit: 300 }),
    );
    expect(days.bars).toHaveLength(300);
    days.bars.forEach((b) => expectWellFormed(b, 6));
    expect(days.bars.at(-1)![4]).toBe(quote.price);
    const weeks = data(
      await client.get<DayBars>('/api/stock/getIndexDayK.do', {
        code: 'SH000300',
        period: 'week',
        limit: 10,
      }),
    );
    expect(weeks.bars).toHaveLength(10);
    const minutes = data(
      await client.get<MinuteBars>('/api/stock/getIndexMinK_Echarts.do', {
        code: 'SH000300',
        period: 'intraday',
      }),
    );
    minutes.bars.forEach((b) => expectWellFormed(b, 7));
    expect(minutes.bars.at(-1)![4]).toBe(quote.price);
    // Indexes are not stocks: the stock quote call does not know them.
    expect((await client.get('/api/stock/getSingleStock.do', { code: 'SH000300' })).http).toBe(404);
    const user = await register(client);
    const buy = await user.client.post('/user/buy.do', {
      code: 'SH000300',
      lots: 1,
      leverage: 1,
      direction: 'long',
      requestId: newRequestId(),
    });
    // Index contracts (CFD-style) trade from the index account, which a new user has not funded.
    expect(failure(buy).code).toBe('INSUFFICIENT_FUNDS');
    await station.assertLedger();
  });
});

describe.each(dbTargets)('search across markets and sorted pages (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  it('finds stocks of every market by code, name and pinyin, exact codes first', async () => {
    const find = async (keyword: string, limit?: number) =>
      data(
        await client.get<Quote[]>('/api/realTime/findStock.do', { keyword, ...(limit ? { limit } : {}) }),
      ).map((q) => q.code);
    // 中国平安 trades in Shanghai and Hong Kong: the pinyin finds both.
    expect(await find('zgpa')).toEqual(expect.arrayContaining(['601318', '02318']));
    expect(await find('腾讯控股')).toEqual(['00700']);
    expect(await find('腾讯')).toEqual(['00700', 'TME']);
    expect(await find('apple')).toEqual(['AAPL']);
    expect((await find('600519'))[0]).toBe('600519');
    const many = await find('zg', 5);
    expect(many).toHaveLength(5);
    expect(await find('qqqqqq')).toEqual([]);
    expect((await client.get('/api/realTime/findStock.do', {})).http).toBe(400);
    expect((await client.get('/api/realTime/findStock.do', { keyword: '<script>' })).http).toBe(400);
  });

  it('pages one market sorted by a field in either order', async () => {
    const page = async (field: string, order: string, pageNum = 1) =>
      data(
        await client.get<Page<Quote>>('/api/stock/getStockSort.do', {
          market: 'star',
          field,
          order,
          pageNum,
          pageSize: 20,
        }),
      );
    const desc = await page('turnover', 'desc');
    const asc = await page('turnover', 'asc');
    expect(desc.list.map((q) => q.turnover)).toEqual(desc.list.map((q) => q.turnover).sort((a, b) => b - a));
    expect(asc.list.map((q) => q.turnover)).toEqual(asc.list.map((q) => q.turnover).sort((a, b) => a - b));
    expect(desc.total).toBe(asc.total);
    const second = await page('turnover', 'desc', 2);
    expect(second.list[0]!.turnover).toBeLessThanOrEqual(desc.list.at(-1)!.turnover);
    const defaults = data(await client.get<Page<Quote>>('/api/stock/getStockSort.do', { market: 'star' }));
    expect(defaults.list.map((q) => q.changePct)).toEqual(
      defaults.list.map((q) => q.changePct).sort((a, b) => b - a),
    );
    expect((await client.get('/api/stock/getStockSort.do', { market: 'star', field: 'name' })).http).toBe(
      400,
    );
  });
});
