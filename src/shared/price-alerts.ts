/**
 * The price-alert rule, written once for the station's engine and the app's form: when an alert's
 * condition holds at a quote, and which values an alert may take.
 */
import type { PriceAlertKind } from './api/alerts';
import type { ValidationKey } from './validation';

/** A change alert's value is a fraction of the previous close: below −100 % or above +1000 % never happens. */
const CHANGE_MIN = -1;
const CHANGE_MAX = 10;

/** Whether the alert's condition holds at a quote (a price at or beyond the value fires it). */
export function alertMet(
  kind: PriceAlertKind,
  value: number,
  quote: { price: number; changePct: number },
): boolean {
  switch (kind) {
    case 'priceAbove':
      return quote.price >= value;
    case 'priceBelow':
      return quote.price <= value;
    case 'changeAbove':
      return quote.changePct >= value;
    case 'changeBelow':
      return quote.changePct <= value;
  }
}

/** What is wrong with an alert's value, or null: a price is positive, a change within −100 % and +1000 %. */
export function checkAlertValue(kind: PriceAlertKind, value: number): ValidationKey | null {
  if (!Number.isFinite(value)) return 'alertValueInvalid';
  if (kind === 'priceAbove' || kind === 'priceBelow') return value > 0 ? null : 'alertValueInvalid';
  return value > CHANGE_MIN && value < CHANGE_MAX ? null : 'alertValueInvalid';
}
