import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { toMinor } from '../../src/shared/money';
import type { HaltEntry, LedgerEntry, Page, Position, StockDetail, User } from '../../src/shared/api/types';
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

const HOUR = 3_600_000;
const DAY = 86_400_000;

async function usBalance(user: Registered): Promise<number> {
  const info = data(await user.client.get<User>('/user/getUserInfo.do'));
  return toMinor(info.accounts.find((a) => a.type === 'us')!.balance);
}

describe.each(dbTargets)('trading (%s, always-open)', (db) => {
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

  it('round-trips a US stock: the balance moves by exactly (close − open) × shares − all fees', async () => {
    const user = await register(client);
    const before = await usBalance(user);
    const bought = data(
      await user.client.post<Position>('/user/buy.do', {
        code: 'AAPL',
        lots: 300,
        leverage: 5,
        requestId: newRequestId(),
      }),
    );
    expect(bought).toMatchObject({
      code: 'AAPL',
      market: 'us',
      lots: 300,
      shares: 300,
      leverage: 5,
      direction: 'long',
    });
    const openValue = toMinor(bought.openPrice * 300);
    expect(toMinor(bought.margin)).toBe(Math.ceil(openValue / 5));
    // US buy: commission $0.005 × 300 = $1.50 (above the $1 minimum).
    expect(bought.buyFee).toBe(1.5);
    expect(bought.sellableFrom).toBe(bought.openedAt); // T+0
    const open = data(await user.client.get<Page<Position>>('/user/position/list.do', { state: 'open' }));
    expect(open.list.map((p) => p.id)).toEqual([bought.id]);

    station.clock.advance(3 * HOUR);
    const quote = data(await client.get<StockDetail>('/api/stock/getSingleStock.do', { code: 'AAPL' }));
    const sold = data(
      await user.client.post<Position>('/user/sell.do', { positionId: bought.id, requestId: newRequestId() }),
    );
    expect(sold.closePrice).toBe(quote.price);
    expect(sold.closeReason).toBe('user');
    expect(sold.closedAt).toBe(station.clock.now());
    const closeValue = toMinor(quote.price * 300);
    // US sell: commission $1.50 + FINRA TAF 300 × $0.000166 = $0.0498 → $0.05; SEC fee rate 0.
    expect(sold.sellFee).toBe(1.55);
    expect(sold.stampDuty).toBe(0);
    expect(toMinor(sold.pricePnl)).toBe(closeValue - openValue);
    // Net of every fee (API.md position): buy $1.50 + sell $1.55.
    expect(toMinor(sold.fees)).toBe(150 + 155);
    expect(toMinor(sold.pnl)).toBe(closeValue - openValue - 150 - 155);

    const after = await usBalance(user);
    expect(after - before).toBe(closeValue - openValue - 150 - 155);

    const flow = data(await user.client.get<Page<LedgerEntry>>('/user/cash/list.do', { account: 'us' }));
    expect(flow.list.map((e) => [e.type, toMinor(e.amount)])).toEqual([
      ['sell_fee', -155],
      ['sell', toMinor(bought.margin) + closeValue - openValue],
      ['buy_fee', -150],
      ['buy', -toMinor(bought.margin)],
      ['opening_balance', 10_000_000],
    ]);
    expect(toMinor(flow.list[0]!.balanceAfter)).toBe(after);
    expect(flow.list.every((e) => e.account === 'us' && e.refType !== undefined)).toBe(true);
    const closed = data(await user.client.get<Page<Position>>('/user/position/list.do', { state: 'closed' }));
    expect(closed.list).toHaveLength(1);
    expect(
      data(await user.client.get<Page<Position>>('/user/position/list.do', { state: 'open' })).total,
    ).toBe(0);
  });

  it('refuses to sell A-shares on the day they were bought (T+1) and allows it the next day', async () => {
    const user = await register(client);
    const bought = data(
      await user.client.post<Position>('/user/buy.do', {
        code: '600519',
        lots: 2,
        leverage: 2,
        requestId: newRequestId(),
      }),
    );
    expect(bought.shares).toBe(200);
    // Always-open mode: the next trading day starts at the next UTC midnight.
    expect(bought.sellableFrom).toBe(Math.floor(T0 / DAY) * DAY + DAY);
    const early = await user.client
      .withLang('en')
      .post('/user/sell.do', { positionId: bought.id, requestId: newRequestId() });
    expect(early.http).toBe(409);
    expect(failure(early)).toMatchObject({ code: 'T_PLUS_ONE', msg: expect.stringContaining('T+1') });
    const mainBefore = data(await user.client.get<User>('/user/getUserInfo.do')).accounts.find(
      (a) => a.type === 'main',
    )!;
    expect(mainBefore.frozenMargin).toBe(bought.margin);

    station.clock.advance(DAY);
    const sold = data(
      await user.client.post<Position>('/user/sell.do', { positionId: bought.id, requestId: newRequestId() }),
    );
    const closeValue = toMinor(sold.closePrice! * 200);
    // A-share sell: stamp duty 0.05% of the value, charged as its own ledger entry.
    expect(toMinor(sold.stampDuty)).toBe(Math.round(closeValue * 0.0005));
    const flow = data(
      await user.client.get<Page<LedgerEntry>>('/user/cash/list.do', { account: 'main', pageSize: 3 }),
    );
    expect(flow.list.map((e) => e.type)).toEqual(['stamp_duty', 'sell_fee', 'sell']);
    expect(flow.total).toBe(6);
  });

  it('sells part of a position: a closed record splits off and the rest stays open', async () => {
    const user = await register(client);
    const bought = data(
      await user.client.post<Position>('/user/buy.do', {
        code: '00700',
        lots: 3,
        leverage: 2,
        requestId: newRequestId(),
      }),
    );
    expect(bought.shares).toBe(300); // board lot of 00700 is 100 shares
    // HK buy fees include stamp duty rounded up to a whole HK$1.
    const value = toMinor(bought.openPrice * 300);
    expect(toMinor(bought.buyFee)).toBeGreaterThanOrEqual(Math.ceil((value * 0.001) / 100) * 100);
    station.clock.advance(HOUR);
    const rest = data(
      await user.client.post<Position>('/user/sell.do', {
        positionId: bought.id,
        lots: 1,
        requestId: newRequestId(),
      }),
    );
    expect(rest).toMatchObject({ id: bought.id, lots: 2, shares: 200, closedAt: null });
    const closed = data(await user.client.get<Page<Position>>('/user/position/list.do', { state: 'closed' }));
    expect(closed.list).toHaveLength(1);
    expect(closed.list[0]).toMatchObject({ lots: 1, shares: 100, closeReason: 'user' });
    expect(closed.list[0]!.id).not.toBe(bought.id);
    expect(toMinor(closed.list[0]!.margin) + toMinor(rest.margin)).toBe(toMinor(bought.margin));
    expect(toMinor(closed.list[0]!.buyFee) + toMinor(rest.buyFee)).toBe(toMinor(bought.buyFee));
    const tooMany = await user.client.post('/user/sell.do', {
      positionId: bought.id,
      lots: 3,
      requestId: newRequestId(),
    });
    expect(failure(tooMany)).toMatchObject({ code: 'VALIDATION', fields: { lots: '数量不能超过最大值 2' } });
    data(await user.client.post('/user/sell.do', { positionId: bought.id, requestId: newRequestId() }));
    const again = await user.client.post('/user/sell.do', {
      positionId: bought.id,
      requestId: newRequestId(),
    });
    expect(failure(again).code).toBe('ALREADY_DONE');
  });

  it('refuses a buy beyond the available funds (INSUFFICIENT_FUNDS) and writes nothing', async () => {
    const user = await register(client);
    const before = await station.counts();
    const res = await user.client.post('/user/buy.do', {
      code: '600519',
      lots: 100,
      leverage: 1,
      requestId: newRequestId(),
    });
    expect(res.http).toBe(409);
    expect(failure(res)).toEqual({ status: 409, code: 'INSUFFICIENT_FUNDS', msg: '可用资金不足' });
    expect(await station.counts()).toEqual(before);
  });

  it('refuses a leverage outside the market list, a short stock and an unknown code', async () => {
    const user = await register(client);
    const lev = await user.client.post('/user/buy.do', {
      code: 'AAPL',
      lots: 1,
      leverage: 3,
      requestId: newRequestId(),
    });
    expect(failure(lev)).toMatchObject({
      status: 400,
      code: 'VALIDATION',
      fields: { leverage: '格式不正确' },
    });
    const short = await user.client.post('/user/buy.do', {
      code: 'AAPL',
      lots: 1,
      leverage: 1,
      direction: 'short',
      requestId: newRequestId(),
    });
    expect(failure(short).fields).toEqual({ direction: '格式不正确' });
    const unknown = await user.client.post('/user/buy.do', {
      code: 'NOPE',
      lots: 1,
      leverage: 1,
      requestId: newRequestId(),
    });
    expect(failure(unknown)).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    const aboveMax = await user.client.post('/user/buy.do', {
      code: '601398',
      lots: 101,
      leverage: 1,
      requestId: newRequestId(),
    });
    expect(failure(aboveMax).fields).toEqual({ lots: '数量不能超过最大值 100' });
  });

  it("cannot sell another user's position", async () => {
    const owner = await register(client);
    const other = await register(client);
    const bought = data(
      await owner.client.post<Position>('/user/buy.do', {
        code: 'MSFT',
        lots: 1,
        leverage: 1,
        requestId: newRequestId(),
      }),
    );
    const res = await other.client.post('/user/sell.do', {
      positionId: bought.id,
      requestId: newRequestId(),
    });
    expect(failure(res)).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('executes a repeated requestId once and answers the first response again', async () => {
    const user = await register(client);
    const requestId = newRequestId();
    const first = data(
      await user.client.post<Position>('/user/buy.do', { code: 'NVDA', lots: 5, leverage: 1, requestId }),
    );
    const countsAfterFirst = await station.counts();
    station.clock.advance(10 * 60_000);
    const second = data(
      await user.client.post<Position>('/user/buy.do', { code: 'NVDA', lots: 5, leverage: 1, requestId }),
    );
    expect(second).toEqual(first);
    expect(await station.counts()).toEqual(countsAfterFirst);
    // The same id for another call is refused, not executed.
    const misuse = await user.client.post('/user/sell.do', { positionId: first.id, requestId });
    expect(failure(misuse).fields).toEqual({ requestId: '格式不正确' });
    // Another user may use the same id: ids are per user.
    const other = await register(client);
    const theirs = data(
      await other.client.post<Position>('/user/buy.do', { code: 'NVDA', lots: 1, leverage: 1, requestId }),
    );
    expect(theirs.id).not.toBe(first.id);
  });

  it('runs two concurrent identical requests once', async () => {
    const user = await register(client);
    const requestId = newRequestId();
    const before = await station.counts();
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        user.client.post<Position>('/user/buy.do', { code: 'TSLA', lots: 2, leverage: 2, requestId }),
      ),
    );
    const positions = answers.map(data);
    expect(new Set(positions.map((p) => p.id)).size).toBe(1);
    const after = await station.counts();
    expect(after.positions - before.positions).toBe(1);
    expect(after.ledger - before.ledger).toBe(2);
    expect(after.idempotency - before.idempotency).toBe(1);
  });

  it('refuses to buy or sell a suspended stock with SUSPENDED, not OUTSIDE_TRADING_HOURS', async () => {
    const halts = data(await client.get<HaltEntry[]>('/api/stock/getStop.do', { market: 'a' }));
    const halted = halts.find((h) => h.state === 'suspended');
    expect(halted).toBeDefined();
    const { code, since } = halted!;
    const user = await register(client);
    // The day before the suspension began it traded: buy then, and try to close once it is suspended.
    station.clock.set(since - 12 * HOUR);
    const bought = data(
      await user.client.post<Position>('/user/buy.do', {
        code,
        lots: 1,
        leverage: 1,
        requestId: newRequestId(),
      }),
    );
    station.clock.set(since + HOUR);
    const detail = data(await client.get<StockDetail>('/api/stock/getSingleStock.do', { code }));
    expect(detail.status).toBe('suspended');
    const before = await station.counts();
    const buy = await user.client
      .withLang('en')
      .post('/user/buy.do', { code, lots: 1, leverage: 1, requestId: newRequestId() });
    expect(buy.http).toBe(409);
    expect(failure(buy)).toMatchObject({
      code: 'SUSPENDED',
      msg: 'This stock is suspended and cannot be traded',
    });
    const sell = await user.client.post('/user/sell.do', {
      positionId: bought.id,
      requestId: newRequestId(),
    });
    expect(failure(sell)).toMatchObject({ status: 409, code: 'SUSPENDED', msg: '该股票已停牌，暂不能交易' });
    expect(await station.counts()).toEqual(before);
  });

  it('values open positions live in the account: totalAssets = balance + frozenMargin + price pnl', async () => {
    const user = await register(client);
    const bought = data(
      await user.client.post<Position>('/user/buy.do', {
        code: 'GOOGL',
        lots: 100,
        leverage: 2,
        requestId: newRequestId(),
      }),
    );
    station.clock.advance(2 * HOUR);
    const price = data(
      await client.get<StockDetail>('/api/stock/getSingleStock.do', { code: 'GOOGL' }),
    ).price;
    const [position] = data(
      await user.client.get<Page<Position>>('/user/position/list.do', { state: 'open', market: 'us' }),
    ).list;
    expect(position!.currentPrice).toBe(price);
    expect(toMinor(position!.pricePnl)).toBe(toMinor(price * 100) - toMinor(bought.openPrice * 100));
    // The buy fee is already charged: the open position's pnl is net of it.
    expect(toMinor(position!.pnl)).toBe(toMinor(position!.pricePnl) - toMinor(bought.buyFee));
    expect(position!.yield).toBeCloseTo(position!.pnl / position!.margin, 5);
    const us = data(await user.client.get<User>('/user/getUserInfo.do')).accounts.find(
      (a) => a.type === 'us',
    )!;
    expect(us.frozenMargin).toBe(bought.margin);
    expect(us.positionPnl).toBe(position!.pnl);
    // The fees have left the balance already: the total adds the price pnl, not the net one.
    expect(toMinor(us.totalAssets)).toBe(
      toMinor(us.balance) + toMinor(us.frozenMargin) + toMinor(position!.pricePnl),
    );
    // Nothing is held by limit orders here: available is the whole balance.
    expect(us.available).toBe(us.balance);
    expect(
      data(await user.client.get<Page<Position>>('/user/position/list.do', { state: 'open', market: 'a' }))
        .total,
    ).toBe(0);
  });
});

