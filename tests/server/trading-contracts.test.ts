/**
 * Index (CFD-style) and futures trading, long and short, and short stocks behind the setting,
 * over HTTP with a pinned clock. Fees, margins and liquidation prices are computed here from DOMAIN.md's
 * rules, independently of the station's code.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type {
  Account,
  ExchangeRates,
  FuturesQuote,
  LedgerEntry,
  Page,
  Position,
  Quote,
  StockDetail,
  User,
} from '../../src/shared/api/types';
import { FixedClock } from '../../server/market/clock';
import { elapsedToUtc } from '../../server/market/sessions';
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
  type Registered,
  type TestStation,
} from './helpers/station';

const HOUR = 3_600_000;
const DAY = 86_400_000;
/**
 * DOMAIN.md "Fees": index CFDs 0.0023% of the contract value both sides; futures per product, CFFEX index
 * futures 0.0023% to open or close an older position and 0.023% to close one opened today (contractFee).
 */
/** DOMAIN.md "Leverage, margin and liquidation": the default liquidation line. */
const LINE = 1.05;
const INDEX_START = 2_000_000;

/** Major units to fen, exactly as a person would: round half up at the third decimal. */
const fen = (major: number) => Math.round(Number((major * 100).toFixed(6)));
/** A rate per 10⁹ on fen, rounded half up in exact integer arithmetic (default 0.0023% = 23,000 per 10⁹). */
const contractFee = (valueFen: number, perBillion = 23_000) =>
  Math.floor((valueFen * perBillion + 500_000_000) / 1_000_000_000);
const onTick = (price: number, tick: number) => Number((Math.round(price / tick) * tick).toFixed(6));

async function account(user: Registered, type: Account['type']): Promise<Account> {
  return data(await user.client.get<User>('/user/getUserInfo.do')).accounts.find((a) => a.type === type)!;
}

async function flow(user: Registered, type: Account['type'], pageSize = 10): Promise<LedgerEntry[]> {
  return data(await user.client.get<Page<LedgerEntry>>('/user/cash/list.do', { account: type, pageSize }))
    .list;
}

async function futuresPrice(client: ApiClient, code: string): Promise<FuturesQuote> {
  return data(await client.get<FuturesQuote>('/api/futures/querySingleMarket.do', { code }));
}

async function indexPrice(client: ApiClient, code: string): Promise<number> {
  return data(await client.get<Quote>('/api/index/querySingleIndex.do', { code })).price;
}

