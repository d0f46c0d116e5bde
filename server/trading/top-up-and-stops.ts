/**
 * Changes to an open position that move no shares: a top-up moves available cash into its margin (at most
 * what the position borrowed — a long: open value − margin — or its open value for a short), and setStops
 * replaces its stops. Both work at any hour, never on a closed position, once per requestId.
 */
import type { Position } from '../../src/shared/api/types';
import { AppError, runOnce, storedAnswer, type PositionRow, type Station } from '../platform';
import { post, postingAgainst } from '../ledger';
import { accountRiskStateOf } from './account-risk';
import { lockOwnPosition } from './position-rows';
import { assertStops, tradableOf } from './trade-rules';
import { positionTerms, toPosition } from './views';

export interface TopUpOrder {
  positionId: number;
  /** Major units, at most 2 decimals. */
  amount: number;
  requestId: string;
}

/** The most a top-up may add: what a long borrowed (open value − margin), a short's open value. */
export function topUpMaximum(position: PositionRow): number {
  const cap = position.direction === 'long' ? position.open_value - position.margin : position.open_value;
  return Math.max(0, cap);
}

/** Moves available cash into an open position's margin (ledger type top_up), lowering its risk. */
export async function topUp(station: Station, userId: number, order: TopUpOrder): Promise<Position> {
  const call = 'topUp';
  const earlier = await storedAnswer<Position>(station.db, userId, order.requestId, call);
  if (earlier !== undefined) return earlier;
  const amount = Math.round(order.amount * 100);
  const wholeCents = Number.isFinite(order.amount) && Math.abs(order.amount * 100 - amount) < 1e-6;
  if (!wholeCents) throw new AppError('VALIDATION', { fields: { amount: 'invalid' } });
  if (amount <= 0) {
    throw new AppError('VALIDATION', { fields: { amount: 'invalid' }, msgKey: 'TOP_UP_NOT_POSITIVE' });
  }
  const now = station.clock.now();

  return runOnce(station.db, { userId, requestId: order.requestId, call, now }, async (trx) => {
    const position = await lockOwnPosition(trx, userId, order.positionId);
    if (position.state !== 'open') throw new AppError('ALREADY_DONE', { msgKey: 'POSITION_CLOSED' });
    const maximum = topUpMaximum(position);
    if (amount > maximum) {
      throw new AppError('ABOVE_MAXIMUM', {
        msgKey: 'TOP_UP_ABOVE_MAXIMUM',
        params: { max: (maximum / 100).toFixed(2) },
      });
    }
    const account = await trx
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', position.account_id)
      .$if(station.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirstOrThrow();
    if (account.balance - account.frozen < amount) throw new AppError('INSUFFICIENT_FUNDS');
    const margin = position.margin + amount;
    await trx.updateTable('positions').set({ margin }).where('id', '=', position.id).execute();
    await post(
      trx,
      postingAgainst('market', {
        accountId: account.id,
        userId,
        type: 'top_up',
        amount: -amount,
        time: now,
        refType: 'position',
        refId: position.id,
        note: position.code,
      }),
    );
    const { instrument } = tradableOf(station, position.code);
    const updated = { ...position, margin };
    const state = await accountRiskStateOf(trx, station, account.id);
    const quote = station.market.quote(instrument, now);
    return toPosition(updated, instrument, quote, positionTerms(station, updated.market), state);
  });
}

export interface StopsOrder {
  positionId: number;
  /** The new stop profit; absent: the position keeps none. */
  stopProfit?: number | undefined;
  /** The new stop loss; absent: the position keeps none. */
  stopLoss?: number | undefined;
  requestId: string;
}

/**
 * setStops.do: an open position's stops become exactly the ones given (an absent one is removed), each on
 * its side of the current price for the position's direction (assertStops), at any hour. Moves no money,
 * but runs once per requestId like every call that changes a position.
 */
export async function setStops(station: Station, userId: number, order: StopsOrder): Promise<Position> {
  const call = 'setStops';
  const earlier = await storedAnswer<Position>(station.db, userId, order.requestId, call);
  if (earlier !== undefined) return earlier;
  const now = station.clock.now();

  return runOnce(station.db, { userId, requestId: order.requestId, call, now }, async (trx) => {
    const position = await lockOwnPosition(trx, userId, order.positionId);
    if (position.state !== 'open') throw new AppError('ALREADY_DONE', { msgKey: 'POSITION_CLOSED' });
    const { instrument } = tradableOf(station, position.code);
    const quote = station.market.quote(instrument, now);
    assertStops(position.direction, quote.price, order);
    const stops = { stop_profit: order.stopProfit ?? null, stop_loss: order.stopLoss ?? null };
    await trx.updateTable('positions').set(stops).where('id', '=', position.id).execute();
    const updated = { ...position, ...stops };
    const state = await accountRiskStateOf(trx, station, position.account_id);
    return toPosition(updated, instrument, quote, positionTerms(station, updated.market), state);
  });
}
