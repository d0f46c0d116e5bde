/**
 * Market orders on stocks (long only in this slice): buy opens a position with margin and fees, sell closes
 * all or part of one. Every balance change is a ledger entry in the same transaction as the position change,
 * and each call runs once per requestId.
 */
import { toMinor } from '../../src/shared/money';
import type { Direction, Page, Position, StockMarket } from '../../src/shared/api/types';
import { checkLots } from '../../src/shared/validation';
import { AppError, assertFields } from '../errors';
import type { PositionRow, Tx } from '../db/schema';
import type { Instrument } from '../market/catalogue';
import type { Station } from './context';
import { tradeFees, type FeeBreakdown } from './fees';
import { runOnce, storedAnswer } from './idempotency';
import { lockAccount, post } from './ledger';
import { assertLeverage, marginFor, proportionalPart } from './margin';
import { toPosition } from './views';

export interface BuyOrder {
  code: string;
  lots: number;
  leverage: number;
  direction?: Direction | undefined;
  stopProfit?: number | undefined;
  stopLoss?: number | undefined;
  requestId: string;
}

export interface SellOrder {
  positionId: number;
  lots?: number | undefined;
  requestId: string;
}

/** Shares in one lot of an instrument: the market's rule, or the instrument's board lot (Hong Kong). */
export function sharesPerLot(station: Station, instrument: Instrument): number {
  return station.config.settings.lotRules[instrument.market].sharesPerLot ?? instrument.lotSize;
}

function positionView(station: Station, row: PositionRow): Position {
  const instrument = station.market.get(row.code);
  const quote = row.state === 'open' ? station.market.quote(instrument) : null;
  return toPosition(row, instrument, quote, station.config.settings.liquidationLine);
}

async function readPosition(trx: Tx, station: Station, id: number): Promise<PositionRow> {
  return trx
    .selectFrom('positions')
    .selectAll()
    .where('id', '=', id)
    .$if(station.dialect === 'postgres', (q) => q.forUpdate())
    .executeTakeFirstOrThrow();
}

