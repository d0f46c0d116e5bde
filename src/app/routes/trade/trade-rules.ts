/**
 * Order-form rules that are the app's own: reading a typed price, and the direction-aware side of the stops
 * (the rule book's validStops in src/shared/risk.ts, which the station applies too; checked here first so the
 * form can say so).
 */
import type { Direction } from '../../../shared/api/types';
import { validStops } from '../../../shared/risk';

/** A typed price: a positive finite number, else null (empty or not a number). */
export function parsePrice(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isFinite(value) && value > 0 ? value : null;
}

/**
 * null when the stops are good; 'invalid' when one is typed but not a price; 'side' when one lies on the
 * wrong side of `price` (long: stop profit above, stop loss below; short: the other way round).
 */
export function checkStops(
  direction: Direction,
  price: number,
  stops: { stopProfit: number | null; stopLoss: number | null; stopProfitText: string; stopLossText: string },
): 'invalid' | 'side' | null {
  if (
    (stops.stopProfit === null && stops.stopProfitText.trim() !== '') ||
    (stops.stopLoss === null && stops.stopLossText.trim() !== '')
  ) {
    return 'invalid';
  }
  const sides = validStops(direction, price, stops);
  return sides.stopProfit && sides.stopLoss ? null : 'side';
}
