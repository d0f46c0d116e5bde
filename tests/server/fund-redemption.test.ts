/**
 * Funds over HTTP with a pinned clock (always-open): an open-ended fund's redemption fee is tiered by how
 * long each purchase lot was held, first in first out (under 7 days at least 1.5%, then the fund's rate);
 * an exchange-traded fund (510300) is not a NAV fund but an instrument bought and sold at market prices
 * with A-share fees.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyRate, toMinor } from '../../src/shared/money';
import type { FundDetail, FundProduct, FundTrade } from '../../src/shared/api/funds';
import type { Position, Quote } from '../../src/shared/api/types';
import { FixedClock } from '../../server/market/clock';
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

type Station = TestStation<FixedClock>;
const DAY = 86_400_000;
const CODE = '110011';

async function fundNow(client: ApiClient): Promise<FundProduct> {
  return data(await client.get<FundDetail>('/api/fund/detail.do', { code: CODE })).fund;
}

async function redeem(user: Registered, units: number): Promise<FundTrade> {
  return data(
    await user.client.post<FundTrade>('/user/fund/sell.do', { code: CODE, units, requestId: newRequestId() }),
  );
}

async function buyFund(user: Registered, amount: number): Promise<FundTrade> {
  return data(
    await user.client.post<FundTrade>('/user/fund/buy.do', { code: CODE, amount, requestId: newRequestId() }),
  );
}

describe.each(dbTargets)('fund redemption tiers and ETFs (%s, always-open)', (db) => {
  let station: Station;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db, clock: new FixedClock(T0) });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  it('charges 1.5% on units held 3 days and the fund rate after 10, lot by lot first in first out', async () => {
    const start = station.clock.now();
    const user = await register(client);
    const product = await fundNow(client);
    const normal = product.redeemFeeRate;
    expect(normal).toBeLessThan(0.015);
    // The tier is published with the product, for the redeem form to say.
    expect(product).toMatchObject({ shortHoldDays: 7, shortHoldRedeemFeeRate: 0.015 });
    const first = await buyFund(user, 10_000);

    station.clock.set(start + 3 * DAY);
    const day3 = await fundNow(client);
    const early = Math.floor(first.units * 40) / 100;
    const sold3 = await redeem(user, early);
    const gross3 = toMinor(early * day3.nav);
    expect(toMinor(sold3.fee)).toBe(applyRate(gross3, 0.015));
    expect(toMinor(sold3.amount)).toBe(gross3 - applyRate(gross3, 0.015));

    // A second purchase on day 8; on day 10 the first lot is 10 days old, the second 2.
    station.clock.set(start + 8 * DAY);
    const second = await buyFund(user, 5_000);
    station.clock.set(start + 10 * DAY);
    const day10 = await fundNow(client);
    const rest = Math.round((first.units - early) * 100) / 100;
    const sold10 = await redeem(user, rest);
    const gross10 = toMinor(rest * day10.nav);
    expect(toMinor(sold10.fee)).toBe(applyRate(gross10, normal));

    // What is left is the second lot, 2 days old: the short-holding rate again.
    const last = await redeem(user, second.units);
    const grossLast = toMinor(second.units * day10.nav);
    expect(toMinor(last.fee)).toBe(applyRate(grossLast, 0.015));
    await station.assertLedger();
  });

  it('trades 510300 as an ETF at market prices with commission only (no stamp duty or transfer fee), not as a NAV fund', async () => {
    const funds = data(await client.get<FundProduct[]>('/api/fund/list.do', {}));
    expect(funds.map((f) => f.code)).not.toContain('510300');
    expect(failure(await client.get('/api/fund/detail.do', { code: '510300' })).code).toBe('NOT_FOUND');

    const user = await register(client);
    const quote = data(
      await client.get<Quote & { lotSize: number }>('/api/stock/getSingleStock.do', { code: '510300' }),
    );
    expect(quote).toMatchObject({ code: '510300', lotSize: 100, status: 'trading' });
    const bought = data(
      await user.client.post<Position>('/user/buy.do', {
        code: '510300',
        lots: 10,
        leverage: 1,
        requestId: newRequestId(),
      }),
    );
    const value = toMinor(quote.price * 1000);
    // Commission 0.025% with its ¥5 minimum, half up to the fen: funds pay no stamp duty or transfer fee.
    const commission = (v: number) => Math.max(Math.round(v * 0.00025), 500);
    const buyFee = commission(value);
    expect(bought).toMatchObject({ code: '510300', market: 'a', shares: 1000, openPrice: quote.price });
    expect(toMinor(bought.buyFee)).toBe(buyFee);

    // T+1 as an A-share: sold the next trading day at that day's market price.
    station.clock.set(bought.sellableFrom + 60_000);
    const later = data(await client.get<Quote>('/api/stock/getSingleStock.do', { code: '510300' }));
    const closed = data(
      await user.client.post<Position>('/user/sell.do', { positionId: bought.id, requestId: newRequestId() }),
    );
    expect(closed).toMatchObject({ closePrice: later.price, closeReason: 'user' });
    const sellValue = toMinor(later.price * 1000);
    expect(toMinor(closed.stampDuty)).toBe(0);
    expect(toMinor(closed.sellFee)).toBe(commission(sellValue));
    await station.assertLedger();
  });
});
