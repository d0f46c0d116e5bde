/**
 * Closing all or part of a position: sell.do by the user, and the same close inside the engine's and the
 * fund allocations' transactions (closePositionTx). Closing a long sells and closing a short buys back;
 * margin + pnl comes back and the closing fees and stamp duty are debited in the same transaction.
 */
import { holdingValue } from '../../src/shared/pnl';
import type { Position } from '../../src/shared/api/types';
import {
  AppError,
  assertFields,
  lotsProblem,
  answerOnce,
  runOnce,
  type PositionRow,
  type Tx,
  type Station,
} from '../platform';
import { post } from '../ledger';
import { accountRiskStateOf } from './account-risk';
import { positionFees, type FeeBreakdown } from './fees';
import { proportionalPart } from './margin';
import {
  closeWholePosition,
  insertPosition,
  lockOwnPosition,
  tradeEntry,
  type ClosedFields,
} from './position-rows';
import { assertPriceLimit, tradableOf } from './trade-rules';
import { positionTerms, toPosition } from './views';
import { assertUserMaySell } from './sale-guard';

export interface SellOrder {
  positionId: number;
  lots?: number | undefined;
  /** The competition the position is in, when the sale is made inside one (checked). */
  competitionId?: number | undefined;
  requestId: string;
}

/** Splits a fee breakdown (JSON) for a partial close: the closed part and what stays with the open part. */
function splitDetail(json: string, lots: number, ofLots: number): { closed: string; remaining: string } {
  const items = JSON.parse(json) as Record<string, number>;
  const closed: Record<string, number> = {};
  const remaining: Record<string, number> = {};
  for (const [name, amount] of Object.entries(items)) {
    closed[name] = proportionalPart(amount, lots, ofLots);
    remaining[name] = amount - closed[name];
  }
  return { closed: JSON.stringify(closed), remaining: JSON.stringify(remaining) };
}

export interface CloseRequest {
  /** Lots to close; the whole position when equal to its lots. */
  lots: number;
  /** The price the position closes at (the current price, or a stop's or a liquidation's crossing price). */
  price: number;
  reason: NonNullable<PositionRow['close_reason']>;
  now: number;
}

/**
 * Whether a close is of a future opened the same exchange trading day (a night session belongs to the next
 * day), which pays its product's close-today fee; any other close is `close`.
 */
function closeLegOf(station: Station, position: PositionRow, now: number): 'close' | 'closeToday' {
  if (position.market !== 'futures') return 'close';
  const found = station.market.findTradable(position.code);
  if (!found) return 'close';
  const openedDay = station.market.position(found.instrument, position.opened_at).day;
  return openedDay === station.market.position(found.instrument, now).day ? 'closeToday' : 'close';
}

/**
 * Closes all or part of a locked open position inside the caller's transaction: writes the closed record
 * (the position itself, or a split-off record for a partial close), credits margin + pnl and debits the
 * closing fees in the ledger. Returns the closed record's id. The caller checks sessions, T+1 and limits.
 */
export async function closePositionTx(
  trx: Tx,
  station: Station,
  position: PositionRow,
  close: CloseRequest,
): Promise<number> {
  return (await closePosition(trx, station, position, close)).closed.id;
}

/**
 * closePositionTx answering the rows as they now are: the closed record, and after a partial close the open
 * remainder (so the caller need not read them back).
 */
