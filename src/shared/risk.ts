/**
 * The rule book of risk (DOMAIN.md "Leverage, margin and liquidation", "Fees", "…fund allocation"), pure:
 * plain data in minor units, no I/O. The station's engine decides with these functions and the position
 * views display their answers, so what the screen shows is what triggers.
 *
 * One account state serves both kinds of account: a main account borrows through its positions (a long's
 * open value − margin, a short's instrument); a fund-allocation sub-account trades its own positions at
 * leverage 1 with capital it borrowed as a whole (the allocated funds), given as `borrowedCapital`.
 */
import { applyRate } from './money';
import { holdingValue } from './pnl';
import type { Direction } from './api/types';

/** An open position as risk sees it. */
export interface RiskPosition {
  id: number;
  /** The instrument's code: positions of one code move together in liquidationPrice. */
  code: string;
  direction: Direction;
  shares: number;
  /** Minor units. */
  openValue: number;
  /** Minor units (top-ups included). */
  margin: number;
  /** The instrument's price now (major units per share, in the price's own currency). */
  price: number;
  /** Account-currency units per unit of the price's currency (pnl.ts holdingValue); 1 when absent. */
  fxRate?: number;
}

/** An account's state for the risk ratio: the same shape for a main account and a sub-account. */
export interface AccountRiskState {
  /** Cash that counts as collateral (available: balance − frozen), minor units. */
  cash: number;
  /** Capital borrowed as a whole (a fund allocation's allocated funds); 0 for a main account. */
  borrowedCapital: number;
  positions: readonly RiskPosition[];
}

export interface RiskLines {
  warningLine: number;
  liquidationLine: number;
}

export type RiskDecision = 'ok' | 'warn' | 'liquidate';

/** What a position borrows through itself: a long its open value − margin, a short its value now. */
function positionBorrowed(p: RiskPosition, valueMinor: number): number {
  return p.direction === 'long' ? Math.max(0, p.openValue - p.margin) : valueMinor;
}

/** What a position puts up as collateral: a long its value now, a short its sale proceeds + margin. */
function positionCollateral(p: RiskPosition, valueMinor: number): number {
  return p.direction === 'long' ? valueMinor : p.openValue + p.margin;
}

const valueOf = (p: RiskPosition, price = p.price) => holdingValue(price, p.shares, p.fxRate);

/** Σ collateral and Σ borrowed of an account state, minor units. */
function totals(state: AccountRiskState): { collateral: number; borrowed: number } {
  let collateral = state.cash;
  let borrowed = state.borrowedCapital;
  for (const p of state.positions) {
    const value = valueOf(p);
    collateral += positionCollateral(p, value);
    borrowed += positionBorrowed(p, value);
  }
  return { collateral, borrowed };
}

/** R = (cash + collateral of the positions) ÷ borrowed; null when nothing is borrowed (no liquidation). */
export function riskRatio(state: AccountRiskState): number | null {
  const { collateral, borrowed } = totals(state);
  return borrowed > 0 ? collateral / borrowed : null;
}

/** What an account's risk gauge reads (src/shared/risk-gauge.ts), minor units except the ratio. */
export interface RiskExposure {
  /** R, as riskRatio; null when nothing is borrowed. */
  ratio: number | null;
  /** Σ borrowed: the R's denominator. */
  borrowed: number;
  /** Value now of the long positions: what falls with prices on the collateral side. */
  longValue: number;
  /** Value now of the short positions: what falls with prices on the borrowed side. */
  shortValue: number;
}

/** The same totals the engine decides on (riskRatio), with the long and short values a fall moves. */
export function riskExposure(state: AccountRiskState): RiskExposure {
  const { borrowed } = totals(state);
  let longValue = 0;
  let shortValue = 0;
  for (const p of state.positions) {
    if (p.direction === 'long') longValue += valueOf(p);
    else shortValue += valueOf(p);
  }
  return { ratio: riskRatio(state), borrowed, longValue, shortValue };
}

/** ok at or above the warning line, liquidate at or below the liquidation line, warn between. */
export function riskDecision(ratio: number | null, lines: RiskLines): RiskDecision {
  if (ratio === null || ratio >= lines.warningLine) return 'ok';
  return ratio <= lines.liquidationLine ? 'liquidate' : 'warn';
}

/** The decision for an account state. */
export function decideRisk(state: AccountRiskState, lines: RiskLines): RiskDecision {
  return riskDecision(riskRatio(state), lines);
}

/** A position's price pnl now in minor units (the views' pnl): value − open value, negated for a short. */
export function positionPnl(p: RiskPosition): number {
  const pnl = valueOf(p) - p.openValue;
  return p.direction === 'long' ? pnl : -pnl;
}

/**
 * Whether closing a position can raise R: it borrows through itself, or the account's capital is borrowed
 * as a whole (a sub-account's allocated funds are repaid once its last position is closed). Closing an
 * unleveraged long of a main account only turns holdings into cash.
 */
export function closingRaisesRisk(state: AccountRiskState, p: RiskPosition): boolean {
  return state.borrowedCapital > 0 || p.direction === 'short' || p.openValue > p.margin;
}

