/**
 * Margin top-up, exitsStock, the paper-account reset and the account figures, plus the stock
 * fees of DOMAIN.md to the cent for A-shares, STAR and Hong Kong, over HTTP with a pinned clock.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Account, LedgerEntry, Page, Position, StockDetail, User } from '../../src/shared/api/types';
import { formatMoney } from '../../src/shared/format';
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
const LINE = 1.05;
const INDEX_START = 500_000;

const fen = (major: number) => Math.round(Number((major * 100).toFixed(6)));
const onTick = (price: number, tick: number) => Number((Math.round(price / tick) * tick).toFixed(6));
/** A rate of `perBillion` / 10⁹ applied to fen, rounded half up in exact integer arithmetic. */
const rate = (valueFen: number, perBillion: number) =>
  Math.floor((valueFen * perBillion + 500_000_000) / 1_000_000_000);

async function accounts(user: Registered): Promise<Record<Account['type'], Account>> {
  const list = data(await user.client.get<User>('/user/getUserInfo.do')).accounts;
  return Object.fromEntries(list.map((a) => [a.type, a])) as Record<Account['type'], Account>;
}

async function ledger(user: Registered, account?: Account['type']): Promise<Page<LedgerEntry>> {
  return data(await user.client.get<Page<LedgerEntry>>('/user/cash/list.do', { account, pageSize: 100 }));
}

