/** Leverage, margin and the liquidation price of DOMAIN.md "Leverage, margin and liquidation". */
import { toMajor } from '../../src/shared/money';
import { AppError } from '../errors';

/** Margin = value ÷ leverage, rounded up to a whole minor unit (the borrowed part never exceeds its share). */
export function marginFor(valueMinor: number, leverage: number): number {
  return Math.ceil(valueMinor / leverage);
}

/** Refuses a leverage that is not in the market's list. */
export function assertLeverage(leverage: number, allowed: readonly number[]): void {
  if (!allowed.includes(leverage)) throw new AppError('VALIDATION', { fields: { leverage: 'invalid' } });
}

/**
 * The price at which a long position alone reaches the liquidation line: holdings ÷ borrowed = line,
 * so price = line × borrowed ÷ shares. Null with nothing borrowed (leverage 1): no liquidation.
 */
export function liquidationPrice(
  openValueMinor: number,
  marginMinor: number,
  shares: number,
  liquidationLine: number,
): number | null {
  const borrowed = openValueMinor - marginMinor;
  if (borrowed <= 0 || shares <= 0) return null;
  return toMajor(liquidationLine * borrowed) / shares;
}

/** Splits an amount for a partial close: the part for `lots` of `ofLots`, rounded half up. */
export function proportionalPart(amount: number, lots: number, ofLots: number): number {
  return Math.round((amount * lots) / ofLots);
}
