/**
 * Limit orders are true limit orders and day orders, over HTTP on real calendars with a pinned clock: placed
 * while the market is closed they wait for the next session; a buy fills at its trigger or below, a sale
 * (short) at its trigger or above, and the fill price is on the order; an order the market never reaches
 * expires at that session's close with its frozen funds released and the ledger unchanged. Prices are found
 * by scanning the seeded market minute by minute, never hard-coded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, Page, Position, UserMessagePage } from '../../src/shared/api/types';
import { FixedClock } from '../../server/market/clock';
import { expireDayOrders } from '../../server/trading/order-expiry';
import {
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

type Station = TestStation<FixedClock>;
const MINUTE = 60_000;

// Saturday 2025-03-15 03:00 UTC: every market is closed.
const SATURDAY = Date.UTC(2025, 2, 15, 3, 0, 0);
// Monday 2025-03-17 in Shanghai: 09:30-11:30 and 13:00-15:00 are 01:30-03:30 and 05:00-07:00 UTC.
const MONDAY_OPEN = Date.UTC(2025, 2, 17, 1, 30, 0);
const MONDAY_CLOSE = Date.UTC(2025, 2, 17, 7, 0, 0);

/** The trading minutes of an A-share on Monday with their prices. */
function mondayMinutes(station: Station, code: string): { t: number; price: number }[] {
  const market = station.app.market;
  const instrument = market.get(code);
  const out: { t: number; price: number }[] = [];
  for (let t = MONDAY_OPEN; t < MONDAY_CLOSE; t += MINUTE) {
    if (market.status(instrument, t) === 'trading') out.push({ t, price: market.quote(instrument, t).price });
  }
  return out;
}

async function accountOf(station: Station, userId: number) {
  const row = await station.app.db
    .selectFrom('accounts')
    .selectAll()
    .where('user_id', '=', userId)
    .where('type', '=', 'main')
    .executeTakeFirstOrThrow();
  return { balance: Number(row.balance), frozen: Number(row.frozen) };
}

async function ordersOf(user: Registered): Promise<Order[]> {
  return data(await user.client.get<Page<Order>>('/user/order/list.do', { pageSize: 50 })).list;
}

async function place(user: Registered, body: Record<string, unknown>): Promise<Order> {
  return data(
    await user.client.post<Order>('/user/addOrder.do', {
      lots: 1,
      leverage: 1,
      requestId: newRequestId(),
      ...body,
    }),
  );
}

