/**
 * The P&L a user is shown (DOMAIN.md "Leverage, margin and liquidation", "P&L"; API.md `position`), pure:
 * net of every fee charged so far, with the price part and the fees beside it. The station's views and the
 * app's live figures both use it, so a round trip at an unchanged price shows its fees as a loss everywhere.
 * Amounts in minor units.
 */
import type { Direction } from './api/types';

/** The fees a position has been charged so far, minor units (the sale's are 0 while it is open). */
export interface PositionCharges {
  buyFee: number;
  sellFee: number;
  stampDuty: number;
  deferredFee: number;
}

export interface NetPnl {
  /** What the price move made: (price − open price) × shares for a long, the opposite for a short. */
  pricePnl: number;
  /** buyFee + sellFee + stampDuty + deferredFee. */
  fees: number;
  /** pricePnl − fees: what the user actually made or lost. */
  pnl: number;
}

/** buyFee + sellFee + stampDuty + deferredFee. */
export function feesCharged(charges: PositionCharges): number {
  return charges.buyFee + charges.sellFee + charges.stampDuty + charges.deferredFee;
}

/** The price part of the P&L: value now (or at the close) − open value, negated for a short. */
export function pricePnlOf(direction: Direction, openValue: number, value: number): number {
  return direction === 'long' ? value - openValue : openValue - value;
}

/** Net P&L = price P&L − every fee charged so far. */
export function netPnl(pricePnl: number, charges: PositionCharges): NetPnl {
  const fees = feesCharged(charges);
  return { pricePnl, fees, pnl: pricePnl - fees };
}

/** yield = net pnl ÷ margin (a fraction, 6 decimals); 0 without margin. */
export function pnlYield(pnl: number, margin: number): number {
  return margin > 0 ? Number((pnl / margin).toFixed(6)) : 0;
}
