/**
 * The P&L a user is shown (DOMAIN.md "Leverage, margin and liquidation", "P&L"; API.md `position`), pure:
 * net of every fee charged so far, with the price part and the fees beside it. The station's views and the
 * app's live figures both use it, so a round trip at an unchanged price shows its fees as a loss everywhere.
 * Amounts in minor units.
 */
import type { Currency, Direction } from './api/types';
import { toMinor } from './money';

/**
 * What a holding is worth in its account's currency, minor units: price × shares × the settlement rate
 * (account-currency units per unit of the price's currency: 1 for a stock, the flash-exchange rate fixed at
 * the open for an index contract quoted in another currency; DOMAIN.md "Markets").
 */
/**
 * The settlement rate of a holding priced in `priceCurrency` in an account of `accountCurrency`: units of the
 * account's currency per unit of the price's, from the day's yuan rates (`cnyPer`, the wallet's published
 * mid rates), to 6 decimals; 1 for the same currency. The mid rate: the wallet's spread is its charge for
 * moving cash between currencies, and a contract's settlement moves none (DOMAIN.md "Markets").
 */
export function settlementRate(
  cnyPer: Readonly<Record<Currency, number>>,
  priceCurrency: Currency,
  accountCurrency: Currency,
): number {
  if (priceCurrency === accountCurrency) return 1;
  return Number((cnyPer[priceCurrency] / cnyPer[accountCurrency]).toFixed(6));
}

export function holdingValue(price: number, shares: number, fxRate = 1): number {
  return toMinor(price * shares * fxRate);
}

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

/** What today's P&L of an open position needs: its side and size, and the prices it moved between. */
export interface TodayMove {
  direction: Direction;
  shares: number;
  /** The settlement rate fixed at the open (holdingValue); 1 when absent. */
  fxRate?: number;
  openPrice: number;
  /** The previous trading day's close of the instrument. */
  prevClose: number;
  /** The instrument's price now. */
  price: number;
  /** Opened on the instrument's current trading day: its move today starts at the open price. */
  openedToday: boolean;
}

/**
 * Today's price P&L of an open position, minor units: the move since the previous close (since the open
 * price when it was opened today) × shares × the settlement rate, negated for a short. Fees are not in it:
 * it says what today's prices did, beside the since-open net P&L.
 */
export function todayPnl(move: TodayMove): number {
  const since = move.openedToday ? move.openPrice : move.prevClose;
  return pricePnlOf(
    move.direction,
    holdingValue(since, move.shares, move.fxRate),
    holdingValue(move.price, move.shares, move.fxRate),
  );
}
