/**
 * Limit orders over HTTP: placing (validation, frozen funds, idempotency, outside trading hours),
 * listing, revoking; accounts.frozen always equals what the pending orders hold.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { toMinor } from '../../src/shared/money';
import type { Order, Page } from '../../src/shared/api/types';
import { FixedClock } from '../../server/market/clock';
import { tradeFees } from '../../server/trading/fees';
import { marginFor } from '../../server/trading/margin';
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

/** Margin + buy fees of an A-share order at `price`, minor units: what the order must freeze. */
function aShareCost(
  station: TestStation<FixedClock>,
  price: number,
  shares: number,
  leverage: number,
): number {
  const value = toMinor(price * shares);
  return (
    marginFor(value, leverage) + tradeFees('a', 'buy', { shares, value }, station.config.settings.fees).total
  );
}

async function frozenOf(station: TestStation<FixedClock>, userId: number, type = 'main'): Promise<number> {
  const row = await station.app.db
    .selectFrom('accounts')
    .select(['frozen'])
    .where('user_id', '=', userId)
    .where('type', '=', type as 'main')
    .executeTakeFirstOrThrow();
  return Number(row.frozen);
}

/** Every account's frozen equals the sum of its pending orders' frozen. */
async function assertFrozenMatchesOrders(station: TestStation<FixedClock>): Promise<void> {
  const accounts = await station.app.db.selectFrom('accounts').select(['id', 'frozen']).execute();
  const orders = await station.app.db
    .selectFrom('orders')
    .select(['account_id', 'frozen'])
    .where('status', '=', 'pending')
    .execute();
  for (const account of accounts) {
    const held = orders.filter((o) => o.account_id === account.id).reduce((s, o) => s + Number(o.frozen), 0);
    expect(Number(account.frozen), `account ${account.id}`).toBe(held);
  }
}

function priceNow(station: TestStation<FixedClock>, code: string): number {
  const market = station.app.market;
  return market.quote(market.get(code)).price;
}