describe.each(dbTargets)('day limit orders (%s, real calendars)', (db) => {
  let station: Station;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db, env: { CLOCK_MODE: 'real' }, clock: new FixedClock(SATURDAY) });
    client = api(station.url);
    station.config.settings.shortStocks = true;
    await station.app.engine.step();
  });
  afterAll(async () => station?.close());

  it('fills in the next session at the limit or better, or expires at its close with the funds released', async () => {
    const code = '600036';
    const minutes = mondayMinutes(station, code);
    expect(minutes.length).toBeGreaterThan(200);
    const midday = minutes[Math.floor(minutes.length / 2)]!;
    const lowest = Math.min(...minutes.map((m) => m.price));
    const limits = station.app.market.detail(station.app.market.get(code), MONDAY_OPEN + MINUTE);
    // A buy one tick below the day's lowest price is never reached.
    const unreached = Number((lowest - 0.01).toFixed(2));
    expect(unreached).toBeGreaterThanOrEqual(limits.limitDown!);

    const buyer = await register(client);
    const seller = await register(client);
    const idle = await register(client);
    const start = await accountOf(station, idle.user.id);
    const startEntries = await ledgerEntriesOf(station, idle.user.id);

    const buy = await place(buyer, { code, triggerPrice: midday.price });
    const sell = await place(seller, { code, triggerPrice: midday.price, direction: 'short' });
    const waiting = await place(idle, { code, triggerPrice: unreached });
    for (const order of [buy, sell, waiting]) {
      expect(order).toMatchObject({ status: 'pending', fillPrice: null, expiresAt: MONDAY_CLOSE });
    }
    expect((await accountOf(station, idle.user.id)).frozen).toBe(Math.round(waiting.frozen * 100));

    // Nothing fills over the weekend.
    station.clock.set(MONDAY_OPEN - MINUTE);
    await station.app.engine.step();
    expect((await ordersOf(buyer))[0]!.status).toBe('pending');

    station.clock.set(MONDAY_CLOSE - MINUTE);
    await station.app.engine.step();
    const buyFill = minutes.find((m) => m.price <= midday.price)!;
    const filledBuy = (await ordersOf(buyer))[0]!;
    expect(filledBuy).toMatchObject({ status: 'filled', fillPrice: buyFill.price, updatedAt: buyFill.t });
    expect(filledBuy.fillPrice!).toBeLessThanOrEqual(buy.triggerPrice);
    const sellFill = minutes.find((m) => m.price >= midday.price)!;
    const filledSell = (await ordersOf(seller))[0]!;
    expect(filledSell).toMatchObject({ status: 'filled', fillPrice: sellFill.price, updatedAt: sellFill.t });
    expect(filledSell.fillPrice!).toBeGreaterThanOrEqual(sell.triggerPrice);
    const [position] = data(
      await seller.client.get<Page<Position>>('/user/position/list.do', { state: 'open', pageSize: 10 }),
    ).list;
    expect(position).toMatchObject({ direction: 'short', openPrice: filledSell.fillPrice });

    // Still pending in the session's last minute; expired at its close.
    expect((await ordersOf(idle))[0]!.status).toBe('pending');
    station.clock.set(MONDAY_CLOSE + 5 * MINUTE);
    const result = await station.app.engine.step();
    expect(result.expiries).toBe(1);
    expect((await ordersOf(idle))[0]).toMatchObject({
      status: 'cancelled',
      rejectReason: 'EXPIRED',
      updatedAt: MONDAY_CLOSE,
      fillPrice: null,
    });
    expect(await accountOf(station, idle.user.id)).toEqual(start);
    expect((await ledgerEntriesOf(station, idle.user.id)).sum).toBe(start.balance);
    // Frozen funds are not a ledger movement: the expiry writes no entry and the balance is its entries' sum.
    expect(await ledgerEntriesOf(station, idle.user.id)).toEqual(startEntries);
    // The user is told, in their language, with the order's code, lots and price.
    const messages = data(
      await idle.client.withLang('en').get<UserMessagePage>('/user/cash/getMessagelist.do', { pageSize: 10 }),
    ).list;
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      kind: 'order_expired',
      title: 'Limit order expired',
      refId: waiting.id,
    });
    expect(messages[0]!.content).toContain(code);
    expect(messages[0]!.content).toContain(String(unreached));
    await station.assertLedger();
  });

  it('expires by (from, to): only the orders whose close lies in the window', async () => {
    // Placed after Monday's close: worked on Tuesday, expiring at Tuesday's close.
    const tuesdayClose = MONDAY_CLOSE + 24 * 60 * MINUTE;
    const user = await register(client);
    const code = '600000';
    const limits = station.app.market.detail(station.app.market.get(code), tuesdayClose - 60 * MINUTE);
    const order = await place(user, { code, triggerPrice: limits.limitDown });
    expect(order.expiresAt).toBe(tuesdayClose);
    expect(await expireDayOrders(station.app.station, MONDAY_CLOSE, tuesdayClose - 1)).toBe(0);
    expect(await expireDayOrders(station.app.station, tuesdayClose - 1, tuesdayClose)).toBe(1);
    expect(await expireDayOrders(station.app.station, tuesdayClose - 1, tuesdayClose)).toBe(0);
    expect((await ordersOf(user))[0]).toMatchObject({ status: 'cancelled', rejectReason: 'EXPIRED' });
    expect((await accountOf(station, user.user.id)).frozen).toBe(0);
    await station.assertLedger();
  });
});

/** The ledger entries (type and amount) of a user's main account and their sum. */
async function ledgerEntriesOf(station: Station, userId: number) {
  const rows = await station.app.db
    .selectFrom('ledger_entries')
    .innerJoin('accounts', 'accounts.id', 'ledger_entries.account_id')
    .select(['ledger_entries.type', 'ledger_entries.amount'])
    .where('ledger_entries.user_id', '=', userId)
    .where('accounts.type', '=', 'main')
    .orderBy('ledger_entries.id')
    .execute();
  return { rows, sum: rows.reduce((s, r) => s + Number(r.amount), 0) };
}
