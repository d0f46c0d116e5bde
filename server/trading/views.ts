/**
 * From rows to the API's shapes (API.md "Shapes"), valuing open positions at the current price.
 *
 * Definitions used everywhere:
 * - position.pricePnl = (current or close price − open price) × shares for a long, the opposite for a short;
 *   fees = buyFee + sellFee + stampDuty + deferredFee charged so far (buyFee holds every opening fee, HK buy
 *   stamp duty included; sellFee the closing fees except stamp duty; stampDuty the closing stamp duty);
 *   pnl = pricePnl − fees, the net figure the user is shown (src/shared/pnl.ts; DOMAIN.md "P&L"), and a
 *   closed position's cash result. yield = pnl ÷ margin (top-ups included).
 *   For indexes and futures shares = contracts × multiplier, so every value is price × shares × fxRate
 *   (the settlement rate fixed at the open: 1 unless an index is quoted in another currency than its
 *   account's; then pricePnl is its points' P&L converted at that rate).
 * - position.currency is the account's, the currency of every amount; prices are the instrument's own.
 * - position.marketValue = price × shares × fxRate in both directions: what the holding is worth (long) or what
 *   buying the borrowed contracts back costs (short); the direction is in pnl.
 * - position.liquidationPrice: the rule book's liquidationPrice (src/shared/risk.ts): the price of the
 *   position's instrument, everything else in its account unchanged, at which the account's R reaches the
 *   liquidation line, the price the engine's risk step triggers on; a long is at risk at or below it, a
 *   short at or above it; null when the account borrows nothing or no positive price reaches the line.
 *   Callers pass the account's state (account-risk.ts); without it, the position is taken alone.
 * - position.todayPnl: today's price P&L of an open position (src/shared/pnl.ts todayPnl): the move since
 *   the previous close, or since the open price when it was opened on the instrument's current trading day;
 *   null for a closed position.
 */
import { toMajor } from '../../src/shared/money';
import { holdingValue, netPnl, pnlYield, pricePnlOf, todayPnl, type NetPnl } from '../../src/shared/pnl';
import { liquidationPrice, type AccountRiskState } from '../../src/shared/risk';
import type { Currency, Market, Position, Quote } from '../../src/shared/api/types';
import type { PositionRow, Station } from '../platform';
import { roundToTick, type Instrument } from '../market';
import { riskPosition } from './account-risk';

/** Unrealised (open) or realised (closed) price pnl of a position in minor units. */
export function positionPnlMinor(row: PositionRow, currentPrice: number): number {
  const value =
    row.state === 'closed' && row.close_value !== null
      ? row.close_value
      : holdingValue(currentPrice, row.shares, row.fx_rate);
  return pricePnlOf(row.direction, row.open_value, value);
}

/** A position's price pnl, fees charged so far and net pnl in minor units (src/shared/pnl.ts). */
export function positionNetPnl(row: PositionRow, currentPrice: number): NetPnl {
  return netPnl(positionPnlMinor(row, currentPrice), {
    buyFee: row.buy_fee,
    sellFee: row.sell_fee,
    stampDuty: row.stamp_duty,
    deferredFee: row.deferred_fee,
  });
}

/**
 * What a position view needs of its account and market: its liquidation line, the currency of its amounts,
 * and whether an instant falls on the instrument's current trading day (for today's P&L).
 */
export interface PositionTerms {
  liquidationLine: number;
  currency: Currency;
  isToday: (instrument: Instrument, t: number) => boolean;
}

/** A main trading account's terms for a position of `market` (a fund allocation has its own line). */
export function positionTerms(station: Station, market: Market, liquidationLine?: number): PositionTerms {
  const { settings } = station.config;
  return {
    liquidationLine: liquidationLine ?? settings.liquidationLine,
    currency: settings.accountCurrency[settings.tradingAccount[market]],
    isToday: (instrument, t) => station.market.onCurrentTradingDay(instrument, t),
  };
}

export function toPosition(
  row: PositionRow,
  instrument: Instrument,
  quote: Quote | null,
  terms: PositionTerms,
  account?: AccountRiskState,
): Position {
  const { liquidationLine } = terms;
  const closed = row.state === 'closed';
  const currentPrice = closed ? (row.close_price ?? row.open_price) : (quote?.price ?? row.open_price);
  const valueMinor =
    closed && row.close_value !== null
      ? row.close_value
      : holdingValue(currentPrice, row.shares, row.fx_rate);
  const { pricePnl, fees, pnl } = positionNetPnl(row, currentPrice);
  const state = account ?? { cash: 0, borrowedCapital: 0, positions: [riskPosition(row, currentPrice)] };
  const liquidation = closed ? null : liquidationPrice(state, row.code, liquidationLine);
  const today =
    closed || quote === null
      ? null
      : todayPnl({
          direction: row.direction,
          shares: row.shares,
          fxRate: row.fx_rate,
          openPrice: row.open_price,
          prevClose: quote.prevClose,
          price: currentPrice,
          openedToday: terms.isToday(instrument, row.opened_at),
        });
  return {
    id: row.id,
    code: row.code,
    name: instrument.name,
    market: row.market,
    currency: terms.currency,
    fxRate: row.fx_rate,
    direction: row.direction,
    lots: row.lots,
    shares: row.shares,
    leverage: row.leverage,
    openPrice: row.open_price,
    currentPrice,
    margin: toMajor(row.margin),
    marketValue: toMajor(valueMinor),
    buyFee: toMajor(row.buy_fee),
    sellFee: toMajor(row.sell_fee),
    stampDuty: toMajor(row.stamp_duty),
    deferredFee: toMajor(row.deferred_fee),
    fees: toMajor(fees),
    pricePnl: toMajor(pricePnl),
    pnl: toMajor(pnl),
    yield: pnlYield(pnl, row.margin),
    todayPnl: today === null ? null : toMajor(today),
    stopProfit: row.stop_profit,
    stopLoss: row.stop_loss,
    // Shown rounded to the tick; a long position is at risk at or below it, a short at or above it.
    liquidationPrice: liquidation === null ? null : roundToTick(liquidation, instrument.tick),
    openedAt: row.opened_at,
    closedAt: row.closed_at,
    closePrice: row.close_price,
    closeReason: row.close_reason,
    sellableFrom: row.sellable_from,
  };
}
