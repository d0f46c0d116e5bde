/**
 * Opening a position by a market order (buy.do, buyIndex.do, buyFutures.do): a long, or for indexes and
 * futures (and stocks when shortStocks is on) a short, with margin and fees. Every buy checks the account's
 * available funds (balance − what pending limit orders hold) with the account row locked; the position and
 * its ledger entries are written in one transaction, once per requestId.
 */
import { holdingValue } from '../../src/shared/pnl';
import type { Direction, Position } from '../../src/shared/api/types';
import { AppError, assertFields, lotsProblem, answerOnce, runOnce, type Station } from '../platform';
import { requireKyc } from '../identity';
import { lockAccount, post } from '../ledger';
import { lockCompetitionAccount, tradingContext, type CompetitionTradingContext } from '../competitions';
import { accountRiskStateOf } from './account-risk';
import { positionFees } from './fees';
import { assertOrderLeverage, marginFor } from './margin';
import { insertPosition, tradeEntry } from './position-rows';
import {
  assertMarketAllowed,
  assertPriceLimit,
  assertShortAllowed,
  assertStops,
  isContractMarket,
  maxLotsPerOrder,
  settlementRate,
  tradableOf,
  type BuyVenue,
} from './trade-rules';
import { positionTerms, toPosition } from './views';

export interface BuyOrder {
  code: string;
  lots: number;
  leverage: number;
  direction?: Direction | undefined;
  stopProfit?: number | undefined;
  stopLoss?: number | undefined;
  /** Trade in this competition's accounts, under its limits (server/competitions). */
  competitionId?: number | undefined;
  requestId: string;
}

const BUY_CALLS: Record<BuyVenue, string> = { any: 'buy', index: 'buyIndex', futures: 'buyFutures' };

/**
 * A market order that opens a position: buy.do (any market), buyIndex.do and buyFutures.do (`venue`).
 * Checks the quantity, leverage, direction, KYC, session, price limit and stops, then in one transaction
 * the available funds, and writes the position with its margin and fee entries.
 */
export function buy(
  station: Station,
  userId: number,
  order: BuyOrder,
  venue: BuyVenue = 'any',
): Promise<Position> {
  const call = BUY_CALLS[venue];
  return answerOnce(station.db, { userId, requestId: order.requestId, call }, () =>
    buyOnce(station, userId, order, venue, call),
  );
}

/** buy without the first read of its key (answerOnce). */
async function buyOnce(
  station: Station,
  userId: number,
  order: BuyOrder,
  venue: BuyVenue,
  call: string,
): Promise<Position> {
  const { settings } = station.config;
  const tradable = tradableOf(station, order.code, venue);
  const { instrument, market } = tradable;
  const direction: Direction = order.direction ?? 'long';
  const contracts = isContractMarket(market);
  assertFields({ lots: lotsProblem(order.lots, maxLotsPerOrder(settings, market)) });
  const now = station.clock.now();
  // A competition's trade: the user entered it and it runs now; its limits narrow the rules below.
  const competition: CompetitionTradingContext | null =
    order.competitionId === undefined
      ? null
      : await tradingContext(station, userId, order.competitionId, now);
  const limits = competition?.limits ?? null;
  assertMarketAllowed(market, limits);
  assertShortAllowed(direction, market, settings, limits);
  assertOrderLeverage(order.leverage, market, instrument.code, settings, limits);
  await requireKyc(station, userId, 'trading');

  // One look at the market for the status, price and limits.
  const detail = station.market.detail(instrument, now);
  // A suspended instrument says so, rather than that its market is closed.
  if (detail.status === 'suspended') throw new AppError('SUSPENDED');
  if (detail.status !== 'trading') throw new AppError('OUTSIDE_TRADING_HOURS');
  assertPriceLimit(detail, direction === 'long');
  assertStops(direction, detail.price, order);

  const shares = order.lots * tradable.unitsPerLot;
  const fxRate = settlementRate(station, instrument, market, now);
  const value = holdingValue(detail.price, shares, fxRate);
  const margin = marginFor(value, order.leverage);
  // A long opens with a buy; a short with a sale, which pays the sale's fees (stamp duty, TAF, SEC fee) now,
  // in the buy fee with its items (as a Hong Kong buy's stamp duty), and not again on the buy-back.
  const trade = { shares, value, contracts: order.lots, code: instrument.code };
  const fees = positionFees(market, direction, 'open', trade, settings.fees);
  const accountType = settings.tradingAccount[market];
  const sellableFrom = contracts ? now : station.market.sellableFrom(instrument, now);

  return runOnce(station.db, { userId, requestId: order.requestId, call, now }, async (trx) => {
    const account = competition
      ? await lockCompetitionAccount(
          trx,
          station,
          competition.competitionId,
          userId,
          settings.accountCurrency[accountType],
        )
      : await lockAccount(trx, station.dialect, userId, accountType);
    if (account.balance - account.frozen < margin + fees.total) throw new AppError('INSUFFICIENT_FUNDS');
    const [inserted] = await insertPosition.rows(trx, {
      user_id: userId,
      account_id: account.id,
      code: instrument.code,
      market,
      direction,
      state: 'open',
      lots: order.lots,
      shares,
      leverage: order.leverage,
      open_price: detail.price,
      fx_rate: fxRate,
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
      sellable_from: sellableFrom,
      closed_at: null,
      close_price: null,
      close_value: null,
      close_reason: null,
      split_from: null,
    });
    if (!inserted) throw new Error('buy: the position was not written');
    const ref = { refType: 'position', refId: inserted.id, time: now, accountId: account.id, userId };
    const side = direction === 'short' ? ' short' : '';
    // The margin goes to the market (the position's counterparty), the fees to the fees earned.
    await post(trx, {
      time: ref.time,
      refType: ref.refType,
      refId: ref.refId,
      entries: [
        tradeEntry(ref, 'buy', -margin, `${instrument.code} ×${shares}${side}`),
        ...(fees.total > 0 ? [tradeEntry(ref, 'buy_fee', -fees.total, instrument.code)] : []),
      ],
      house: [
        { house: 'market', amount: margin },
        { house: 'fees', amount: fees.total },
      ],
    });
    const state = await accountRiskStateOf(trx, station, account.id);
    return toPosition(inserted, instrument, detail, positionTerms(station, market), state);
  });
}
