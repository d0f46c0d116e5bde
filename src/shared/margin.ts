/**
 * Margin of DOMAIN.md "Leverage, margin and liquidation", pure: the station opens positions with these and
 * the buy screen's breakdown shows the same figures before the user confirms. The liquidation price is the
 * rule book's (risk.ts): it depends on the whole account, not on the position alone.
 */
import type { Direction } from './api/types';
import { futuresProduct } from './fees';

/** Margin = value ÷ leverage, rounded up to a whole minor unit (the borrowed part never exceeds its share). */
export function marginFor(valueMinor: number, leverage: number): number {
  return Math.ceil(valueMinor / leverage);
}

/** What a long borrows: value − margin (a short borrows the instrument itself, worth its value). */
export function borrowedFor(valueMinor: number, marginMinor: number, direction: Direction): number {
  return direction === 'long' ? Math.max(0, valueMinor - marginMinor) : valueMinor;
}

/** A futures product's margin rate (the product: the code's letters, IF0 → IF), or the default. */
export function futuresMarginRate(
  rates: { default: number; byProduct: Record<string, number> },
  code: string,
): number {
  return rates.byProduct[futuresProduct(code)] ?? rates.default;
}

/**
 * The leverage multiples offered under a margin rate: those up to 1 ÷ the rate (DOMAIN.md: a future's
 * margin is at least its exchange's rate), all of them where there is no such rate.
 */
export function leverageWithin(multiples: readonly number[], marginRate: number | null): number[] {
  if (marginRate === null) return [...multiples];
  // A hair of tolerance so that 8 × 0.125 (= 1 in binary noise) is allowed.
  return multiples.filter((m) => m * marginRate <= 1 + 1e-9);
}
