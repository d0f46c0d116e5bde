/**
 * Leverage, margin and the liquidation price of DOMAIN.md "Leverage, margin and liquidation". The pure
 * margin and liquidation-price rules live in src/shared/margin.ts (the buy screen shows the same figures).
 */
export {
  liquidationPrice,
  marginFor,
  positionLiquidationPrice,
  shortLiquidationPrice,
} from '../../src/shared/margin';
import type { Direction } from '../../src/shared/api/types';
import { AppError } from '../platform/errors';

/** Refuses a leverage that is not in the market's list. */
export function assertLeverage(leverage: number, allowed: readonly number[]): void {
  if (!allowed.includes(leverage)) throw new AppError('VALIDATION', { fields: { leverage: 'invalid' } });
}

/** What a position puts at risk, in minor units, for the risk ratio R = collateral ÷ borrowed. */
export interface PositionRisk {
  collateral: number;
  borrowed: number;
}

/**
 * A position's side of the risk ratio at `valueMinor` (price × shares now):
 * - long: the holdings are the collateral of the money borrowed to buy them (open value − margin);
 * - short: the contracts (or shares) are borrowed, worth their value now; the collateral is what the sale
 *   raised plus the margin put up (open value + margin).
 */
export function positionRisk(
  position: { direction: Direction; open_value: number; margin: number },
  valueMinor: number,
): PositionRisk {
  return position.direction === 'long'
    ? { collateral: valueMinor, borrowed: Math.max(0, position.open_value - position.margin) }
    : { collateral: position.open_value + position.margin, borrowed: valueMinor };
}

/** Splits an amount for a partial close: the part for `lots` of `ofLots`, rounded half up. */
export function proportionalPart(amount: number, lots: number, ofLots: number): number {
  return Math.round((amount * lots) / ofLots);
}
