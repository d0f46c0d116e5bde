/**
 * What the positions page's summary and the risk gauge read, over HTTP with a pinned clock
 * (CLOCK_MODE=always-open: every UTC day trades and starts at 00:00 UTC): each open position's today's
 * P&L (since the open price on the day it was opened, since the previous close after), the accounts' sum
 * of it, and the accounts' and a fund allocation's risk figures (R, borrowed, values, lines).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Allocation, SubAccount } from '../../src/shared/api/funds';
import type { Account, Page, Position, StockDetail, User } from '../../src/shared/api/types';
import { FixedClock } from '../../server/market/clock';
import {
  T0,
  api,
  data,
  dbTargets,
  newRequestId,
  register,
  startStation,
  type ApiClient,
  type Registered,
  type TestStation,
} from './helpers/station';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const fen = (major: number) => Math.round(Number((major * 100).toFixed(6)));

async function accountsOf(user: Registered): Promise<Record<Account['type'], Account>> {
  const { accounts } = data(await user.client.get<User>('/user/getUserInfo.do'));
  return Object.fromEntries(accounts.map((a) => [a.type, a])) as Record<Account['type'], Account>;
}

async function openPositions(user: Registered): Promise<Position[]> {
  return data(await user.client.get<Page<Position>>('/user/position/list.do', { state: 'open' })).list;
}

describe.each(dbTargets)("today's P&L and the risk figures (%s)", (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
  });
  afterAll(async () => station?.close());
  afterEach(async () => {
    await station.assertLedger();
    station.clock.set(T0);
  });

  it("counts today's P&L from the open price on the day of the buy and from the previous close after", async () => {
    const user = await register(client);
    const bought = data(
      await user.client.post<Position>('/user/buy.do', {
        code: 'AAPL',
        lots: 200,
        leverage: 5,
        requestId: newRequestId(),
      }),
    );
    // Bought at the price of the moment: nothing has moved yet today.
    expect(bought.todayPnl).toBe(0);

    station.clock.advance(3 * HOUR);
    let quote = data(await client.get<StockDetail>('/api/stock/getSingleStock.do', { code: 'AAPL' }));
    expect(quote.price).not.toBe(bought.openPrice);
    let [held] = await openPositions(user);
    expect(held!.currentPrice).toBe(quote.price);
    expect(fen(held!.todayPnl!)).toBe(fen(quote.price * 200) - fen(bought.openPrice * 200));
    // Opened today: today's P&L is the whole price P&L.
    expect(held!.todayPnl).toBe(held!.pricePnl);
    let accounts = await accountsOf(user);
    expect(accounts.us.todayPnl).toBe(held!.todayPnl);
    expect(accounts.main.todayPnl).toBe(0);

    // The next trading day: the move since its previous close, not since the open.
    station.clock.advance(DAY);
    quote = data(await client.get<StockDetail>('/api/stock/getSingleStock.do', { code: 'AAPL' }));
    [held] = await openPositions(user);
    expect(held!.currentPrice).toBe(quote.price);
    expect(fen(held!.todayPnl!)).toBe(fen(quote.price * 200) - fen(quote.prevClose * 200));
    expect(held!.todayPnl).not.toBe(held!.pricePnl);
    accounts = await accountsOf(user);
    expect(accounts.us.todayPnl).toBe(held!.todayPnl);

    const sold = data(
      await user.client.post<Position>('/user/sell.do', { positionId: held!.id, requestId: newRequestId() }),
    );
    expect(sold.todayPnl).toBeNull();
    expect((await accountsOf(user)).us.todayPnl).toBe(0);
  });

  it("gives each account R, what it borrows and its positions' value, as the engine counts them", async () => {
    const user = await register(client);
    let accounts = await accountsOf(user);
    // Nothing borrowed: no R, no liquidation.
    expect(accounts.us).toMatchObject({
      riskRatio: null,
      borrowed: 0,
      longValue: 0,
      shortValue: 0,
      warningLine: 1.1,
      liquidationLine: 1.05,
    });
    const bought = data(
      await user.client.post<Position>('/user/buy.do', {
        code: 'AAPL',
        lots: 100,
        leverage: 5,
        requestId: newRequestId(),
      }),
    );
    station.clock.advance(2 * HOUR);
    const [held] = await openPositions(user);
    accounts = await accountsOf(user);
    const borrowed = fen(bought.openPrice * 100) - fen(bought.margin);
    const value = fen(held!.currentPrice * 100);
    expect(fen(accounts.us.borrowed)).toBe(borrowed);
    expect(fen(accounts.us.longValue)).toBe(value);
    expect(accounts.us.shortValue).toBe(0);
    // R = (available cash + the holding's value) ÷ borrowed (DOMAIN.md "Risk ratio").
    expect(accounts.us.riskRatio).toBeCloseTo((fen(accounts.us.available) + value) / borrowed, 6);
    // An unleveraged account next to it borrows nothing.
    expect(accounts.main.riskRatio).toBeNull();
  });

  it("gives a fund allocation's sub-account its own lines", async () => {
    const user = await register(client);
    const applied = data(
      await user.client.post<Allocation>('/user/funds/addFundsApply.do', {
        typeCode: 'days',
        margin: 10_000,
        multiple: 3,
        days: 2,
        requestId: newRequestId(),
      }),
    );
    station.clock.set(T0 + station.config.reviewDelaySeconds * 1000);
    await station.app.engine.step();
    await station.app.engine.step();
    const sub = data(
      await user.client.get<SubAccount>('/user/funds/getUserSubaccount.do', { applyId: applied.id }),
    );
    expect(sub.allocation.status).toBe('trading');
    expect(sub).toMatchObject({ warningLine: 1.1, liquidationLine: 1.05 });
    expect(sub.riskRatio).toBeCloseTo(sub.totalAssets / sub.allocation.allocated, 4);
  });
});