describe.each(dbTargets)('index and futures trading (%s, always-open)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    // The index account starts empty by default (DOMAIN.md); fund it for these tests.
    station.config.settings.startingBalances.index = INDEX_START;
    client = api(station.url);
  });
  afterAll(async () => station?.close());
  afterEach(async () => {
    await station.assertLedger();
    station.clock.set(T0);
    station.config.settings.shortStocks = false;
    station.config.settings.fees.index.min = 0;
  });

  it('opens a long index CFD: contracts × multiplier, margin = value ÷ leverage, the fee to the cent', async () => {
    const user = await register(client);
    const price = await indexPrice(client, 'SH000300');
    const bought = data(
      await user.client.post<Position>('/user/buyIndex.do', {
        code: 'sh000300',
        lots: 2,
        leverage: 10,
        direction: 'long',
        requestId: newRequestId(),
      }),
    );
    // CSI 300 trades at 300 yuan per point (the IF multiplier).
    expect(bought).toMatchObject({
      code: 'SH000300',
      market: 'index',
      direction: 'long',
      lots: 2,
      shares: 600,
      leverage: 10,
      openPrice: price,
      sellableFrom: bought.openedAt,
    });
    const value = fen(price * 600);
    expect(fen(bought.margin)).toBe(Math.ceil(value / 10));
    expect(fen(bought.buyFee)).toBe(contractFee(value));
    expect(fen(bought.marketValue)).toBe(value);
    // Long liquidation: the account's R = (available cash + price × shares) ÷ borrowed reaches 1.05.
    const borrowed = value - Math.ceil(value / 10);
    const index = await account(user, 'index');
    const cash = fen(index.available);
    expect(bought.liquidationPrice).toBe(onTick((LINE * borrowed - cash) / 100 / 600, 0.01));

    expect(fen(index.balance)).toBe(fen(INDEX_START) - Math.ceil(value / 10) - contractFee(value));
    expect(index.frozenMargin).toBe(bought.margin);
    // positionPnl is net of the buy fee, which has left the balance already.
    expect(fen(index.totalAssets)).toBe(
      fen(index.balance) + fen(index.frozenMargin) + fen(index.positionPnl) + contractFee(value),
    );
    expect((await account(user, 'main')).balance).toBe(1_000_000);
    expect((await flow(user, 'index')).map((e) => [e.type, fen(e.amount)])).toEqual([
      ['buy_fee', -contractFee(value)],
      ['buy', -Math.ceil(value / 10)],
      ['opening_balance', fen(INDEX_START)],
    ]);

    station.clock.advance(3 * HOUR);
    const close = await indexPrice(client, 'SH000300');
    const before = fen((await account(user, 'index')).balance);
    const sold = data(
      await user.client.post<Position>('/user/sell.do', { positionId: bought.id, requestId: newRequestId() }),
    );
    const closeValue = fen(close * 600);
    expect(sold).toMatchObject({ closePrice: close, closeReason: 'user', stampDuty: 0 });
    expect(fen(sold.pricePnl)).toBe(closeValue - value);
    expect(fen(sold.sellFee)).toBe(contractFee(closeValue));
    const after = fen((await account(user, 'index')).balance);
    expect(after - before).toBe(Math.ceil(value / 10) + closeValue - value - contractFee(closeValue));
  });

  it("books a Hong Kong index in HK dollars settled in yuan at the day's rate, fixed for the position", async () => {
    const user = await register(client);
    const rates = data(await client.get<ExchangeRates>('/api/site/exchange/rate'));
    // HK$50 a point of the Hang Seng (DOMAIN.md "Markets"), at the day's mid rate to 6 decimals.
    const rate = Number((rates.cnyPer.HKD / rates.cnyPer.CNY).toFixed(6));
    expect(rate).not.toBe(1);
    const quote = data(
      await client.get<Quote & { currency: string }>('/api/index/querySingleIndex.do', { code: 'HSI' }),
    );
    expect(quote.currency).toBe('HKD');
    const bought = data(
      await user.client.post<Position>('/user/buyIndex.do', {
        code: 'HSI',
        lots: 3,
        leverage: 20,
        direction: 'long',
        requestId: newRequestId(),
      }),
    );
    expect(bought).toMatchObject({
      code: 'HSI',
      shares: 150,
      currency: 'CNY',
      fxRate: rate,
      openPrice: quote.price,
    });
    const value = fen(quote.price * 150 * rate);
    expect(fen(bought.marketValue)).toBe(value);
    expect(fen(bought.margin)).toBe(Math.ceil(value / 20));
    expect(fen(bought.buyFee)).toBe(contractFee(value));
    // The account-wide liquidation price in index points: (L·borrowed − cash) ÷ (150 × rate).
    const cash = fen((await account(user, 'index')).available);
    const borrowed = value - Math.ceil(value / 20);
    expect(bought.liquidationPrice).toBe(onTick((LINE * borrowed - cash) / 100 / (150 * rate), 0.01));

    // A day later the rate has moved; the position still settles at its opening rate.
    station.clock.advance(DAY + 2 * HOUR);
    const later = data(await client.get<ExchangeRates>('/api/site/exchange/rate'));
    expect(later.date).not.toBe(rates.date);
    const close = await indexPrice(client, 'HSI');
    const sold = data(
      await user.client.post<Position>('/user/sell.do', { positionId: bought.id, requestId: newRequestId() }),
    );
    const closeValue = fen(close * 150 * rate);
    expect(fen(sold.marketValue)).toBe(closeValue);
    expect(fen(sold.pricePnl)).toBe(closeValue - value);
    expect(fen(sold.sellFee)).toBe(contractFee(closeValue));
  });

  it('opens and closes a short future: pnl = (open − close) × contracts × multiplier, fees both sides (close today ×10)', async () => {
    const user = await register(client);
    const quote = await futuresPrice(client, 'IF0');
    const sold = data(
      await user.client.post<Position>('/user/buyFutures.do', {
        code: 'IF0',
        lots: 3,
        leverage: 5,
        direction: 'short',
        requestId: newRequestId(),
      }),
    );
    expect(quote.multiplier).toBe(300);
    expect(sold).toMatchObject({ market: 'futures', direction: 'short', lots: 3, shares: 900 });
    const value = fen(quote.price * 900);
    const margin = Math.ceil(value / 5);
    expect(fen(sold.margin)).toBe(margin);
    expect(fen(sold.buyFee)).toBe(contractFee(value));
    // Short liquidation: the account's R = (available cash + open value + margin) ÷ (price × shares)
    // reaches 1.05, on the contract's 0.2 tick.
    const cash = fen((await account(user, 'index')).available);
    expect(sold.liquidationPrice).toBe(onTick((cash + value + margin) / 100 / (LINE * 900), 0.2));
    expect(sold.liquidationPrice!).toBeGreaterThan(quote.price);

    // Move on until the price has moved, then value the short and close it.
    let later = quote.price;
    for (let i = 0; i < 48 && later === quote.price; i++) {
      station.clock.advance(HOUR / 2);
      later = (await futuresPrice(client, 'IF0')).price;
    }
    expect(later).not.toBe(quote.price);
    const [open] = data(
      await user.client.get<Page<Position>>('/user/position/list.do', { state: 'open', market: 'futures' }),
    ).list;
    expect(fen(open!.pricePnl)).toBe(value - fen(later * 900));
    expect(open!.yield).toBeCloseTo(open!.pnl / open!.margin, 5);
    expect(fen(open!.marketValue)).toBe(fen(later * 900));
    const index = await account(user, 'index');
    expect(index.positionPnl).toBe(open!.pnl);
    expect(fen(index.totalAssets)).toBe(fen(index.balance) + margin + fen(open!.pricePnl));

    const before = fen(index.balance);
    const closed = data(
      await user.client.post<Position>('/user/sell.do', { positionId: sold.id, requestId: newRequestId() }),
    );
    const closeValue = fen(later * 900);
    expect(fen(closed.pricePnl)).toBe(value - closeValue);
    // Closed the (always-open, UTC) day it was opened: CFFEX's close-today fee, 0.023% = 230,000 per 10⁹.
    expect(Math.floor(station.clock.now() / DAY)).toBe(Math.floor(T0 / DAY));
    const closeFee = contractFee(closeValue, 230_000);
    expect(fen(closed.sellFee)).toBe(closeFee);
    expect(fen((await account(user, 'index')).balance) - before).toBe(
      margin + (value - closeValue) - closeFee,
    );
    const entries = await flow(user, 'index', 2);
    expect(entries.map((e) => [e.type, fen(e.amount)])).toEqual([
      ['sell_fee', -closeFee],
      ['sell', margin + value - closeValue],
    ]);
  });

  it('closes part of a futures position: contracts split, the rest stays open', async () => {
    const user = await register(client);
    const bought = data(
      await user.client.post<Position>('/user/buy.do', {
        code: 'AU0',
        lots: 4,
        leverage: 8,
        direction: 'long',
        requestId: newRequestId(),
      }),
    );
    expect(bought).toMatchObject({ market: 'futures', lots: 4, shares: 4000 });
    const rest = data(
      await user.client.post<Position>('/user/sell.do', {
        positionId: bought.id,
        lots: 1,
        requestId: newRequestId(),
      }),
    );
    expect(rest).toMatchObject({ id: bought.id, lots: 3, shares: 3000, closedAt: null });
    const closed = data(await user.client.get<Page<Position>>('/user/position/list.do', { state: 'closed' }));
    expect(closed.list[0]).toMatchObject({ lots: 1, shares: 1000, market: 'futures' });
    expect(fen(closed.list[0]!.margin) + fen(rest.margin)).toBe(fen(bought.margin));
  });

  it('takes the contract fee minimum when the setting has one', async () => {
    station.config.settings.fees.index.min = 50;
    const user = await register(client);
    const price = await indexPrice(client, 'SH000688');
    const bought = data(
      await user.client.post<Position>('/user/buyIndex.do', {
        code: 'SH000688',
        lots: 1,
        leverage: 1,
        direction: 'long',
        requestId: newRequestId(),
      }),
    );
    // STAR 50 has no futures multiplier of its own: the default 100 yuan per point.
    expect(bought.shares).toBe(100);
    const value = fen(price * 100);
    expect(contractFee(value)).toBeLessThan(5000);
    expect(bought.buyFee).toBe(50);
    expect(bought.liquidationPrice).toBeNull(); // nothing borrowed
  });

  it('routes codes to their calls: buyIndex.do only indexes, buyFutures.do only futures, buy.do any', async () => {
    const user = await register(client);
    const body = { lots: 1, leverage: 2, direction: 'long' };
    for (const [path, code] of [
      ['/user/buyIndex.do', 'IF0'],
      ['/user/buyIndex.do', '600519'],
      ['/user/buyFutures.do', 'SH000300'],
      ['/user/buyFutures.do', 'AAPL'],
      ['/user/buyFutures.do', 'NOPE'],
    ] as const) {
      const res = await user.client.post(path, { ...body, code, requestId: newRequestId() });
      expect(failure(res)).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    }
    const viaBuy = data(
      await user.client.post<Position>('/user/buy.do', {
        code: 'HSI',
        lots: 1,
        leverage: 20,
        direction: 'short',
        requestId: newRequestId(),
      }),
    );
    expect(viaBuy).toMatchObject({ market: 'index', direction: 'short', shares: 50, leverage: 20 });
  });

  it('checks leverage, contracts per order and direction', async () => {
    const user = await register(client);
    const ask = (path: string, extra: Record<string, unknown>) =>
      user.client.post(path, {
        code: 'IF0',
        lots: 1,
        leverage: 5,
        direction: 'long',
        requestId: newRequestId(),
        ...extra,
      });
    const before = await station.counts();
    expect(failure(await ask('/user/buyFutures.do', { leverage: 25 })).fields).toEqual({
      leverage: '格式不正确',
    });
    expect(failure(await ask('/user/buyFutures.do', { leverage: 4 })).fields).toEqual({
      leverage: '格式不正确',
    });
    expect(failure(await ask('/user/buyFutures.do', { lots: 21 })).fields).toEqual({
      lots: '数量不能超过最大值 20',
    });
    expect(failure(await ask('/user/buyFutures.do', { lots: 0 })).fields).toEqual({
      lots: '数量不能小于1',
    });
    expect(failure(await ask('/user/buyFutures.do', { lots: 1.5 })).fields).toEqual({
      lots: '数量必须是整数',
    });
    expect(failure(await ask('/user/buyIndex.do', { code: 'SH000001', lots: 51 })).fields).toEqual({
      lots: '数量不能超过最大值 50',
    });
    expect(failure(await ask('/user/buyFutures.do', { direction: 'sideways' })).fields).toEqual({
      direction: '格式不正确',
    });
    expect(failure(await ask('/user/buyFutures.do', { direction: undefined })).fields).toEqual({
      direction: '此项为必填项',
    });
    expect(await station.counts()).toEqual(before);
    // 20 contracts of rebar at 12× are fine (its 7% margin allows up to 14×).
    data(await ask('/user/buyFutures.do', { code: 'RB0', lots: 20, leverage: 12 }));
  });

  it('wants stops on the right side of the price for the direction', async () => {
    const user = await register(client);
    const { price } = await futuresPrice(client, 'IF0');
    const ask = (direction: string, stops: Record<string, number>) =>
      user.client.withLang('en').post('/user/buyFutures.do', {
        code: 'IF0',
        lots: 1,
        leverage: 8,
        direction,
        requestId: newRequestId(),
        ...stops,
      });
    const longWrong = failure(await ask('long', { stopProfit: price - 10, stopLoss: price - 20 }));
    expect(longWrong).toMatchObject({
      status: 400,
      code: 'VALIDATION',
      msg: 'For a long position the stop profit must be above the current price and the stop loss below it',
      fields: { stopProfit: 'The format is not valid' },
    });
    const shortWrong = failure(await ask('short', { stopProfit: price + 10, stopLoss: price + 20 }));
    expect(shortWrong).toMatchObject({
      code: 'VALIDATION',
      msg: 'For a short position the stop profit must be below the current price and the stop loss above it',
      fields: { stopProfit: 'The format is not valid' },
    });
    const shortLoss = failure(await ask('short', { stopLoss: price - 10 }));
    expect(Object.keys(shortLoss.fields!)).toEqual(['stopLoss']);
    const zh = failure(
      await user.client.post('/user/buyFutures.do', {
        code: 'IF0',
        lots: 1,
        leverage: 8,
        direction: 'short',
        stopLoss: price - 10,
        requestId: newRequestId(),
      }),
    );
    expect(zh.msg).toBe('做空时止盈价须低于现价，止损价须高于现价');
    const ok = data(await ask('short', { stopProfit: price - 50, stopLoss: price + 50 })) as Position;
    expect(ok).toMatchObject({ direction: 'short', stopProfit: price - 50, stopLoss: price + 50 });
  });

  it('refuses short stocks by default and opens them when the setting allows (US fees to the cent)', async () => {
    const user = await register(client);
    const refused = failure(
      await user.client.post('/user/buy.do', {
        code: 'AAPL',
        lots: 10,
        leverage: 1,
        direction: 'short',
        requestId: newRequestId(),
      }),
    );
    expect(refused).toMatchObject({
      status: 400,
      code: 'VALIDATION',
      msg: '该品种不支持做空',
      fields: { direction: '格式不正确' },
    });

    station.config.settings.shortStocks = true;
    const open = data(await client.get<StockDetail>('/api/stock/getSingleStock.do', { code: 'AAPL' }));
    const shorted = data(
      await user.client.post<Position>('/user/buy.do', {
        code: 'AAPL',
        lots: 300,
        leverage: 2,
        direction: 'short',
        requestId: newRequestId(),
      }),
    );
    expect(shorted).toMatchObject({ market: 'us', direction: 'short', shares: 300 });
    const value = fen(open.price * 300);
    // The short opens with a sale, which owes the sale's fees: commission $0.005 × 300 = $1.50 (minimum
    // $1) + FINRA TAF 300 × $0.000166 = $0.0498 → rounded up to $0.05.
    expect(shorted.buyFee).toBe(1.55);
    station.clock.advance(2 * HOUR);
    const close = data(await client.get<StockDetail>('/api/stock/getSingleStock.do', { code: 'AAPL' })).price;
    const before = fen((await account(user, 'us')).balance);
    const covered = data(
      await user.client.post<Position>('/user/sell.do', {
        positionId: shorted.id,
        requestId: newRequestId(),
      }),
    );
    const closeValue = fen(close * 300);
    expect(fen(covered.pricePnl)).toBe(value - closeValue);
    // The buy-back is a purchase: the commission $1.50 only, no TAF again.
    expect(covered.sellFee).toBe(1.5);
    expect(fen((await account(user, 'us')).balance) - before).toBe(
      Math.ceil(value / 2) + value - closeValue - 150,
    );
  });

  it('checks the available funds (balance − frozen), not the balance, with the account locked', async () => {
    const user = await register(client);
    const { price } = await futuresPrice(client, 'CU0');
    const value = fen(price * 5);
    // SHFE copper: 0.005% to open (50,000 per 10⁹).
    const cost = Math.ceil(value / 1) + contractFee(value, 50_000);
    const index = await station.app.db
      .selectFrom('accounts')
      .selectAll()
      .where('user_id', '=', user.user.id)
      .where('type', '=', 'index')
      .executeTakeFirstOrThrow();
    // A pending limit order holds all but (cost − 1 fen) of the balance.
    await station.app.db
      .updateTable('accounts')
      .set({ frozen: index.balance - cost + 1 })
      .where('id', '=', index.id)
      .execute();
    const figures = await account(user, 'index');
    expect(fen(figures.available)).toBe(cost - 1);
    expect(figures.balance).toBe(INDEX_START);
    expect(fen(figures.totalAssets)).toBe(fen(INDEX_START));
    const before = await station.counts();
    const body = { code: 'CU0', lots: 1, leverage: 1, direction: 'long' };
    const refused = await user.client.withLang('en').post('/user/buyFutures.do', {
      ...body,
      requestId: newRequestId(),
    });
    expect(refused.http).toBe(409);
    expect(failure(refused)).toEqual({
      status: 409,
      code: 'INSUFFICIENT_FUNDS',
      msg: 'Insufficient available funds',
    });
    expect(await station.counts()).toEqual(before);
    await station.app.db
      .updateTable('accounts')
      .set({ frozen: index.balance - cost })
      .where('id', '=', index.id)
      .execute();
    data(await user.client.post('/user/buyFutures.do', { ...body, requestId: newRequestId() }));
    expect((await account(user, 'index')).available).toBe(0);
    await station.app.db.updateTable('accounts').set({ frozen: 0 }).where('id', '=', index.id).execute();
  });

  it('refuses index trading with an empty index account (INSUFFICIENT_FUNDS)', async () => {
    station.config.settings.startingBalances.index = 0;
    try {
      const user = await register(client);
      const res = await user.client.post('/user/buyIndex.do', {
        code: 'SH000001',
        lots: 1,
        leverage: 20,
        direction: 'long',
        requestId: newRequestId(),
      });
      expect(failure(res)).toMatchObject({ code: 'INSUFFICIENT_FUNDS', msg: '可用资金不足' });
    } finally {
      station.config.settings.startingBalances.index = INDEX_START;
    }
  });

  it('runs a repeated requestId of buyFutures.do once', async () => {
    const user = await register(client);
    const body = { code: 'SC0', lots: 2, leverage: 3, direction: 'short', requestId: newRequestId() };
    const first = data(await user.client.post<Position>('/user/buyFutures.do', body));
    const counts = await station.counts();
    station.clock.advance(HOUR);
    expect(data(await user.client.post<Position>('/user/buyFutures.do', body))).toEqual(first);
    expect(await station.counts()).toEqual(counts);
    // The same id on another call is refused, not run.
    expect(failure(await user.client.post('/user/buyIndex.do', { ...body, code: 'HSI' })).fields).toEqual({
      requestId: '格式不正确',
    });
  });

  /** A moment (epoch ms) within `days` trading days from T0 when a futures price sits at its limit. */
  function momentAtLimit(code: string, side: 'up' | 'down'): number {
    const market = station.app.market;
    const instrument = market.findTradable(code)!.instrument;
    const hours = market.hours(instrument);
    const series = market.series(instrument);
    const today = market.position(instrument, T0).day;
    for (let day = today - 30; day <= today + 30; day++) {
      const limits = series.record(day).limits;
      if (!series.record(day).trading || !limits) continue;
      const { prices } = series.path(day);
      for (let k = 1; k < prices.length - 1; k++) {
        const price = prices[k]!;
        if (side === 'up' ? price >= limits.up : price <= limits.down) {
          return Math.floor(elapsedToUtc(day, k + 0.5, hours));
        }
      }
    }
    throw new Error(`no ${side} limit of ${code} within 30 days of T0`);
  }

  it('refuses a long at limit-up and closing a short there; a short at limit-down and closing a long there', async () => {
    const user = await register(client);
    const order = (code: string, direction: string) =>
      user.client.post<Position>('/user/buyFutures.do', {
        code,
        lots: 1,
        leverage: 8,
        direction,
        requestId: newRequestId(),
      });

    const up = momentAtLimit('SC0', 'up');
    station.clock.set(up - 6 * HOUR);
    const shortBefore = data(await order('SC0', 'short'));
    station.clock.set(up);
    const atUp = await futuresPrice(client, 'SC0');
    expect(atUp.price).toBe(atUp.limitUp);
    const before = await station.counts();
    expect(failure(await order('SC0', 'long'))).toMatchObject({
      status: 409,
      code: 'PRICE_LIMIT',
      msg: '涨停不能买入，跌停不能卖出',
    });
    const cover = await user.client.post('/user/sell.do', {
      positionId: shortBefore.id,
      requestId: newRequestId(),
    });
    expect(failure(cover).code).toBe('PRICE_LIMIT');
    expect(await station.counts()).toEqual(before);
    // Selling short at limit-up is allowed.
    data(await order('SC0', 'short'));

    const down = momentAtLimit('I0', 'down');
    station.clock.set(down - 6 * HOUR);
    const longBefore = data(await order('I0', 'long'));
    station.clock.set(down);
    const atDown = await futuresPrice(client, 'I0');
    expect(atDown.price).toBe(atDown.limitDown);
    expect(failure(await order('I0', 'short')).code).toBe('PRICE_LIMIT');
    const sell = await user.client.post('/user/sell.do', {
      positionId: longBefore.id,
      requestId: newRequestId(),
    });
    expect(failure(sell).code).toBe('PRICE_LIMIT');
    data(await order('I0', 'long'));
  });

  it('values each account from its own open positions (index account for indexes and futures)', async () => {
    const user = await register(client);
    const a = data(
      await user.client.post<Position>('/user/buyIndex.do', {
        code: 'SPX',
        lots: 1,
        leverage: 5,
        direction: 'short',
        requestId: newRequestId(),
      }),
    );
    const b = data(
      await user.client.post<Position>('/user/buyFutures.do', {
        code: 'AG0',
        lots: 2,
        leverage: 5,
        direction: 'long',
        requestId: newRequestId(),
      }),
    );
    const c = data(
      await user.client.post<Position>('/user/buy.do', {
        code: '600519',
        lots: 1,
        leverage: 2,
        requestId: newRequestId(),
      }),
    );
    station.clock.advance(5 * HOUR);
    const open = data(
      await user.client.get<Page<Position>>('/user/position/list.do', { state: 'open', pageSize: 10 }),
    ).list;
    expect(open.map((p) => p.id).sort()).toEqual([a.id, b.id, c.id].sort());
    const spx = open.find((p) => p.id === a.id)!;
    const ag = open.find((p) => p.id === b.id)!;
    expect(spx.currentPrice).toBe(await indexPrice(client, 'SPX'));
    // The S&P 500 is worth US$50 a point, settled in yuan at the rate fixed at its open.
    expect(spx).toMatchObject({ currency: 'CNY', fxRate: a.fxRate });
    expect(a.fxRate).toBeGreaterThan(5);
    expect(fen(spx.pricePnl)).toBe(fen(a.openPrice * 50 * a.fxRate) - fen(spx.currentPrice * 50 * a.fxRate));
    expect(fen(ag.pricePnl)).toBe(fen(ag.currentPrice * 30) - fen(b.openPrice * 30));
    const index = await account(user, 'index');
    expect(fen(index.frozenMargin)).toBe(fen(a.margin) + fen(b.margin));
    expect(fen(index.positionPnl)).toBe(fen(spx.pnl) + fen(ag.pnl));
    expect(fen(index.balance)).toBe(
      fen(INDEX_START) - fen(a.margin) - fen(a.buyFee) - fen(b.margin) - fen(b.buyFee),
    );
    expect(fen(index.totalAssets)).toBe(
      fen(index.balance) + fen(index.frozenMargin) + fen(spx.pricePnl) + fen(ag.pricePnl),
    );
    expect(index).toMatchObject({ currency: 'CNY', liquidationLine: LINE });
    const main = await account(user, 'main');
    expect(main.frozenMargin).toBe(c.margin);
    expect(
      data(
        await user.client.get<Page<Position>>('/user/position/list.do', { state: 'open', market: 'index' }),
      ).list.map((p) => p.id),
    ).toEqual([a.id]);
  });
});

