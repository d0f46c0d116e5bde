/**
 * Limit orders (DOMAIN.md "Leverage, margin and liquidation"): a trigger price, funds frozen while pending,
 * revocable while pending, filled by the engine when the market trades through the trigger within a session:
 * a buy at the trigger or below, a sale (short, when stocks may be shorted) at the trigger or above, never
 * worse. The fill price is kept on the order.
 *
 * Rules decided here:
 * - An order may be placed while its market is closed (as at a real broker): it waits and fills only within
 *   a session. A suspended instrument refuses orders (SUSPENDED), as buy.do does.
 * - The trigger must lie on the instrument's tick and within the price limits of the trading day it will
 *   next trade in (today's during a session or the lunch break; the next trading day's after the close).
 * - An order is a day order: unfilled, it expires at the close of the trading day it was placed in, or of
 *   the next trading day when placed after the close or on a closed day (order-expiry.ts).
 * - What it freezes: margin + buy fees at the trigger price. A long fills at a price at or below the
 *   trigger, so the frozen funds cover the fill unless the account lost cash meanwhile; then the order is
 *   rejected (INSUFFICIENT_FUNDS) and its funds released.
 * - Frozen funds are not a ledger movement: accounts.frozen is the sum of pending orders' frozen and
 *   available = balance − frozen.
 */
import { toMajor, toMinor } from '../../src/shared/money';
import type { Direction, Order, OrderStatus, StockMarket } from '../../src/shared/api/types';
import { validStops } from '../../src/shared/risk';
import { quantityUnit } from '../../src/shared/trading-rules';
import {
  AppError,
  assertFields,
  lotsProblem,
  runOnce,
  storedAnswer,
  type AccountRow,
  type DbOrTx,
  type OrderRow,
  type PositionRow,
  type Tx,
  type Station,
} from '../platform';
import { roundToTick, dayCloseTime, nextTradingDay, sessionMinutes, type Instrument } from '../market';
import { tradeFees } from './fees';
import { requireKyc } from '../identity';
import { post, postMessage } from '../ledger';
import { assertOrderLeverage, marginFor } from './margin';
import { assertMarketAllowed, assertShortAllowed } from './trade-rules';
import { lockCompetitionAccount, tradingContext } from '../competitions';
import { sharesPerLot } from './trading';

export interface LimitOrderInput {
  code: string;
  lots: number;
  leverage: number;
  triggerPrice: number;
  direction?: Direction | undefined;
  stopProfit?: number | undefined;
  stopLoss?: number | undefined;
  /** Place it in this competition's accounts, under its limits (server/competitions). */
  competitionId?: number | undefined;
  requestId: string;
}

/** Margin and buy fees of `lots` of an instrument at `price`, in minor units. */
export function openingCost(
  station: Station,
  instrument: Instrument,
  lots: number,
  leverage: number,
  price: number,
): { shares: number; value: number; margin: number; fees: ReturnType<typeof tradeFees>; total: number } {
  const shares = lots * sharesPerLot(station, instrument);
  const value = toMinor(price * shares);
  const margin = marginFor(value, leverage);
  const fees = tradeFees(
    instrument.market,
    'buy',
    { shares, value, code: instrument.code },
    station.config.settings.fees,
  );
  return { shares, value, margin, fees, total: margin + fees.total };
}

export function toOrder(row: OrderRow, instrument: Instrument | undefined): Order {
  return {
    id: row.id,
    code: row.code,
    name: instrument?.name ?? row.code,
    lots: row.lots,
    leverage: row.leverage,
    triggerPrice: row.trigger_price,
    status: row.status,
    rejectReason: row.reject_reason,
    positionId: row.position_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    market: row.market,
    direction: row.direction,
    stopProfit: row.stop_profit,
    stopLoss: row.stop_loss,
    frozen: toMajor(row.frozen),
    fillPrice: row.fill_price,
    expiresAt: row.expires_at,
  };
}

/** The trading day an order placed at `now` is worked in: today until the close, then the next trading day. */
function workingDay(station: Station, instrument: Instrument, now: number): number {
  const hours = station.market.hours(instrument);
  const pos = station.market.position(instrument, now);
  return !pos.inSession && pos.elapsed >= sessionMinutes(hours) ? nextTradingDay(pos.day, hours) : pos.day;
}

