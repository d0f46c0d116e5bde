/**
 * setStops.do: an open position's stop profit and stop loss, set after opening, direction-aware, once per
 * requestId; and the stop then closes the position on the engine's next crossing minute. Also: the buy
 * screen's breakdown (src/shared/trading-rules.ts, from getProductSetting.do's rules) equals what buy.do charges.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Position, ProductSetting, User } from '../../src/shared/api/types';
import type { TradingRules } from '../../src/shared/trading-rules';
import { orderBreakdown, unitsPerLot } from '../../src/shared/trading-rules';
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
  type Registered,
  type TestStation,
} from './helpers/station';

const MINUTE = 60_000;
const DAY = 86_400_000;
type Station = TestStation<FixedClock>;

function priceAt(station: Station, code: string, t: number): number {
  const market = station.app.market;
  return market.quote(market.get(code), t).price;
}

async function buy(
  user: Registered,
  body: Record<string, unknown>,
  path = '/user/buy.do',
): Promise<Position> {
  return data(await user.client.post<Position>(path, { requestId: newRequestId(), ...body }));
}

async function openPositions(user: Registered): Promise<Position[]> {
  return data(
    await user.client.get<Page<Position>>('/user/position/list.do', { state: 'open', pageSize: 100 }),
  ).list;
}

async function ledgerCount(station: Station): Promise<number> {
  const row = await station.app.db
    .selectFrom('ledger_entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe.each(dbTargets)('position stops (%s, always-open)', (db) => {
  let station: Station;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
  });
  afterAll(async () => station?.close());
  afterEach(async () => {
    await station.assertLedger();
  });

  it('sets both stops on a long, and an absent one is removed', async () => {
    const user = await register(client);
    const p = await buy(user, { code: 'AAPL', lots: 10, leverage: 2 });
    expect(p.stopProfit).toBeNull();
    const price = priceAt(station, 'AAPL', station.clock.now());
    const stopProfit = Number((price * 1.2).toFixed(2));
    const stopLoss = Number((price * 0.8).toFixed(2));
    const set = data(
      await user.client.post<Position>('/user/position/setStops.do', {
        positionId: p.id,
        stopProfit,
        stopLoss,
        requestId: newRequestId(),
      }),
    );
    expect(set).toMatchObject({ id: p.id, stopProfit, stopLoss });
    const onlyLoss = data(
      await user.client.post<Position>('/user/position/setStops.do', {
        positionId: p.id,
        stopLoss,
        requestId: newRequestId(),
      }),
    );
    expect(onlyLoss).toMatchObject({ stopProfit: null, stopLoss });
    expect((await openPositions(user))[0]).toMatchObject({ stopProfit: null, stopLoss });
  });

  it('refuses stops on the wrong side for the direction, with the rule named, and changes nothing', async () => {
    const user = await register(client);
    // The index account starts empty: move some of the main account's paper money there.
    data(
      await user.client.post('/user/transAmt.do', {
        amount: 500_000,
        from: 'main',
        to: 'index',
        requestId: newRequestId(),
      }),
    );
    const long = await buy(user, { code: 'AAPL', lots: 10, leverage: 1 });
    const short = await buy(
      user,
      { code: 'SH000300', lots: 1, leverage: 5, direction: 'short' },
      '/user/buyIndex.do',
    );
    const now = station.clock.now();
    const aapl = priceAt(station, 'AAPL', now);
    const idx = short.currentPrice;

    const wrongLong = await user.client.withLang('en').post('/user/position/setStops.do', {
      positionId: long.id,
      stopProfit: Number((aapl * 0.9).toFixed(2)),
      requestId: newRequestId(),
    });
    expect(wrongLong.http).toBe(400);
    expect(failure(wrongLong)).toMatchObject({
      code: 'VALIDATION',
      fields: { stopProfit: expect.any(String) },
    });
    expect(failure(wrongLong).msg).toMatch(/long/i);

    const wrongShort = await user.client.withLang('en').post('/user/position/setStops.do', {
      positionId: short.id,
      stopLoss: Number((idx * 0.9).toFixed(2)),
      requestId: newRequestId(),
    });
    expect(failure(wrongShort)).toMatchObject({
      code: 'VALIDATION',
      fields: { stopLoss: expect.any(String) },
    });

    // The right sides for a short: stop profit below, stop loss above.
    const ok = data(
      await user.client.post<Position>('/user/position/setStops.do', {
        positionId: short.id,
        stopProfit: Number((idx * 0.9).toFixed(2)),
        stopLoss: Number((idx * 1.1).toFixed(2)),
        requestId: newRequestId(),
      }),
    );
    expect(ok.direction).toBe('short');
    const stored = new Map((await openPositions(user)).map((p) => [p.id, p]));
    expect(stored.get(long.id)).toMatchObject({ stopProfit: null, stopLoss: null });
    expect(stored.get(short.id)!.stopLoss).toBe(Number((idx * 1.1).toFixed(2)));
  });

  it("refuses another user's position, a closed one, bad input; none is a 500", async () => {
    const owner = await register(client);
    const other = await register(client);
    const p = await buy(owner, { code: 'AAPL', lots: 5, leverage: 1 });
    const price = priceAt(station, 'AAPL', station.clock.now());
    const stranger = await other.client.post('/user/position/setStops.do', {
      positionId: p.id,
      stopLoss: Number((price * 0.5).toFixed(2)),
      requestId: newRequestId(),
    });
    expect(failure(stranger).code).toBe('NOT_FOUND');
    for (const bad of [
      { positionId: 'x' },
      { positionId: p.id, stopLoss: -1 },
      { positionId: p.id, stopLoss: 'NaN' },
    ]) {
      const res = await owner.client.post('/user/position/setStops.do', {
        requestId: newRequestId(),
        ...bad,
      });
      expect(res.http, JSON.stringify(bad)).toBe(400);
    }
    const missingId = await owner.client.post('/user/position/setStops.do', { positionId: p.id });
    expect(missingId.http).toBe(400);
    data(await owner.client.post('/user/sell.do', { positionId: p.id, requestId: newRequestId() }));
    const closed = await owner.client.post('/user/position/setStops.do', {
      positionId: p.id,
      stopLoss: Number((price * 0.5).toFixed(2)),
      requestId: newRequestId(),
    });
    expect(failure(closed).code).toBe('ALREADY_DONE');
    const anonymous = await client.post('/user/position/setStops.do', {
      positionId: p.id,
      requestId: newRequestId(),
    });
    expect(anonymous.http).toBe(401);
  });

  it('answers a repeated requestId with the first answer and does nothing else', async () => {
    const user = await register(client);
    const p = await buy(user, { code: 'AAPL', lots: 10, leverage: 2 });
    const price = priceAt(station, 'AAPL', station.clock.now());
    const requestId = newRequestId();
    const stopLoss = Number((price * 0.9).toFixed(2));
    const first = data(
      await user.client.post<Position>('/user/position/setStops.do', {
        positionId: p.id,
        stopLoss,
        requestId,
      }),
    );
    const entries = await ledgerCount(station);
    // The same id with other stops: the first answer, the stored stops unchanged.
    const again = data(
      await user.client.post<Position>('/user/position/setStops.do', {
        positionId: p.id,
        stopLoss: Number((price * 0.7).toFixed(2)),
        requestId,
      }),
    );
    expect(again).toEqual(first);
    expect((await openPositions(user))[0]!.stopLoss).toBe(stopLoss);
    expect(await ledgerCount(station)).toBe(entries);
  });

  it('a stop set after opening closes the position at the crossing minute with its reason', async () => {
    const user = await register(client);
    const start = Math.floor(station.clock.now() / MINUTE) * MINUTE;
    // The first US stock (T+0) that moves 0.3% either way within a day: a stop loss below, or a stop profit above.
    let plan: { code: string; at: number; stop: 'stopLoss' | 'stopProfit' } | null = null;
    for (const code of ['AAPL', 'MSFT', 'NVDA', 'TSLA', 'AMZN', 'META']) {
      const p0 = priceAt(station, code, start);
      for (let t = start + MINUTE; t <= start + DAY && !plan; t += MINUTE) {
        const price = priceAt(station, code, t);
        if (price < p0 * 0.997) plan = { code, at: t, stop: 'stopLoss' };
        else if (price > p0 * 1.003) plan = { code, at: t, stop: 'stopProfit' };
      }
      if (plan) break;
    }
    expect(plan, 'a US stock moves 0.3% within a day').not.toBeNull();
    const { code, at, stop } = plan!;
    const p = await buy(user, { code, lots: 10, leverage: 2 });
    const level = priceAt(station, code, at);
    data(
      await user.client.post('/user/position/setStops.do', {
        positionId: p.id,
        [stop]: level,
        requestId: newRequestId(),
      }),
    );
    station.clock.set(at + MINUTE);
    await station.app.engine.step();
    const closed = data(
      await user.client.get<Page<Position>>('/user/position/list.do', { state: 'closed' }),
    ).list;
    const mine = closed.find((c) => c.id === p.id);
    expect(mine).toMatchObject({ closeReason: stop === 'stopLoss' ? 'stop_loss' : 'stop_profit' });
  });

  it('shows before confirming what buy.do then charges: margin, fees, liquidation price, what remains', async () => {
    const settings = data(
      await client.get<ProductSetting & { trading: TradingRules }>('/api/admin/getProductSetting.do'),
    );
    const rules = settings.trading;
    expect(rules.leverage.a).toEqual([1, 2, 3, 5, 10]);
    expect(rules.maxLots.a).toBe(100);
    const user = await register(client);
    const cases = [
      {
        code: '600000',
        market: 'a' as const,
        lots: 3,
        leverage: 5,
        account: 'main' as const,
        path: '/user/buy.do',
      },
      {
        code: '00700',
        market: 'hk' as const,
        lots: 2,
        leverage: 2,
        account: 'hk' as const,
        path: '/user/buy.do',
      },
      {
        code: 'AAPL',
        market: 'us' as const,
        lots: 7,
        leverage: 5,
        account: 'us' as const,
        path: '/user/buy.do',
      },
    ];
    for (const c of cases) {
      const info = data(await user.client.get<User>('/user/getUserInfo.do'));
      const available = info.accounts.find((a) => a.type === c.account)!.available;
      const detail = data(
        await client.get<{ price: number; lotSize: number }>('/api/stock/getSingleStock.do', {
          code: c.code,
        }),
      );
      const expected = orderBreakdown(
        {
          market: c.market,
          direction: 'long',
          lots: c.lots,
          unitsPerLot: unitsPerLot(rules, c.market, c.code, detail),
          price: detail.price,
          leverage: c.leverage,
          available,
        },
        rules,
      );
      const p = await buy(user, { code: c.code, lots: c.lots, leverage: c.leverage }, c.path);
      expect(p.shares, c.code).toBe(expected.shares);
      expect(p.margin, c.code).toBe(expected.margin);
      expect(p.buyFee, c.code).toBe(expected.feeTotal);
      // The station rounds the liquidation price to the instrument's tick (HK: the spread table); with the
      // account's free cash covering the line at any price, both say none.
      if (expected.liquidationPrice === null) expect(p.liquidationPrice, c.code).toBeNull();
      else expect(p.liquidationPrice, c.code).toBeCloseTo(expected.liquidationPrice, 1);
      const after = data(await user.client.get<User>('/user/getUserInfo.do'));
      expect(after.accounts.find((a) => a.type === c.account)!.available, c.code).toBeCloseTo(
        expected.availableAfter,
        2,
      );
    }
  });
});
