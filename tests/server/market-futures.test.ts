import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bar, FuturesExchange, FuturesQuote, MinuteBars } from '../../src/shared/api/types';
import { FixedClock } from '../../server/market/clock';
import {
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

const utc = (y: number, mo: number, d: number, h: number, mi = 0) => Date.UTC(y, mo - 1, d, h, mi);

function onTick(price: number, tick: number): boolean {
  return Math.abs(price / tick - Math.round(price / tick)) < 1e-6;
}

describe.each(dbTargets)('futures quotes and bars (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  it('lists the exchanges with their products: ten with multipliers, ticks, limits and sessions', async () => {
    const exchanges = data(await client.get<FuturesExchange[]>('/api/futures/queryExchange.do'));
    expect(exchanges.map((e) => e.exchange)).toEqual(['CFFEX', 'SHFE', 'INE', 'DCE', 'CZCE']);
    const products = exchanges.flatMap((e) => e.products);
    expect(products).toHaveLength(10);
    expect(exchanges.find((e) => e.exchange === 'CFFEX')!.products.map((p) => p.code)).toEqual([
      'IF0',
      'IH0',
      'IC0',
      'IM0',
    ]);
    for (const p of products) {
      expect(p.market).toBe('futures');
      expect(p.multiplier).toBeGreaterThan(0);
      expect(onTick(p.price, p.tick)).toBe(true);
      expect(p.limitUp).not.toBeNull();
      expect(p.price).toBeLessThanOrEqual(p.limitUp!);
      expect(p.price).toBeGreaterThanOrEqual(p.limitDown!);
      expect(p.status).toBe('trading'); // always-open
    }
    const ifQuote = products.find((p) => p.code === 'IF0')!;
    expect(ifQuote).toMatchObject({ exchange: 'CFFEX', multiplier: 300, tick: 0.2 });
    // ±10% of the previous close, on the tick.
    expect(ifQuote.limitUp).toBeCloseTo(ifQuote.prevClose * 1.1, 0);
    const one = data(
      await client.get<FuturesExchange[]>('/api/futures/queryExchange.do', { exchange: 'SHFE' }),
    );
    expect(one).toHaveLength(1);
    expect(one[0]!.products.map((p) => p.code)).toEqual(['AU0', 'AG0', 'CU0', 'RB0']);
  });

  it('quotes one product, the same as in its exchange list, and refuses unknown codes and stocks; trades from the index account', async () => {
    const au = data(await client.get<FuturesQuote>('/api/futures/querySingleMarket.do', { code: 'au0' }));
    const listed = data(
      await client.get<FuturesExchange[]>('/api/futures/queryExchange.do', { exchange: 'SHFE' }),
    );
    expect(au).toEqual(listed[0]!.products.find((p) => p.code === 'AU0'));
    expect(au.sessions).toContain('21:00-02:30');
    const unknown = await client.get('/api/futures/querySingleMarket.do', { code: 'ZZ9' });
    expect(failure(unknown)).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect((await client.get('/api/futures/querySingleMarket.do', { code: '600519' })).http).toBe(404);
    const bad = await client.get('/api/futures/queryExchange.do', { exchange: 'LME' });
    expect(bad.http).toBe(400);
    // Futures trade from the index account (DOMAIN.md "Accounts and money"), which a new user has not funded.
    const user = await register(client);
    const buy = await user.client.post('/user/buy.do', {
      code: 'IF0',
      lots: 1,
      leverage: 1,
      direction: 'long',
      requestId: newRequestId(),
    });
    expect(failure(buy).code).toBe('INSUFFICIENT_FUNDS');
  });

  it('gives day bars oldest first and minute bars that end at the current quote', async () => {
    const quote = data(await client.get<FuturesQuote>('/api/futures/querySingleMarket.do', { code: 'IF0' }));
    const days = data(
      await client.get<{ code: string; period: string; bars: Bar[] }>('/api/stock/getFuturesDayK.do', {
        code: 'IF0',
        limit: 60,
      }),
    );
    expect(days.bars).toHaveLength(60);
    for (let i = 1; i < days.bars.length; i++) expect(days.bars[i]![0]).toBeGreaterThan(days.bars[i - 1]![0]);
    for (const [, open, high, low, close] of days.bars) {
      expect(high).toBeGreaterThanOrEqual(Math.max(open, close));
      expect(low).toBeLessThanOrEqual(Math.min(open, close));
      expect(onTick(close, 0.2)).toBe(true);
    }
    expect(days.bars.at(-1)![4]).toBe(quote.price);
    const months = data(
      await client.get<{ bars: Bar[] }>('/api/stock/getFuturesDayK.do', {
        code: 'IF0',
        period: 'month',
        limit: 3,
      }),
    );
    expect(months.bars).toHaveLength(3);
    const minutes = data(
      await client.get<MinuteBars>('/api/stock/getFuturesMinK_Echarts.do', {
        code: 'IF0',
        period: 'intraday',
      }),
    );
    expect(minutes.bars.length).toBeGreaterThan(0);
    expect(minutes.bars.every((b) => b.length === 7)).toBe(true);
    expect(minutes.bars.at(-1)![4]).toBe(quote.price);
  });
});

describe.each(dbTargets)('futures sessions with CLOCK_MODE=real (%s)', (db) => {
  it('trades gold in its night session while stock index futures are closed, and neither at the weekend', async () => {
    // Wednesday 12 March 2025, 21:30 in Shanghai.
    const clock = new FixedClock(utc(2025, 3, 12, 13, 30));
    const station = await startStation({ db, clock, env: { CLOCK_MODE: 'real' } });
    try {
      const client = api(station.url);
      const status = async (code: string) =>
        data(await client.get<FuturesQuote>('/api/futures/querySingleMarket.do', { code })).status;
      expect(await status('AU0')).toBe('trading');
      expect(await status('RB0')).toBe('trading'); // 21:00-23:00
      expect(await status('IF0')).toBe('closed');
      clock.set(utc(2025, 3, 12, 15, 30)); // 23:30: rebar's night session is over, gold's runs to 02:30
      expect(await status('RB0')).toBe('closed');
      expect(await status('AU0')).toBe('trading');
      clock.set(utc(2025, 3, 13, 1, 45)); // Thursday 09:45
      expect(await status('IF0')).toBe('trading');
      expect(await status('AU0')).toBe('trading');
      clock.set(utc(2025, 3, 13, 2, 20)); // 10:20: the commodity break 10:15-10:30
      expect(await status('AU0')).toBe('closed');
      expect(await status('IF0')).toBe('trading');
      clock.set(utc(2025, 3, 15, 6, 0)); // Saturday 14:00
      expect(await status('IF0')).toBe('closed');
      expect(await status('AU0')).toBe('closed');
    } finally {
      await station.close();
    }
  });
});
