/**
 * From rows to the API's shapes (API.md "Shapes"), valuing open positions at the current price.
 *
 * Definitions used everywhere:
 * - position.pnl = (current or close price − open price) × shares for a long, the opposite for a short,
 *   before fees (fees are listed beside it: buyFee holds every opening fee, HK buy stamp duty included;
 *   sellFee the closing fees except stamp duty; stampDuty the closing stamp duty). A closed position's cash
 *   result is pnl − buyFee − sellFee − stampDuty − deferredFee. yield = pnl ÷ margin (top-ups included).
 *   For indexes and futures shares = contracts × multiplier, so every value is price × shares.
 * - position.marketValue = price × shares in both directions: what the holding is worth (long) or what
 *   buying the borrowed contracts back costs (short); the direction is in pnl.
 * - position.liquidationPrice: the rule book's liquidationPrice (src/shared/risk.ts): the price of the
 *   position's instrument, everything else in its account unchanged, at which the account's R reaches the
 *   liquidation line, the price the engine's risk step triggers on; a long is at risk at or below it, a
 *   short at or above it; null when the account borrows nothing or no positive price reaches the line.
 *   Callers pass the account's state (account-risk.ts); without it, the position is taken alone.
 */
import { toMajor, toMinor } from '../../src/shared/money';
import { liquidationPrice, type AccountRiskState } from '../../src/shared/risk';
import { pricePnl } from '../../src/shared/pnl';
import type { Position, Quote } from '../../src/shared/api/types';
import type { PositionRow } from '../platform';
import { roundToTick, type Instrument } from '../market';
import { riskPosition } from './account-risk';

function round(value: number, decimals: number): number {
  return Number(value.toFixed(decimals));
}

/** Unrealised (open) or realised (closed) price pnl of a position in minor units. */
export function positionPnlMinor(row: PositionRow, currentPrice: number): number {
  const value =
    row.state === 'closed' && row.close_value !== null ? row.close_value : toMinor(currentPrice * row.shares);
  return pricePnl(row.direction, row.open_value, value);
}

export function toPosition(
  row: PositionRow,
  instrument: Instrument,
  quote: Quote | null,
  liquidationLine: number,
  account?: AccountRiskState,
): Position {
  const closed = row.state === 'closed';
  const currentPrice = closed ? (row.close_price ?? row.open_price) : (quote?.price ?? row.open_price);
  const valueMinor =
    closed && row.close_value !== null ? row.close_value : toMinor(currentPrice * row.shares);
  const pnlMinor = positionPnlMinor(row, currentPrice);
  const state = account ?? { cash: 0, borrowedCapital: 0, positions: [riskPosition(row, currentPrice)] };
  const liquidation = closed ? null : liquidationPrice(state, row.code, liquidationLine);
  return {
    id: row.id,
    code: row.code,
    name: instrument.name,
    market: row.market,
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
    pnl: toMajor(pnlMinor),
    yield: row.margin > 0 ? round(pnlMinor / row.margin, 6) : 0,
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