describe.each(dbTargets)('index and futures sessions (%s, CLOCK_MODE=real)', (db) => {
  it('trades a night-session future at 22:00 Shanghai and refuses those without one, and closes by their hours', async () => {
    // Wednesday 12 March 2025, 22:00 in Shanghai and Hong Kong, 10:00 in New York (EDT).
    const clock = new FixedClock(Date.UTC(2025, 2, 12, 14, 0));
    const station = await startStation({ db, clock, env: { CLOCK_MODE: 'real' } });
    station.config.settings.startingBalances.index = INDEX_START;
    try {
      const client = api(station.url);
      const user = await register(client);
      const order = (path: string, code: string) =>
        user.client.post<Position>(path, {
          code,
          lots: 1,
          leverage: 5,
          direction: 'long',
          requestId: newRequestId(),
        });
      expect((await futuresPrice(client, 'AU0')).status).toBe('trading');
      expect((await futuresPrice(client, 'IF0')).status).toBe('closed');
      const gold = data(await order('/user/buyFutures.do', 'AU0'));
      const rebar = data(await order('/user/buyFutures.do', 'RB0'));
      const spx = data(await order('/user/buyIndex.do', 'SPX'));
      const before = await station.counts();
      for (const [path, code] of [
        ['/user/buyFutures.do', 'IF0'],
        ['/user/buyIndex.do', 'SH000300'],
        ['/user/buyIndex.do', 'HSI'],
      ] as const) {
        expect(failure(await order(path, code))).toMatchObject({
          status: 409,
          code: 'OUTSIDE_TRADING_HOURS',
          msg: '下单失败，不在交易时间内',
        });
      }
      expect(await station.counts()).toEqual(before);

      // 23:30 Shanghai: rebar's night session (21:00-23:00) is over, gold's (21:00-02:30) is not.
      clock.set(Date.UTC(2025, 2, 12, 15, 30));
      const late = await user.client
        .withLang('en')
        .post('/user/sell.do', { positionId: rebar.id, requestId: newRequestId() });
      expect(failure(late)).toMatchObject({
        status: 409,
        code: 'OUTSIDE_TRADING_HOURS',
        msg: 'Closing failed: not within trading hours',
      });
      // Gold pays SHFE's ¥10 a contract to open, and nothing to close the same trading day (the night
      // session of Wednesday evening belongs to Thursday's).
      expect(gold.buyFee).toBe(10);
      const goldClosed = data(
        await user.client.post<Position>('/user/sell.do', { positionId: gold.id, requestId: newRequestId() }),
      );
      expect(goldClosed.sellFee).toBe(0);
      data(await user.client.post('/user/sell.do', { positionId: spx.id, requestId: newRequestId() }));

      // Thursday 10:00 Shanghai: the CFFEX index futures and the A-share indexes trade, rebar closes.
      clock.set(Date.UTC(2025, 2, 13, 2, 0));
      data(await order('/user/buyFutures.do', 'IF0'));
      data(await order('/user/buyIndex.do', 'SH000300'));
      data(await order('/user/buyIndex.do', 'HSI'));
      data(await user.client.post('/user/sell.do', { positionId: rebar.id, requestId: newRequestId() }));
      // Saturday: nothing trades.
      clock.set(Date.UTC(2025, 2, 15, 2, 0));
      expect(failure(await order('/user/buyFutures.do', 'AU0')).code).toBe('OUTSIDE_TRADING_HOURS');
      await station.assertLedger();
    } finally {
      await station.close();
    }
  });

  it('makes index and futures positions T+0 even on A-share hours', async () => {
    const clock = new FixedClock(Date.UTC(2025, 2, 12, 2, 0));
    const station = await startStation({ db, clock, env: { CLOCK_MODE: 'real' } });
    station.config.settings.startingBalances.index = INDEX_START;
    try {
      const user = await register(api(station.url));
      const bought = data(
        await user.client.post<Position>('/user/buyIndex.do', {
          code: 'SH000001',
          lots: 1,
          leverage: 10,
          direction: 'short',
          requestId: newRequestId(),
        }),
      );
      expect(bought.sellableFrom).toBe(bought.openedAt);
      clock.advance(DAY / 48);
      data(await user.client.post('/user/sell.do', { positionId: bought.id, requestId: newRequestId() }));
      await station.assertLedger();
    } finally {
      await station.close();
    }
  });
});
