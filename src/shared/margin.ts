/**
 * Margin of DOMAIN.md "Leverage, margin and liquidation", pure: the station opens positions with these and
 * the buy screen's breakdown shows the same figures before the user confirms. The liquidation price is the
 * rule book's (risk.ts): it depends on the whole account, not on the position alone.
 */
import type { Direction } from './api/types';

/** Margin = value ÷ leverage, rounded up to a whole minor unit (the borrowed part never exceeds its share). */
export function marginFor(valueMinor: number, leverage: number): number {
  return Math.ceil(valueMinor / leverage);
}

/** What a long borrows: value − margin (a short borrows the instrument itself, worth its value). */
export function borrowedFor(valueMinor: number, marginMinor: number, direction: Direction): number {
  return direction === 'long' ? Math.max(0, valueMinor - marginMinor) : valueMinor;
}
