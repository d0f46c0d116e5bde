/**
 * Margin and liquidation price of DOMAIN.md "Leverage, margin and liquidation", pure: the station opens
 * positions with these and the buy screen's breakdown shows the same figures before the user confirms.
 */
import { toMajor } from './money';
import type { Direction } from './api/types';

/** Margin = value ÷ leverage, rounded up to a whole minor unit (the borrowed part never exceeds its share). */
export function marginFor(valueMinor: number, leverage: number): number {
  return Math.ceil(valueMinor / leverage);
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

/**
 * The price at which a short position alone reaches the liquidation line: collateral ÷ borrowed = line with
 * borrowed = price × shares, so price = (open value + margin) ÷ (line × shares). A short always borrows.
 */
export function shortLiquidationPrice(
  openValueMinor: number,
  marginMinor: number,
  shares: number,
  liquidationLine: number,
): number | null {
  if (shares <= 0) return null;
  return toMajor(openValueMinor + marginMinor) / (liquidationLine * shares);
}

/** The liquidation price of a position in either direction (before rounding to the tick). */
export function positionLiquidationPrice(
  position: { direction: Direction; open_value: number; margin: number; shares: number },
  liquidationLine: number,
): number | null {
  const at = position.direction === 'long' ? liquidationPrice : shortLiquidationPrice;
  return at(position.open_value, position.margin, position.shares, liquidationLine);
}

/** What a long borrows: value − margin (a short borrows the instrument itself, worth its value). */
export function borrowedFor(valueMinor: number, marginMinor: number, direction: Direction): number {
  return direction === 'long' ? Math.max(0, valueMinor - marginMinor) : valueMinor;
}
