/**
 * Leverage and margin of DOMAIN.md "Leverage, margin and liquidation". The pure margin rule lives in
 * src/shared/margin.ts (the buy screen shows the same figures); the risk ratio and the liquidation price in
 * the rule book, src/shared/risk.ts.
 */
export { marginFor } from '../../src/shared/margin';
import { AppError } from '../platform';

/** Refuses a leverage that is not in the market's list. */
export function assertLeverage(leverage: number, allowed: readonly number[]): void {
  if (!allowed.includes(leverage)) throw new AppError('VALIDATION', { fields: { leverage: 'invalid' } });
}

/** Splits an amount for a partial close: the part for `lots` of `ofLots`, rounded half up. */
export function proportionalPart(amount: number, lots: number, ofLots: number): number {
  return Math.round((amount * lots) / ofLots);
}