async function closePosition(
  trx: Tx,
  station: Station,
  position: PositionRow,
  close: CloseRequest,
): Promise<{ closed: PositionRow; remaining: PositionRow | null }> {
  const { settings } = station.config;
  const { lots } = close;
  const whole = lots === position.lots;
  const shares = whole ? position.shares : (position.shares / position.lots) * lots;
  const part = (amount: number) => (whole ? amount : proportionalPart(amount, lots, position.lots));
  const openValue = part(position.open_value);
  const margin = part(position.margin);
  const buyFee = part(position.buy_fee);
  // At the rate fixed at the open: an index contract in another currency is settled as a quanto, its
  // points' P&L converted at one rate, so only the index moves it (migration 0013).
  const closeValue = holdingValue(close.price, shares, position.fx_rate);
  const pnl = position.direction === 'long' ? closeValue - openValue : openValue - closeValue;
  // Closing a long sells and closing a short buys back (its sale's fees were paid on the open). A future
  // pays its product's fee, the close-today one for a position opened the same exchange trading day.
  const trade = { shares, value: closeValue, contracts: lots, code: position.code };
  const leg = closeLegOf(station, position, close.now);
  const fees: FeeBreakdown = positionFees(position.market, position.direction, leg, trade, settings.fees);
  const sellFee = fees.total - fees.stampDuty;

  const closedFields: ClosedFields = {
    state: 'closed',
    closed_at: close.now,
    close_price: close.price,
    close_value: closeValue,
    close_reason: close.reason,
    sell_fee: sellFee,
    sell_fee_detail: JSON.stringify(fees.items),
    stamp_duty: fees.stampDuty,
  };
  let closed: PositionRow;
  let remaining: PositionRow | null = null;
  if (whole) {
    // The id first: a spread followed by new keys is slow on this V8 (npm run bench).
    await closeWholePosition.rows(trx, { id: position.id, ...closedFields });
    closed = { ...position, ...closedFields };
  } else {
    const detailSplit = splitDetail(position.buy_fee_detail, lots, position.lots);
    const { id: _id, ...rest } = position;
    const [inserted] = await insertPosition.rows(trx, {
      ...rest,
      ...closedFields,
      lots,
      shares,
      open_value: openValue,
      margin,
      buy_fee: buyFee,
      buy_fee_detail: detailSplit.closed,
      deferred_fee: part(position.deferred_fee),
      split_from: position.id,
    });
    if (!inserted) throw new Error('close: the closed part was not written');
    closed = inserted;
    const kept = {
      lots: position.lots - lots,
      shares: position.shares - shares,
      open_value: position.open_value - openValue,
      margin: position.margin - margin,
      buy_fee: position.buy_fee - buyFee,
      buy_fee_detail: detailSplit.remaining,
      deferred_fee: position.deferred_fee - part(position.deferred_fee),
    };
    await trx.updateTable('positions').set(kept).where('id', '=', position.id).execute();
    remaining = { ...position, ...kept };
  }

  const ref = {
    refType: 'position',
    refId: closed.id,
    time: close.now,
    accountId: position.account_id,
    userId: position.user_id,
  };
  // The market pays back the margin with the profit (or keeps the loss); fees and stamp duty are earned.
  await post(trx, {
    time: ref.time,
    refType: ref.refType,
    refId: ref.refId,
    entries: [
      tradeEntry(ref, 'sell', margin + pnl, `${position.code} ×${shares}`),
      ...(sellFee > 0 ? [tradeEntry(ref, 'sell_fee', -sellFee, position.code)] : []),
      ...(fees.stampDuty > 0 ? [tradeEntry(ref, 'stamp_duty', -fees.stampDuty, position.code)] : []),
    ],
    house: [
      { house: 'market', amount: -(margin + pnl) },
      { house: 'fees', amount: sellFee + fees.stampDuty },
    ],
  });

  return { closed, remaining };
}

export function sell(station: Station, userId: number, order: SellOrder): Promise<Position> {
  const call = 'sell';
  return answerOnce(station.db, { userId, requestId: order.requestId, call }, () =>
    sellOnce(station, userId, order, call),
  );
}

/** sell without the first read of its key (answerOnce). */
async function sellOnce(station: Station, userId: number, order: SellOrder, call: string): Promise<Position> {
  const now = station.clock.now();

  return runOnce(station.db, { userId, requestId: order.requestId, call, now }, async (trx) => {
    const position = await lockOwnPosition(trx, userId, order.positionId);
    await assertUserMaySell(trx, position, now, order.competitionId);
    const lots = order.lots ?? position.lots;
    assertFields({ lots: lotsProblem(lots, position.lots) });

    const { instrument } = tradableOf(station, position.code);
    const detail = station.market.detail(instrument, now);
    if (detail.status === 'suspended') throw new AppError('SUSPENDED');
    if (detail.status !== 'trading') {
      throw new AppError('OUTSIDE_TRADING_HOURS', { msgKey: 'CLOSE_OUTSIDE_TRADING_HOURS' });
    }
    if (now < position.sellable_from) throw new AppError('T_PLUS_ONE');
    // Closing a long sells; closing a short buys back.
    assertPriceLimit(detail, position.direction === 'short');

    const { closed, remaining } = await closePosition(trx, station, position, {
      lots,
      price: detail.price,
      reason: 'user',
      now,
    });
    // The answer: the closed position, or after a partial sell what remains open.
    const state = remaining ? await accountRiskStateOf(trx, station, remaining.account_id) : undefined;
    return toPosition(remaining ?? closed, instrument, detail, positionTerms(station, closed.market), state);
  });
}