describe.each(dbTargets)('limit orders (%s, always-open)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
  });
  afterAll(async () => station?.close());
  afterEach(async () => {
    await station.assertLedger();
    await assertFrozenMatchesOrders(station);
  });

  async function place(user: Registered, fields: Record<string, unknown>) {
    return user.client.post<Order>('/user/addOrder.do', { requestId: newRequestId(), ...fields });
  }

  it('places a pending order that freezes margin + fees at the trigger price, and lists it', async () => {
    const user = await register(client);
    const price = priceNow(station, '600036');
    const trigger = Number((price * 0.97).toFixed(2));
    const order = data(
      await place(user, { code: '600036', lots: 10, leverage: 2, triggerPrice: trigger, stopLoss: 1 }),
    );
    expect(order).toMatchObject({
      code: '600036',
      lots: 10,
      leverage: 2,
      triggerPrice: trigger,
      status: 'pending',
      rejectReason: null,
      positionId: null,
      market: 'a',
      direction: 'long',
      stopProfit: null,
      stopLoss: 1,
      createdAt: T0,
    });
    expect(order.name).not.toBe('');
    const expected = aShareCost(station, trigger, 1000, 2);
    expect(toMinor(order.frozen)).toBe(expected);
    expect(await frozenOf(station, user.user.id)).toBe(expected);
    // Freezing is not a ledger movement: the balance is untouched.
    const entries = await station.app.db
      .selectFrom('ledger_entries')
      .select('type')
      .where('user_id', '=', user.user.id)
      .execute();
    expect(entries.map((e) => e.type)).toEqual(['opening_balance', 'opening_balance', 'opening_balance']);

    const second = data(await place(user, { code: '00700', lots: 1, leverage: 1, triggerPrice: 1 }));
    const page = data(await user.client.get<Page<Order>>('/user/order/list.do', {}));
    expect(page.list.map((o) => o.id)).toEqual([second.id, order.id]);
    expect(page.total).toBe(2);
    const pending = data(await user.client.get<Page<Order>>('/user/order/list.do', { status: 'pending' }));
    expect(pending.total).toBe(2);
    const cancelled = data(
      await user.client.get<Page<Order>>('/user/order/list.do', { status: 'cancelled' }),
    );
    expect(cancelled.total).toBe(0);
    // The HK order froze in the HK account.
    expect(await frozenOf(station, user.user.id, 'hk')).toBe(toMinor(second.frozen));
  });

  it('runs once per requestId', async () => {
    const user = await register(client);
    const requestId = newRequestId();
    const low = station.app.market.detail(station.app.market.get('600036')).limitDown!;
    const body = { code: '600036', lots: 1, leverage: 1, triggerPrice: low, requestId };
    const [a, b] = await Promise.all([
      user.client.post<Order>('/user/addOrder.do', body),
      user.client.post<Order>('/user/addOrder.do', body),
    ]);
    expect(data(a).id).toBe(data(b).id);
    const again = data(await user.client.post<Order>('/user/addOrder.do', body));
    expect(again.id).toBe(data(a).id);
    expect(data(await user.client.get<Page<Order>>('/user/order/list.do', {})).total).toBe(1);
    expect(await frozenOf(station, user.user.id)).toBe(toMinor(data(a).frozen));
  });

  it('refuses bad orders with a message and writes nothing', async () => {
    const user = await register(client);
    const en = user.client.withLang('en');
    const detail = station.app.market.detail(station.app.market.get('600036'));
    const cases: [Record<string, unknown>, number, string, string?][] = [
      [{ code: '600036', lots: 1, leverage: 2, triggerPrice: 30.005 }, 400, 'VALIDATION', 'triggerPrice'],
      [{ code: '600036', lots: 1, leverage: 2, triggerPrice: 0 }, 400, 'VALIDATION', 'triggerPrice'],
      [{ code: '600036', lots: 0, leverage: 2, triggerPrice: 30 }, 400, 'VALIDATION', 'lots'],
      [{ code: '600036', lots: 101, leverage: 2, triggerPrice: 30 }, 400, 'VALIDATION', 'lots'],
      [{ code: '600036', lots: 1, leverage: 4, triggerPrice: 30 }, 400, 'VALIDATION', 'leverage'],
      [
        { code: '600036', lots: 1, leverage: 2, triggerPrice: 30, direction: 'short' },
        400,
        'VALIDATION',
        'direction',
      ],
      [
        { code: '600036', lots: 1, leverage: 2, triggerPrice: 30, stopProfit: 29 },
        400,
        'VALIDATION',
        'stopProfit',
      ],
      [
        { code: '600036', lots: 1, leverage: 2, triggerPrice: 30, stopLoss: 31 },
        400,
        'VALIDATION',
        'stopLoss',
      ],
      [{ code: '600036', lots: 1, leverage: 2, triggerPrice: 'abc' }, 400, 'VALIDATION', 'triggerPrice'],
      [{ code: 'NOPE1', lots: 1, leverage: 2, triggerPrice: 30 }, 404, 'NOT_FOUND'],
      [{ code: '600036', lots: 1, leverage: 2, triggerPrice: detail.limitUp! + 0.01 }, 409, 'PRICE_LIMIT'],
      [{ code: '600036', lots: 1, leverage: 2, triggerPrice: detail.limitDown! - 0.01 }, 409, 'PRICE_LIMIT'],
      // 100 lots at 10× of 600519 at its limit-up freezes far more than the paper balance.
      [
        { code: '600519', lots: 100, leverage: 1, triggerPrice: priceNow(station, '600519') },
        409,
        'INSUFFICIENT_FUNDS',
      ],
    ];
    const before = await station.counts();
    for (const [body, http, code, field] of cases) {
      const res = await en.post('/user/addOrder.do', { ...body, requestId: newRequestId() });
      expect(res.http, JSON.stringify(body)).toBe(http);
      const fail = failure(res);
      expect(fail.code).toBe(code);
      expect(fail.msg).not.toBe('');
      if (field) expect(Object.keys(fail.fields ?? {})).toContain(field);
    }
    const limit = failure(
      await en.post('/user/addOrder.do', {
        code: '600036',
        lots: 1,
        leverage: 2,
        triggerPrice: detail.limitUp! + 0.01,
        requestId: newRequestId(),
      }),
    );
    expect(limit.msg).toContain(String(detail.limitUp));
    const zh = failure(
      await user.client.post('/user/addOrder.do', {
        code: '600036',
        lots: 1,
        leverage: 2,
        triggerPrice: detail.limitUp! + 0.01,
        requestId: newRequestId(),
      }),
    );
    expect(zh.msg).toContain('涨停价');
    const after = await station.counts();
    expect(after.ledger).toBe(before.ledger);
    expect(data(await user.client.get<Page<Order>>('/user/order/list.do', {})).total).toBe(0);
    expect(await frozenOf(station, user.user.id)).toBe(0);
  });

  it('refuses an order when balance − frozen does not cover it', async () => {
    const user = await register(client);
    const price = priceNow(station, '600519');
    // Each order freezes a little over half the paper balance: the second one does not fit.
    const lots = Math.ceil(toMinor(560_000) / toMinor(price * 100));
    const first = data(await place(user, { code: '600519', lots, leverage: 1, triggerPrice: price }));
    expect(toMinor(first.frozen)).toBeGreaterThan(toMinor(500_000));
    const second = await place(user, { code: '600519', lots, leverage: 1, triggerPrice: price });
    expect(second.http).toBe(409);
    expect(failure(second).code).toBe('INSUFFICIENT_FUNDS');
    expect(await frozenOf(station, user.user.id)).toBe(toMinor(first.frozen));
  });

  it('revokes a pending order, releasing its funds; a second revoke is ALREADY_DONE', async () => {
    const user = await register(client);
    const other = await register(client);
    const low = station.app.market.detail(station.app.market.get('600036')).limitDown!;
    const order = data(await place(user, { code: '600036', lots: 5, leverage: 3, triggerPrice: low }));
    const kept = data(await place(user, { code: '600036', lots: 2, leverage: 1, triggerPrice: low }));
    expect(await frozenOf(station, user.user.id)).toBe(toMinor(order.frozen) + toMinor(kept.frozen));

    const notMine = await other.client.post('/user/order/cancel.do', {
      orderId: order.id,
      requestId: newRequestId(),
    });
    expect(notMine.http).toBe(404);
    expect(failure(notMine).code).toBe('NOT_FOUND');

    station.clock.advance(60_000);
    const requestId = newRequestId();
    const cancelled = data(
      await user.client.post<Order>('/user/order/cancel.do', { orderId: order.id, requestId }),
    );
    expect(cancelled).toMatchObject({ id: order.id, status: 'cancelled', updatedAt: station.clock.now() });
    expect(await frozenOf(station, user.user.id)).toBe(toMinor(kept.frozen));
    // The same requestId answers the same; a new one finds it done.
    expect(
      data(await user.client.post<Order>('/user/order/cancel.do', { orderId: order.id, requestId })).status,
    ).toBe('cancelled');
    const again = await user.client.post('/user/order/cancel.do', {
      orderId: order.id,
      requestId: newRequestId(),
    });
    expect(again.http).toBe(409);
    expect(failure(again).code).toBe('ALREADY_DONE');
    expect(await frozenOf(station, user.user.id)).toBe(toMinor(kept.frozen));
    const list = data(await user.client.get<Page<Order>>('/user/order/list.do', { status: 'cancelled' }));
    expect(list.list.map((o) => o.id)).toEqual([order.id]);
    const missing = await user.client.post('/user/order/cancel.do', {
      orderId: 99_999_999,
      requestId: newRequestId(),
    });
    expect(failure(missing).code).toBe('NOT_FOUND');
  });

  it('needs a session', async () => {
    const res = await client.get('/user/order/list.do');
    expect(res.http).toBe(401);
    expect(failure(await client.post('/user/addOrder.do', {})).code).toBe('NOT_LOGGED_IN');
  });
});

