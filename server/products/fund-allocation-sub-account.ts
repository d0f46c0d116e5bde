/**
 * Trading in a fund allocation's sub-account (the rules: fund-allocation.ts): market buys and sells of
 * A-shares and STAR shares, long at leverage 1, under the ordinary market rules.
 */
import type { Position } from '../../src/shared/api/types';
import { toMinor } from '../../src/shared/money';
import { AppError, assertFields, lotsProblem, runOnce, storedAnswer, type Station } from '../platform';
import {
  tradeFees,
  lockAccountById,
  assertPriceLimit,
  maxLotsPerOrder,
  sell,
  tradableOf,
  toPosition,
  accountRiskStateOf,
  positionTerms,
} from '../trading';
import { post } from '../ledger';
import { lockAllocation, ownAllocation } from './fund-allocation-records';

/** buyFunds.do: a market buy (long, leverage 1) of an A-share or STAR stock in the sub-account. */
export async function buyInSubAccount(
  station: Station,
  userId: number,
  order: { applyId: number; code: string; lots: number; requestId: string },
): Promise<Position> {
  const call = 'buyFunds';
  const earlier = await storedAnswer<Position>(station.db, userId, order.requestId, call);
  if (earlier !== undefined) return earlier;
  const { settings } = station.config;
  const { instrument, market, unitsPerLot } = tradableOf(station, order.code);
  if (market !== 'a' && market !== 'star') {
    throw new AppError('VALIDATION', { fields: { code: 'invalid' }, msgKey: 'SUB_ACCOUNT_MARKET' });
  }
  assertFields({ lots: lotsProblem(order.lots, maxLotsPerOrder(settings, market)) });
  const now = station.clock.now();
  const status = station.market.status(instrument, now);
  if (status === 'suspended') throw new AppError('SUSPENDED');
  if (status !== 'trading') throw new AppError('OUTSIDE_TRADING_HOURS');
  const detail = station.market.detail(instrument, now);
  assertPriceLimit(detail, true);
  const shares = order.lots * unitsPerLot;
  const value = toMinor(detail.price * shares);
  const fees = tradeFees(market, 'buy', { shares, value, code: instrument.code }, settings.fees);

  return runOnce(station.db, { userId, requestId: order.requestId, call, now }, async (trx) => {
    const row = await lockAllocation(trx, station, order.applyId, userId);
    if (
      row.status !== 'trading' ||
      row.account_id === null ||
      row.expires_at === null ||
      now >= row.expires_at
    ) {
      throw new AppError('ALREADY_DONE', { msgKey: 'ALLOCATION_NOT_TRADING' });
    }
    const account = await lockAccountById(trx, station, row.account_id);
    if (account.balance - account.frozen < value + fees.total) throw new AppError('INSUFFICIENT_FUNDS');
    const inserted = await trx
      .insertInto('positions')
      .values({
        user_id: userId,
        account_id: account.id,
        code: instrument.code,
        market,
        direction: 'long',
        state: 'open',
        lots: order.lots,
        shares,
        leverage: 1,
        open_price: detail.price,
        // An A-share in a CNY account (trade-rules.ts settlementRate).
        fx_rate: 1,
        open_value: value,
        margin: value,
        buy_fee: fees.total,
        buy_fee_detail: JSON.stringify(fees.items),
        sell_fee: 0,
        sell_fee_detail: null,
        stamp_duty: 0,
        deferred_fee: 0,
        stop_profit: null,
        stop_loss: null,
        opened_at: now,
        sellable_from: station.market.sellableFrom(instrument, now),
        closed_at: null,
        close_price: null,
        close_value: null,
        close_reason: null,
        split_from: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const user = { accountId: account.id, userId };
    // The price goes to the market (the position's counterparty), the fees to the fees earned.
    await post(trx, {
      time: now,
      refType: 'position',
      refId: inserted.id,
      entries: [
        { ...user, type: 'buy', amount: -value, note: `${instrument.code} ×${shares}` },
        ...(fees.total > 0
          ? [{ ...user, type: 'buy_fee' as const, amount: -fees.total, note: instrument.code }]
          : []),
      ],
      house: [
        { house: 'market', amount: value },
        { house: 'fees', amount: fees.total },
      ],
    });
    const state = await accountRiskStateOf(trx, station, account.id);
    return toPosition(
      inserted,
      instrument,
      detail,
      positionTerms(station, inserted.market, row.liquidation_line),
      state,
    );
  });
}

/** sellFunds.do: sells (all or some lots of) a position of a trading allocation's sub-account. */
export async function sellInSubAccount(
  station: Station,
  userId: number,
  order: { applyId: number; positionId: number; lots?: number | undefined; requestId: string },
): Promise<Position> {
  const row = await ownAllocation(station, userId, order.applyId);
  const position = await station.db
    .selectFrom('positions')
    .select(['account_id'])
    .where('id', '=', order.positionId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!position || row.account_id === null || position.account_id !== row.account_id) {
    throw new AppError('NOT_FOUND');
  }
  // The ordinary sell, whose one guard (server/trading/sale-guard.ts) also refuses a sale once the
  // allocation stopped trading or passed its last close; sessions, T+1, price limits and fees as any sale;
  // the proceeds go to the position's account.
  return sell(station, userId, {
    positionId: order.positionId,
    lots: order.lots,
    requestId: order.requestId,
  });
}