export async function buy(station: Station, userId: number, order: BuyOrder): Promise<Position> {
  const call = 'buy';
  const earlier = await storedAnswer<Position>(station.db, userId, order.requestId, call);
  if (earlier !== undefined) return earlier;

  const { settings } = station.config;
  const instrument = station.market.get(order.code);
  const market: StockMarket = instrument.market;
  assertFields({
    lots: checkLots(order.lots, settings.lotRules[market].maxLotsPerOrder),
    // Stocks are long only (API.md); short selling is for indexes and futures.
    direction: order.direction === undefined || order.direction === 'long' ? null : 'invalid',
  });
  assertLeverage(order.leverage, settings.leverage[market]);

  if (station.config.ordersNeedKyc) {
    const user = await station.db
      .selectFrom('users')
      .select('kyc_status')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    if (user.kyc_status !== 'passed') throw new AppError('KYC_REQUIRED');
  }

  const now = station.clock.now();
  // A suspended instrument says so, rather than that its market is closed.
  const status = station.market.status(instrument, now);
  if (status === 'suspended') throw new AppError('SUSPENDED');
  if (status !== 'trading') throw new AppError('OUTSIDE_TRADING_HOURS');
  const detail = station.market.detail(instrument, now);
  if (detail.limitUp !== null && detail.price >= detail.limitUp) throw new AppError('PRICE_LIMIT');
  assertFields({
    stopProfit: order.stopProfit === undefined || order.stopProfit > detail.price ? null : 'invalid',
    stopLoss: order.stopLoss === undefined || order.stopLoss < detail.price ? null : 'invalid',
  });

  const shares = order.lots * sharesPerLot(station, instrument);
  const value = toMinor(detail.price * shares);
  const margin = marginFor(value, order.leverage);
  const fees = tradeFees(market, 'buy', { shares, value }, settings.fees);
  const accountType = settings.tradingAccount[market];

  return runOnce(station.db, { userId, requestId: order.requestId, call, now }, async (trx) => {
    const account = await lockAccount(trx, station.dialect, userId, accountType);
    if (account.balance < margin + fees.total) throw new AppError('INSUFFICIENT_FUNDS');
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
        leverage: order.leverage,
        open_price: detail.price,
        open_value: value,
        margin,
        buy_fee: fees.total,
        buy_fee_detail: JSON.stringify(fees.items),
        sell_fee: 0,
        sell_fee_detail: null,
        stamp_duty: 0,
        deferred_fee: 0,
        stop_profit: order.stopProfit ?? null,
        stop_loss: order.stopLoss ?? null,
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
    const ref = { refType: 'position', refId: inserted.id, time: now, accountId: account.id, userId };
    await post(trx, { ...ref, type: 'buy', amount: -margin, note: `${instrument.code} ×${shares}` });
    if (fees.total > 0)
      await post(trx, { ...ref, type: 'buy_fee', amount: -fees.total, note: instrument.code });
    return toPosition(inserted, instrument, detail, settings.liquidationLine);
  });
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

export async function sell(station: Station, userId: number, order: SellOrder): Promise<Position> {
  const call = 'sell';
  const earlier = await storedAnswer<Position>(station.db, userId, order.requestId, call);
  if (earlier !== undefined) return earlier;
  const { settings } = station.config;
  const now = station.clock.now();

  return runOnce(station.db, { userId, requestId: order.requestId, call, now }, async (trx) => {
    const position = await trx
      .selectFrom('positions')
      .selectAll()
      .where('id', '=', order.positionId)
      .where('user_id', '=', userId)
      .$if(station.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
    if (!position) throw new AppError('NOT_FOUND');
    if (position.state !== 'open') throw new AppError('ALREADY_DONE');
    const lots = order.lots ?? position.lots;
    assertFields({ lots: checkLots(lots, position.lots) });

    const instrument = station.market.get(position.code);
    const status = station.market.status(instrument, now);
    if (status === 'suspended') throw new AppError('SUSPENDED');
    if (status !== 'trading') {
      throw new AppError('OUTSIDE_TRADING_HOURS', { msgKey: 'CLOSE_OUTSIDE_TRADING_HOURS' });
    }
    if (now < position.sellable_from) throw new AppError('T_PLUS_ONE');
    const detail = station.market.detail(instrument, now);
    if (detail.limitDown !== null && detail.price <= detail.limitDown) throw new AppError('PRICE_LIMIT');

    const whole = lots === position.lots;
    const shares = whole ? position.shares : (position.shares / position.lots) * lots;
    const part = (amount: number) => (whole ? amount : proportionalPart(amount, lots, position.lots));
    const openValue = part(position.open_value);
    const margin = part(position.margin);
    const buyFee = part(position.buy_fee);
    const closeValue = toMinor(detail.price * shares);
    const pnl = closeValue - openValue;
    const fees: FeeBreakdown = tradeFees(
      position.market,
      'sell',
      { shares, value: closeValue },
      settings.fees,
    );
    const sellFee = fees.total - fees.stampDuty;

    const closedFields = {
      state: 'closed' as const,
      closed_at: now,
      close_price: detail.price,
      close_value: closeValue,
      close_reason: 'user' as const,
      sell_fee: sellFee,
      sell_fee_detail: JSON.stringify(fees.items),
      stamp_duty: fees.stampDuty,
    };
    let closedId: number;
    if (whole) {
      await trx.updateTable('positions').set(closedFields).where('id', '=', position.id).execute();
      closedId = position.id;
    } else {
      const detailSplit = splitDetail(position.buy_fee_detail, lots, position.lots);
      const { id: _id, ...rest } = position;
      const closed = await trx
        .insertInto('positions')
        .values({
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
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      closedId = closed.id;
      await trx
        .updateTable('positions')
        .set({
          lots: position.lots - lots,
          shares: position.shares - shares,
          open_value: position.open_value - openValue,
          margin: position.margin - margin,
          buy_fee: position.buy_fee - buyFee,
          buy_fee_detail: detailSplit.remaining,
          deferred_fee: position.deferred_fee - part(position.deferred_fee),
        })
        .where('id', '=', position.id)
        .execute();
    }

    const ref = { refType: 'position', refId: closedId, time: now, accountId: position.account_id, userId };
    await post(trx, { ...ref, type: 'sell', amount: margin + pnl, note: `${instrument.code} ×${shares}` });
    if (sellFee > 0) await post(trx, { ...ref, type: 'sell_fee', amount: -sellFee, note: instrument.code });
    if (fees.stampDuty > 0) {
      await post(trx, { ...ref, type: 'stamp_duty', amount: -fees.stampDuty, note: instrument.code });
    }
    // The answer: the closed position, or after a partial sell what remains open.
    const answer = await readPosition(trx, station, whole ? closedId : position.id);
    return toPosition(answer, instrument, detail, settings.liquidationLine);
  });
}

export async function listPositions(
  station: Station,
  userId: number,
  query: { state: 'open' | 'closed'; market?: StockMarket | undefined; pageNum: number; pageSize: number },
): Promise<Page<Position>> {
  const base = station.db
    .selectFrom('positions')
    .where('user_id', '=', userId)
    .where('state', '=', query.state)
    .$if(query.market !== undefined, (q) => q.where('market', '=', query.market!));
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy(query.state === 'closed' ? 'closed_at' : 'opened_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize)
    .execute();
  return {
    list: rows.map((row) => positionView(station, row)),
    total: Number(total),
    pageNum: query.pageNum,
    pageSize: query.pageSize,
  };
}