describe.each(dbTargets)('limit orders (%s, real calendars)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  // Saturday 2025-03-15 03:00 UTC: every market is closed.
  const SATURDAY = Date.UTC(2025, 2, 15, 3, 0, 0);

  beforeAll(async () => {
    station = await startStation({
      db,
      env: { CLOCK_MODE: 'real', ORDERS_NEED_KYC: 'true' },
      clock: new FixedClock(SATURDAY),
    });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  it('needs KYC when ORDERS_NEED_KYC is on', async () => {
    const user = await register(client);
    const res = await user.client.post('/user/addOrder.do', {
      code: '600036',
      lots: 1,
      leverage: 1,
      triggerPrice: 1,
      requestId: newRequestId(),
    });
    expect(res.http).toBe(403);
    expect(failure(res).code).toBe('KYC_REQUIRED');
  });

  it("accepts an order while the market is closed, checked against the next trading day's limits", async () => {
    const user = await register(client);
    await station.app.db
      .updateTable('users')
      .set({ kyc_status: 'passed' })
      .where('id', '=', user.user.id)
      .execute();
    const market = station.app.market;
    const instrument = market.get('600036');
    expect(market.status(instrument)).toBe('closed');
    // Monday's limits come from Friday's close.
    const monday = Date.UTC(2025, 2, 17, 2, 0, 0);
    const limits = market.detail(instrument, monday);
    const order = data(
      await user.client.post<Order>('/user/addOrder.do', {
        code: '600036',
        lots: 1,
        leverage: 1,
        triggerPrice: limits.limitDown,
        requestId: newRequestId(),
      }),
    );
    expect(order.status).toBe('pending');
    const below = await user.client.post('/user/addOrder.do', {
      code: '600036',
      lots: 1,
      leverage: 1,
      triggerPrice: Number((limits.limitDown! - 0.01).toFixed(2)),
      requestId: newRequestId(),
    });
    expect(failure(below).code).toBe('PRICE_LIMIT');
    // The engine does not fill it over the weekend, whatever the price.
    station.clock.advance(24 * 3_600_000);
    await station.app.engine.step();
    const list = data(await user.client.get<Page<Order>>('/user/order/list.do', {}));
    expect(list.list[0]!.status).toBe('pending');
    await station.assertLedger();
  });
});