describe.each(dbTargets)('trading hours and KYC (%s)', (db) => {
  it('refuses orders on a Saturday with CLOCK_MODE=real (OUTSIDE_TRADING_HOURS), also for closing', async () => {
    // Friday 14 March 2025, 11:00 in New York (EDT) and 23:00 in Shanghai.
    const clock = new FixedClock(Date.UTC(2025, 2, 14, 15, 0));
    const station = await startStation({ db, clock, env: { CLOCK_MODE: 'real' } });
    try {
      const user = await register(api(station.url));
      const aapl = data(
        await api(station.url).get<StockDetail>('/api/stock/getSingleStock.do', { code: 'AAPL' }),
      );
      expect(aapl.status).toBe('trading');
      const moutai = data(
        await api(station.url).get<StockDetail>('/api/stock/getSingleStock.do', { code: '600519' }),
      );
      expect(moutai.status).toBe('closed');
      const night = await user.client.post('/user/buy.do', {
        code: '600519',
        lots: 1,
        leverage: 1,
        requestId: newRequestId(),
      });
      expect(failure(night)).toMatchObject({
        status: 409,
        code: 'OUTSIDE_TRADING_HOURS',
        msg: '下单失败，不在交易时间内',
      });
      const bought = data(
        await user.client.post<Position>('/user/buy.do', {
          code: 'AAPL',
          lots: 1,
          leverage: 1,
          requestId: newRequestId(),
        }),
      );

      clock.set(Date.UTC(2025, 2, 15, 15, 0)); // Saturday
      const before = await station.counts();
      const buy = await user.client
        .withLang('en')
        .post('/user/buy.do', { code: 'AAPL', lots: 1, leverage: 1, requestId: newRequestId() });
      expect(buy.http).toBe(409);
      expect(failure(buy)).toMatchObject({
        code: 'OUTSIDE_TRADING_HOURS',
        msg: 'Placing the order failed: not within trading hours',
      });
      const sell = await user.client.post('/user/sell.do', {
        positionId: bought.id,
        requestId: newRequestId(),
      });
      expect(failure(sell)).toMatchObject({
        status: 409,
        code: 'OUTSIDE_TRADING_HOURS',
        msg: '平仓失败，不在交易时间内',
      });
      expect(await station.counts()).toEqual(before);
      await station.assertLedger();
    } finally {
      await station.close();
    }
  });

  it('makes A-shares bought on a Friday sellable at Monday 09:30 Shanghai (CLOCK_MODE=real)', async () => {
    const clock = new FixedClock(Date.UTC(2025, 2, 14, 2, 0)); // Friday 10:00 Shanghai
    const station = await startStation({ db, clock, env: { CLOCK_MODE: 'real' } });
    try {
      const user = await register(api(station.url));
      const bought = data(
        await user.client.post<Position>('/user/buy.do', {
          code: '688981',
          lots: 1,
          leverage: 1,
          requestId: newRequestId(),
        }),
      );
      expect(bought.sellableFrom).toBe(Date.UTC(2025, 2, 17, 1, 30));
      clock.set(Date.UTC(2025, 2, 17, 1, 31));
      data(await user.client.post('/user/sell.do', { positionId: bought.id, requestId: newRequestId() }));
      await station.assertLedger();
    } finally {
      await station.close();
    }
  });

  it('asks for KYC before orders when ORDERS_NEED_KYC=true', async () => {
    const station = await startStation({ db, env: { ORDERS_NEED_KYC: 'true' } });
    try {
      const user = await register(api(station.url));
      const res = await user.client.post('/user/buy.do', {
        code: 'AAPL',
        lots: 1,
        leverage: 1,
        requestId: newRequestId(),
      });
      expect(failure(res)).toEqual({ status: 403, code: 'KYC_REQUIRED', msg: '请先完成实名认证' });
    } finally {
      await station.close();
    }
  });
});