export interface LiquidationPlan {
  /** The positions to close, in order: largest loss first (then oldest id). */
  close: number[];
  /** Positions that should be closed but may not be now (T+1, suspended, out of session, at the limit). */
  skipped: number[];
}

/**
 * Which positions a liquidation closes, in order: those whose closing raises R, largest loss first, among
 * those that may be closed now (`closable`). The executor closes them one by one and stops as soon as R is
 * back above the warning line (riskDecision on the account re-read after each close: fees and fills are
 * the station's, not this plan's).
 */
export function liquidationPlan(
  state: AccountRiskState,
  closable: (position: RiskPosition) => boolean,
): LiquidationPlan {
  const ordered = state.positions
    .filter((p) => closingRaisesRisk(state, p))
    .map((p) => ({ p, pnl: positionPnl(p) }))
    .sort((a, b) => a.pnl - b.pnl || a.p.id - b.p.id)
    .map(({ p }) => p);
  return {
    close: ordered.filter(closable).map((p) => p.id),
    skipped: ordered.filter((p) => !closable(p)).map((p) => p.id),
  };
}

/**
 * The liquidation price of an instrument in an account (before rounding to the tick): the price of that
 * instrument, everything else unchanged, at which the account's R reaches the liquidation line. Every
 * position of that code moves to it. With a = its long shares, b = its short shares, K = every other
 * collateral, D = every other borrowed amount: (K + a·p) ÷ (D + b·p) = L, so p = (L·D − K) ÷ (a − L·b),
 * where a and b count each position's shares × its settlement rate (a value is price × shares × rate).
 * Null when nothing is borrowed at that price or no positive price reaches the line. A long is at risk at
 * or below it, a short at or above it. Values are taken unrounded (price × shares), so the answer is within
 * one tick of where the engine, which rounds each value to the minor unit, first sees R at the line.
 */
export function liquidationPrice(
  state: AccountRiskState,
  code: string,
  liquidationLine: number,
): number | null {
  let a = 0;
  let b = 0;
  let collateral = state.cash;
  let borrowed = state.borrowedCapital;
  for (const p of state.positions) {
    if (p.code === code) {
      if (p.direction === 'long') {
        a += p.shares * (p.fxRate ?? 1);
        borrowed += Math.max(0, p.openValue - p.margin);
      } else {
        b += p.shares * (p.fxRate ?? 1);
        collateral += p.openValue + p.margin;
      }
      continue;
    }
    const value = valueOf(p);
    collateral += positionCollateral(p, value);
    borrowed += positionBorrowed(p, value);
  }
  if (a === 0 && b === 0) return null;
  // A value in minor units is price × shares × 100.
  const slope = (a - liquidationLine * b) * 100;
  if (Math.abs(slope) < 1e-9) return null;
  const price = (liquidationLine * borrowed - collateral) / slope;
  if (!Number.isFinite(price) || price <= 0) return null;
  if (borrowed + b * price * 100 <= 0) return null;
  return price;
}

/** Which side a stop must lie on: a long's stop profit above the price and stop loss below; a short the other way. */
export function validStops(
  direction: Direction,
  price: number,
  stops: { stopProfit: number | null; stopLoss: number | null },
): { stopProfit: boolean; stopLoss: boolean } {
  const long = direction === 'long';
  const { stopProfit, stopLoss } = stops;
  return {
    stopProfit: stopProfit === null || (long ? stopProfit > price : stopProfit < price),
    stopLoss: stopLoss === null || (long ? stopLoss < price : stopLoss > price),
  };
}

/**
 * Which stop a price triggers: a long's stop profit at or above it, its stop loss at or below it; a short
 * the other way round. Stop profit first when both are crossed (a price cannot cross both of valid stops).
 */
export function triggeredStop(
  direction: Direction,
  price: number,
  stops: { stopProfit: number | null; stopLoss: number | null },
): 'stop_profit' | 'stop_loss' | null {
  const long = direction === 'long';
  const { stopProfit, stopLoss } = stops;
  if (stopProfit !== null && (long ? price >= stopProfit : price <= stopProfit)) return 'stop_profit';
  if (stopLoss !== null && (long ? price <= stopLoss : price >= stopLoss)) return 'stop_loss';
  return null;
}

/** The financed part of a position: what the deferred fee is charged on (a long's open value − margin). */
export function financedPart(position: { openValue: number; margin: number }): number {
  return Math.max(0, position.openValue - position.margin);
}

/** One day's deferred fee of a position: rate × its financed part, rounded half up to a minor unit. */
export function deferredFee(position: { openValue: number; margin: number }, dailyRate: number): number {
  return applyRate(financedPart(position), dailyRate);
}

/**
 * Whether a stop loss lies beyond the liquidation price (DOMAIN.md: allowed, with a warning): a long's
 * below it, a short's above it, so the engine liquidates the position before the stop loss can trigger.
 */
export function stopLossBeyondLiquidation(
  direction: Direction,
  stopLoss: number | null,
  liquidationPrice: number | null,
): boolean {
  if (stopLoss === null || liquidationPrice === null) return false;
  return direction === 'long' ? stopLoss < liquidationPrice : stopLoss > liquidationPrice;
}