function onTick(price: number, instrument: Instrument): boolean {
  return Math.abs(roundToTick(price, instrument.tick) - price) < 1e-9;
}

export async function lockAccountById(trx: Tx, station: Station, accountId: number): Promise<AccountRow> {
  return trx
    .selectFrom('accounts')
    .selectAll()
    .where('id', '=', accountId)
    .$if(station.dialect === 'postgres', (q) => q.forUpdate())
    .executeTakeFirstOrThrow();
}

/** Places a limit order: validates as buy.do does, then freezes margin + fees at the trigger price. */
export async function addOrder(station: Station, userId: number, input: LimitOrderInput): Promise<Order> {
  const call = 'addOrder';
  const earlier = await storedAnswer<Order>(station.db, userId, input.requestId, call);
  if (earlier !== undefined) return earlier;

  const { settings } = station.config;
  const instrument = station.market.get(input.code);
  const market: StockMarket = instrument.market;
  const trigger = input.triggerPrice;
  const direction: Direction = input.direction ?? 'long';
  // A limit order's stops lie on its direction's sides of its trigger.
  const stopSides = validStops(direction, trigger, {
    stopProfit: input.stopProfit ?? null,
    stopLoss: input.stopLoss ?? null,
  });
  assertFields({
    lots: lotsProblem(input.lots, settings.lotRules[market].maxLotsPerOrder),
    // Stocks are long only unless the shortStocks setting allows a short (API.md), as on buy.do.
    direction: direction === 'long' || settings.shortStocks ? null : 'invalid',
    triggerPrice: Number.isFinite(trigger) && trigger > 0 && onTick(trigger, instrument) ? null : 'invalid',
    stopProfit: stopSides.stopProfit ? null : 'invalid',
    stopLoss: stopSides.stopLoss ? null : 'invalid',
  });
  const now = station.clock.now();
  // A competition's order: the user entered it and it runs now; its limits narrow the market's rules.
  const competition =
    input.competitionId === undefined
      ? null
      : await tradingContext(station, userId, input.competitionId, now);
  const competitionLimits = competition?.limits ?? null;
  assertMarketAllowed(market, competitionLimits);
  if (competitionLimits) assertShortAllowed(direction, market, settings, competitionLimits);
  assertOrderLeverage(input.leverage, market, instrument.code, settings, competitionLimits);

  await requireKyc(station, userId, 'trading');

  if (station.market.status(instrument, now) === 'suspended') throw new AppError('SUSPENDED');
  const day = workingDay(station, instrument, now);
  const limits = station.market.series(instrument).record(day).limits;
  if (limits && (trigger > limits.up || trigger < limits.down)) {
    throw new AppError('PRICE_LIMIT', {
      msgKey: 'TRIGGER_OUTSIDE_LIMITS',
      params: { down: limits.down, up: limits.up },
    });
  }

  const cost = openingCost(station, instrument, input.lots, input.leverage, trigger);
  const accountType = settings.tradingAccount[market];

  return runOnce(station.db, { userId, requestId: input.requestId, call, now }, async (trx) => {
    const account = competition
      ? await lockCompetitionAccount(
          trx,
          station,
          competition.competitionId,
          userId,
          settings.accountCurrency[accountType],
        )
      : await trx
          .selectFrom('accounts')
          .selectAll()
          .where('user_id', '=', userId)
          .where('type', '=', accountType)
          .$if(station.dialect === 'postgres', (q) => q.forUpdate())
          .executeTakeFirstOrThrow();
    if (account.balance - account.frozen < cost.total) throw new AppError('INSUFFICIENT_FUNDS');
    const order = await trx
      .insertInto('orders')
      .values({
        user_id: userId,
        account_id: account.id,
        code: instrument.code,
        market,
        direction,
        lots: input.lots,
        leverage: input.leverage,
        trigger_price: trigger,
        stop_profit: input.stopProfit ?? null,
        stop_loss: input.stopLoss ?? null,
        frozen: cost.total,
        status: 'pending',
        reject_reason: null,
        position_id: null,
        created_at: now,
        updated_at: now,
        fill_price: null,
        expires_at: dayCloseTime(day, station.market.hours(instrument)),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('accounts')
      .set((eb) => ({ frozen: eb('frozen', '+', cost.total) }))
      .where('id', '=', account.id)
      .execute();
    return toOrder(order, instrument);
  });
}

/** Revokes a pending order of the user and releases its funds. */
export async function cancelOrder(
  station: Station,
  userId: number,
  input: { orderId: number; requestId: string },
): Promise<Order> {
  const call = 'cancelOrder';
  const earlier = await storedAnswer<Order>(station.db, userId, input.requestId, call);
  if (earlier !== undefined) return earlier;
  const now = station.clock.now();
  return runOnce(station.db, { userId, requestId: input.requestId, call, now }, async (trx) => {
    const found = await trx
      .selectFrom('orders')
      .select(['id', 'account_id'])
      .where('id', '=', input.orderId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!found) throw new AppError('NOT_FOUND');
    // The account first, then the order: the engine locks in the same order.
    await lockAccountById(trx, station, found.account_id);
    const order = await lockOrder(trx, station, found.id);
    if (order.status !== 'pending') throw new AppError('ALREADY_DONE');
    const done = await settleOrder(trx, order, { status: 'cancelled', rejectReason: null, now });
    return toOrder(done, station.market.find(order.code));
  });
}

export async function lockOrder(trx: Tx, station: Station, id: number): Promise<OrderRow> {
  return trx
    .selectFrom('orders')
    .selectAll()
    .where('id', '=', id)
    .$if(station.dialect === 'postgres', (q) => q.forUpdate())
    .executeTakeFirstOrThrow();
}

/** Ends a pending order (filled, cancelled, expired or rejected) and releases what it froze. */
export async function settleOrder(
  trx: Tx,
  order: OrderRow,
  end: {
    status: Exclude<OrderStatus, 'pending'>;
    rejectReason: string | null;
    now: number;
    positionId?: number;
    fillPrice?: number;
  },
): Promise<OrderRow> {
  await trx
    .updateTable('accounts')
    .set((eb) => ({ frozen: eb('frozen', '-', order.frozen) }))
    .where('id', '=', order.account_id)
    .execute();
  return trx
    .updateTable('orders')
    .set({
      status: end.status,
      reject_reason: end.rejectReason,
      position_id: end.positionId ?? null,
      fill_price: end.fillPrice ?? null,
      updated_at: end.now,
    })
    .where('id', '=', order.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface OpenRequest {
  instrument: Instrument;
  account: AccountRow;
  direction: Direction;
  lots: number;
  leverage: number;
  price: number;
  stopProfit: number | null;
  stopLoss: number | null;
  now: number;
}

/**
 * Opens a position inside the caller's transaction (the account locked by the caller): inserts it and
 * debits margin and buy fees in the ledger. The caller checks funds, sessions and limits.
 */
export async function openPositionTx(trx: Tx, station: Station, open: OpenRequest): Promise<PositionRow> {
  const { instrument, account } = open;
  const cost = openingCost(station, instrument, open.lots, open.leverage, open.price);
  const position = await trx
    .insertInto('positions')
    .values({
      user_id: account.user_id,
      account_id: account.id,
      code: instrument.code,
      market: instrument.market,
      direction: open.direction,
      state: 'open',
      lots: open.lots,
      shares: cost.shares,
      leverage: open.leverage,
      open_price: open.price,
      // A stock, priced in its account's currency (trade-rules.ts settlementRate).
      fx_rate: 1,
      open_value: cost.value,
      margin: cost.margin,
      buy_fee: cost.fees.total,
      buy_fee_detail: JSON.stringify(cost.fees.items),
      sell_fee: 0,
      sell_fee_detail: null,
      stamp_duty: 0,
      deferred_fee: 0,
      stop_profit: open.stopProfit,
      stop_loss: open.stopLoss,
      opened_at: open.now,
      sellable_from: station.market.sellableFrom(instrument, open.now),
      closed_at: null,
      close_price: null,
      close_value: null,
      close_reason: null,
      split_from: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const user = { accountId: account.id, userId: account.user_id };
  // The margin goes to the market (the position's counterparty), the fees to the fees earned.
  await post(trx, {
    time: open.now,
    refType: 'position',
    refId: position.id,
    entries: [
      { ...user, type: 'buy', amount: -cost.margin, note: `${instrument.code} ×${cost.shares}` },
      ...(cost.fees.total > 0
        ? [{ ...user, type: 'buy_fee' as const, amount: -cost.fees.total, note: instrument.code }]
        : []),
    ],
    house: [
      { house: 'market', amount: cost.margin },
      { house: 'fees', amount: cost.fees.total },
    ],
  });
  return position;
}

export type FillOutcome = 'filled' | 'rejected' | 'gone';

/** Whether `price` is the order's limit or better: at or below the trigger for a buy, at or above for a sale. */
export function reachesLimit(order: Pick<OrderRow, 'direction' | 'trigger_price'>, price: number): boolean {
  return order.direction === 'long' ? price <= order.trigger_price : price >= order.trigger_price;
}

/**
 * Fills a pending order at `price` (the tick that reached its trigger) in its own transaction: releases its
 * frozen funds and opens the position, or rejects it when the account no longer has the funds.
 */
/** Whether the account is a competition's that has ended by `t` (its orders no longer fill). */
async function competitionEndedFor(trx: Tx, account: AccountRow, t: number): Promise<boolean> {
  if (account.competition_id === null) return false;
  const times = await trx
    .selectFrom('competitions')
    .select('end_at')
    .where('id', '=', account.competition_id)
    .executeTakeFirst();
  return times !== undefined && t >= times.end_at;
}

export async function fillOrder(
  station: Station,
  orderId: number,
  fill: { price: number; now: number },
): Promise<FillOutcome> {
  return station.db.transaction().execute(async (trx) => {
    const peek = await trx
      .selectFrom('orders')
      .select(['account_id'])
      .where('id', '=', orderId)
      .executeTakeFirst();
    if (!peek) return 'gone';
    const account = await lockAccountById(trx, station, peek.account_id);
    const order = await lockOrder(trx, station, orderId);
    if (order.status !== 'pending') return 'gone';
    if (await competitionEndedFor(trx, account, fill.now)) {
      await settleOrder(trx, order, { status: 'rejected', rejectReason: 'COMPETITION_ENDED', now: fill.now });
      return 'rejected';
    }
    // Never worse than the limit: a buy at or below its trigger, a sale at or above it.
    if (!reachesLimit(order, fill.price)) return 'gone';
    const instrument = station.market.get(order.code);
    const cost = openingCost(station, instrument, order.lots, order.leverage, fill.price);
    const availableToOrder = account.balance - (account.frozen - order.frozen);
    const params = {
      code: order.code,
      name: instrument.name,
      lots: order.lots,
      unit: quantityUnit(order.market),
      price: fill.price,
    };
    if (availableToOrder < cost.total) {
      await settleOrder(trx, order, {
        status: 'rejected',
        rejectReason: 'INSUFFICIENT_FUNDS',
        now: fill.now,
      });
      await postMessage(trx, {
        userId: order.user_id,
        kind: 'order_rejected',
        msgKey: 'orderRejected',
        params: { ...params, trigger: order.trigger_price },
        refType: 'order',
        refId: order.id,
        now: fill.now,
      });
      return 'rejected';
    }
    const position = await openPositionTx(trx, station, {
      instrument,
      account,
      direction: order.direction,
      lots: order.lots,
      leverage: order.leverage,
      price: fill.price,
      stopProfit: order.stop_profit,
      stopLoss: order.stop_loss,
      now: fill.now,
    });
    await settleOrder(trx, order, {
      status: 'filled',
      rejectReason: null,
      now: fill.now,
      positionId: position.id,
      fillPrice: fill.price,
    });
    await postMessage(trx, {
      userId: order.user_id,
      kind: 'order_filled',
      msgKey: 'orderFilled',
      params,
      refType: 'order',
      refId: order.id,
      now: fill.now,
    });
    return 'filled';
  });
}

/** Sum of pending orders' frozen funds per account: what accounts.frozen must equal. */
export async function pendingFrozenByAccount(db: DbOrTx): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('orders')
    .select(['account_id', (eb) => eb.fn.sum<number>('frozen').as('frozen')])
    .where('status', '=', 'pending')
    .groupBy('account_id')
    .execute();
  return new Map(rows.map((r) => [r.account_id, Number(r.frozen)]));
}