describe.each(dbTargets)('top-up, exitsStock, reset and account figures (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    station.config.settings.startingBalances.index = INDEX_START;
    client = api(station.url);
  });
  afterAll(async () => station?.close());
  afterEach(async () => {
    await station.assertLedger();
    station.clock.set(T0);
  });

  const buy = (user: Registered, path: string, body: Record<string, unknown>) =>
    user.client.post<Position>(path, { requestId: newRequestId(), ...body });

  it("tops up a long's margin from the available funds and lowers its liquidation price", async () => {
    const user = await register(client);
    const bought = data(
      await buy(user, '/user/buyIndex.do', { code: 'SH000300', lots: 1, leverage: 10, direction: 'long' }),
    );
    const value = fen(bought.openPrice * 300);
    const before = await accounts(user);
    const requestId = newRequestId();
    const topped = data(
      await user.client.post<Position>('/user/position/topUp.do', {
        positionId: bought.id,
        amount: 12_345.67,
        requestId,
      }),
    );
    const margin = fen(bought.margin) + 1_234_567;
    expect(fen(topped.margin)).toBe(margin);
    expect(topped).toMatchObject({ id: bought.id, lots: 1, leverage: 10, closedAt: null });
    // The account's R = (available cash + price × shares) ÷ (value − margin) reaches the line: the top-up
    // lowers what is borrowed by its amount and the cash by as much, so the price falls.
    const cash = fen((await accounts(user)).index.available);
    expect(topped.liquidationPrice).toBe(onTick((LINE * (value - margin) - cash) / 100 / 300, 0.01));
    expect(topped.liquidationPrice!).toBeLessThan(bought.liquidationPrice!);
    // The yield is now on the larger margin.
    expect(topped.yield).toBeCloseTo(topped.pnl / topped.margin, 5);

    const after = await accounts(user);
    expect(fen(after.index.balance)).toBe(fen(before.index.balance) - 1_234_567);
    expect(fen(after.index.available)).toBe(fen(before.index.available) - 1_234_567);
    expect(fen(after.index.frozenMargin)).toBe(margin);
    // Moving cash into margin leaves the total assets where they were.
    expect(after.index.totalAssets).toBe(before.index.totalAssets);
    const [entry] = (await ledger(user, 'index')).list;
    expect(entry).toMatchObject({
      type: 'top_up',
      amount: -12_345.67,
      account: 'index',
      refType: 'position',
      refId: bought.id,
      balanceAfter: after.index.balance,
    });

    // The same requestId again: the first answer, nothing moves.
    const counts = await station.counts();
    expect(
      data(
        await user.client.post<Position>('/user/position/topUp.do', {
          positionId: bought.id,
          amount: 12_345.67,
          requestId,
        }),
      ),
    ).toEqual(topped);
    expect(await station.counts()).toEqual(counts);

    // Closing pays back the whole margin, top-up included.
    station.clock.advance(HOUR);
    const sold = data(
      await user.client.post<Position>('/user/sell.do', { positionId: bought.id, requestId: newRequestId() }),
    );
    expect(fen(sold.margin)).toBe(margin);
    const closed = await accounts(user);
    expect(fen(closed.index.balance)).toBe(
      fen(INDEX_START) - fen(bought.buyFee) + fen(sold.pricePnl) - fen(sold.sellFee),
    );
  });

  it("tops up a short: cash and margin both back it, so its account's liquidation price stays", async () => {
    const user = await register(client);
    const sold = data(
      await buy(user, '/user/buyFutures.do', { code: 'IF0', lots: 1, leverage: 8, direction: 'short' }),
    );
    const topped = data(
      await user.client.post<Position>('/user/position/topUp.do', {
        positionId: sold.id,
        amount: 20_000,
        requestId: newRequestId(),
      }),
    );
    expect(fen(topped.margin)).toBe(fen(sold.margin) + 2_000_000);
    // DOMAIN.md: R = (cash + open value + margin) ÷ (price × shares) for the account; the top-up moves
    // available cash into the margin, so R at any price, and the liquidation price, do not change.
    const value = fen(sold.openPrice * 300);
    const cash = fen((await accounts(user)).index.available);
    expect(topped.liquidationPrice).toBe(
      onTick((cash + value + fen(sold.margin) + 2_000_000) / 100 / (LINE * 300), 0.2),
    );
    expect(topped.liquidationPrice).toBe(sold.liquidationPrice);
  });

  it('refuses a bad top-up with a clear message and writes nothing', async () => {
    const user = await register(client);
    const other = await register(client);
    const bought = data(await buy(user, '/user/buy.do', { code: 'AAPL', lots: 100, leverage: 5 }));
    const borrowed = fen(bought.openPrice * 100) - fen(bought.margin);
    const before = await station.counts();
    const ask = (body: Record<string, unknown>, who = user) =>
      who.client.post('/user/position/topUp.do', {
        positionId: bought.id,
        amount: 10,
        requestId: newRequestId(),
        ...body,
      });
    expect(failure(await ask({ amount: 0 }))).toMatchObject({
      status: 400,
      code: 'VALIDATION',
      msg: '追加保证金金额必须大于0',
      fields: { amount: '格式不正确' },
    });
    expect(failure(await ask({ amount: -5 })).msg).toBe('追加保证金金额必须大于0');
    expect(failure(await ask({ amount: 1.005 })).fields).toEqual({ amount: '格式不正确' });
    expect(failure(await ask({ amount: 'ten' })).fields).toEqual({ amount: '格式不正确' });
    expect(failure(await ask({ amount: undefined })).fields).toEqual({ amount: '此项为必填项' });
    const tooMuch = failure(
      await user.client.withLang('en').post('/user/position/topUp.do', {
        positionId: bought.id,
        amount: borrowed / 100 + 0.01,
        requestId: newRequestId(),
      }),
    );
    expect(tooMuch).toEqual({
      status: 400,
      code: 'ABOVE_MAXIMUM',
      msg: `The margin top-up can be at most ${formatMoney(borrowed / 100, 'en')}`,
    });
    expect(failure(await ask({}, other))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(failure(await ask({ positionId: 987_654_321 })).code).toBe('NOT_FOUND');
    expect(await station.counts()).toEqual(before);

    // More than available: a pending order holds all but US$50 of the balance.
    const us = await station.app.db
      .selectFrom('accounts')
      .selectAll()
      .where('user_id', '=', user.user.id)
      .where('type', '=', 'us')
      .executeTakeFirstOrThrow();
    await station.app.db
      .updateTable('accounts')
      .set({ frozen: us.balance - 5_000 })
      .where('id', '=', us.id)
      .execute();
    expect((await accounts(user)).us.available).toBe(50);
    expect(failure(await ask({ amount: 50.01 }))).toEqual({
      status: 409,
      code: 'INSUFFICIENT_FUNDS',
      msg: '可用资金不足',
    });
    expect(await station.counts()).toEqual(before);
    data(await ask({ amount: 50 }));
    expect((await accounts(user)).us.available).toBe(0);
    await station.app.db.updateTable('accounts').set({ frozen: 0 }).where('id', '=', us.id).execute();

    // A closed position takes no top-up.
    data(await user.client.post('/user/sell.do', { positionId: bought.id, requestId: newRequestId() }));
    expect(failure(await ask({}))).toEqual({
      status: 409,
      code: 'ALREADY_DONE',
      msg: '该持仓已平仓',
    });
  });

  it('answers exitsStock.do: whether and how many lots of a code the user holds open', async () => {
    const user = await register(client);
    const held = (code: string) =>
      user.client.get<{ held: boolean; lots: number; positions: number }>('/user/position/exitsStock.do', {
        code,
      });
    expect(data(await held('AAPL'))).toEqual({ held: false, lots: 0, positions: 0 });
    const a = data(await buy(user, '/user/buy.do', { code: 'AAPL', lots: 3, leverage: 1 }));
    data(await buy(user, '/user/buy.do', { code: 'AAPL', lots: 5, leverage: 2 }));
    expect(data(await held('aapl'))).toEqual({ held: true, lots: 8, positions: 2 });
    data(await user.client.post('/user/sell.do', { positionId: a.id, lots: 1, requestId: newRequestId() }));
    expect(data(await held('AAPL'))).toEqual({ held: true, lots: 7, positions: 2 });
    data(await buy(user, '/user/buyIndex.do', { code: 'HSI', lots: 2, leverage: 20, direction: 'short' }));
    expect(data(await held('HSI'))).toEqual({ held: true, lots: 2, positions: 1 });
    expect(data(await held('IF0'))).toEqual({ held: false, lots: 0, positions: 0 });
    // Someone else's holdings are not mine.
    const other = await register(client);
    expect(data(await other.client.get('/user/position/exitsStock.do', { code: 'AAPL' }))).toEqual({
      held: false,
      lots: 0,
      positions: 0,
    });
    expect(failure(await held('NOPE1'))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(failure(await held('<b>')).fields).toEqual({ code: '格式不正确' });
    expect((await api(station.url).get('/user/position/exitsStock.do', { code: 'AAPL' })).http).toBe(401);
  });

  it('resets the paper account only when nothing is open or pending, one reset entry per account', async () => {
    const user = await register(client);
    const aapl = data(await buy(user, '/user/buy.do', { code: 'AAPL', lots: 10, leverage: 1 }));
    const gold = data(
      await buy(user, '/user/buyFutures.do', { code: 'AU0', lots: 1, leverage: 8, direction: 'long' }),
    );
    const before = await station.counts();
    const refused = await user.client.post('/user/account/reset.do', { requestId: newRequestId() });
    expect(refused.http).toBe(409);
    expect(failure(refused)).toEqual({
      status: 409,
      code: 'RESET_BLOCKED',
      msg: '您还有未平仓的持仓，请全部平仓后再重置模拟账户',
    });
    expect(await station.counts()).toEqual(before);
    station.clock.advance(2 * HOUR);
    for (const p of [aapl, gold]) {
      data(await user.client.post('/user/sell.do', { positionId: p.id, requestId: newRequestId() }));
    }

    // A pending limit order blocks it too.
    const order = await station.app.db
      .insertInto('orders')
      .values({
        user_id: user.user.id,
        account_id: (
          await station.app.db
            .selectFrom('accounts')
            .select('id')
            .where('user_id', '=', user.user.id)
            .where('type', '=', 'main')
            .executeTakeFirstOrThrow()
        ).id,
        code: '600519',
        market: 'a',
        direction: 'long',
        lots: 1,
        leverage: 1,
        trigger_price: 1,
        stop_profit: null,
        stop_loss: null,
        frozen: 0,
        status: 'pending',
        reject_reason: null,
        position_id: null,
        created_at: T0,
        updated_at: T0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(
      failure(await user.client.withLang('en').post('/user/account/reset.do', { requestId: newRequestId() })),
    ).toEqual({
      status: 409,
      code: 'RESET_BLOCKED',
      msg: 'You still have pending orders: revoke them before resetting the play account',
    });
    await station.app.db
      .updateTable('orders')
      .set({ status: 'cancelled' })
      .where('id', '=', order.id)
      .execute();

    const changed = await accounts(user);
    const entriesBefore = (await ledger(user)).total;
    expect(changed.us.balance).not.toBe(100_000);
    expect(changed.index.balance).not.toBe(INDEX_START);
    const requestId = newRequestId();
    const reset = data(await user.client.post<Account[]>('/user/account/reset.do', { requestId }));
    expect(reset.map((a) => [a.type, a.balance, a.available, a.totalAssets])).toEqual([
      ['main', 1_000_000, 1_000_000, 1_000_000],
      ['index', INDEX_START, INDEX_START, INDEX_START],
      ['newstock', 0, 0, 0],
      ['hk', 100_000, 100_000, 100_000],
      ['us', 100_000, 100_000, 100_000],
    ]);
    const flow = (await ledger(user)).list;
    const resets = flow.filter((e) => e.type === 'reset');
    // Main and HK were never touched: only the US and index accounts get an entry, of the difference.
    expect(resets.map((e) => [e.account, fen(e.amount)]).sort()).toEqual(
      [
        ['index', fen(INDEX_START) - fen(changed.index.balance)],
        ['us', fen(100_000) - fen(changed.us.balance)],
      ].sort(),
    );
    expect(resets.every((e) => e.refType === 'reset')).toBe(true);
    // History stays: the closed positions and every earlier entry.
    expect(
      data(await user.client.get<Page<Position>>('/user/position/list.do', { state: 'closed' })).total,
    ).toBe(2);
    expect(flow.length).toBe(entriesBefore + resets.length);
    // Run once per requestId.
    const counts = await station.counts();
    expect(data(await user.client.post<Account[]>('/user/account/reset.do', { requestId }))).toEqual(reset);
    expect(await station.counts()).toEqual(counts);
    // A second reset with nothing changed writes nothing.
    data(await user.client.post('/user/account/reset.do', { requestId: newRequestId() }));
    expect((await station.counts()).ledger).toBe(counts.ledger);
    expect((await api(station.url).post('/user/account/reset.do', { requestId: newRequestId() })).http).toBe(
      401,
    );
  });

  it('shows available = balance − frozen and totalAssets = balance + frozenMargin + price pnl', async () => {
    const user = await register(client);
    const bought = data(await buy(user, '/user/buy.do', { code: '00700', lots: 2, leverage: 2 }));
    await station.app.db
      .updateTable('accounts')
      .set({ frozen: 1_000_000 })
      .where('user_id', '=', user.user.id)
      .where('type', '=', 'hk')
      .execute();
    station.clock.advance(HOUR);
    const [position] = data(
      await user.client.get<Page<Position>>('/user/position/list.do', { state: 'open', market: 'hk' }),
    ).list;
    const { hk } = await accounts(user);
    const balance = fen(100_000) - fen(bought.margin) - fen(bought.buyFee);
    expect(fen(hk.balance)).toBe(balance);
    expect(fen(hk.available)).toBe(balance - 1_000_000);
    expect(hk.frozenMargin).toBe(bought.margin);
    expect(hk.positionPnl).toBe(position!.pnl);
    expect(fen(hk.totalAssets)).toBe(balance + fen(bought.margin) + fen(position!.pricePnl));
    expect(fen(position!.pnl)).toBe(fen(position!.pricePnl) - fen(bought.buyFee));
    expect(hk).toMatchObject({ currency: 'HKD', liquidationLine: LINE });
    await station.app.db
      .updateTable('accounts')
      .set({ frozen: 0 })
      .where('user_id', '=', user.user.id)
      .where('type', '=', 'hk')
      .execute();
  });

  it('charges A-share, STAR and Hong Kong fees to the cent on both sides (DOMAIN.md)', async () => {
    const user = await register(client);
    // A-share: commission 0.025% (min ¥5) + transfer fee 0.001%; sells add stamp duty 0.05%.
    const aShare = (v: number, side: 'buy' | 'sell') => ({
      fee: Math.max(rate(v, 250_000), 500) + rate(v, 10_000),
      stamp: side === 'sell' ? rate(v, 500_000) : 0,
    });
    // Hong Kong, both sides: commission 0.03% (min HK$3), stamp duty 0.1% rounded up to HK$1, SFC levy
    // 0.0027%, trading fee 0.00565%, AFRC levy 0.00015%, settlement 0.0042% with no minimum or maximum
    // (since 30 June 2025).
    const hkFee = (v: number) =>
      Math.max(rate(v, 300_000), 300) +
      Math.ceil(v / 100_000) * 100 +
      rate(v, 27_000) +
      rate(v, 56_500) +
      rate(v, 1_500) +
      rate(v, 42_000);
    const price = async (code: string) =>
      data(await client.get<StockDetail>('/api/stock/getSingleStock.do', { code })).price;

    const cases = [
      { code: '601398', lots: 1, market: 'a' }, // small: the ¥5 minimum commission
      { code: '600519', lots: 3, market: 'a' },
      { code: '688981', lots: 2, market: 'star' },
      { code: '00700', lots: 1, market: 'hk' },
      { code: '00005', lots: 1, market: 'hk' },
    ] as const;
    const opened: { position: Position; shares: number; market: string }[] = [];
    for (const c of cases) {
      const p = await price(c.code);
      const position = data(await buy(user, '/user/buy.do', { code: c.code, lots: c.lots, leverage: 2 }));
      const value = fen(p * position.shares);
      expect(position.market).toBe(c.market);
      const expected = c.market === 'hk' ? hkFee(value) : aShare(value, 'buy').fee;
      expect([c.code, fen(position.buyFee)]).toEqual([c.code, expected]);
      opened.push({ position, shares: position.shares, market: c.market });
    }
    station.clock.advance(DAY); // A-shares are T+1
    for (const { position, shares, market } of opened) {
      const p = await price(position.code);
      const sold = data(
        await user.client.post<Position>('/user/sell.do', {
          positionId: position.id,
          requestId: newRequestId(),
        }),
      );
      const value = fen(p * shares);
      if (market === 'hk') {
        expect([position.code, fen(sold.sellFee) + fen(sold.stampDuty)]).toEqual([
          position.code,
          hkFee(value),
        ]);
      } else {
        const { fee, stamp } = aShare(value, 'sell');
        expect([position.code, fen(sold.sellFee), fen(sold.stampDuty)]).toEqual([position.code, fee, stamp]);
      }
    }
  });
});
