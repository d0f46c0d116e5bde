/** The price-alert rule the engine and the form share (src/shared/price-alerts.ts). */
import { describe, expect, it } from 'vitest';
import { alertMet, checkAlertValue } from '../../src/shared/price-alerts';

describe('price-alert rule', () => {
  const quote = { price: 350, changePct: -0.02 };

  it('holds at or beyond the value, in the kind’s direction', () => {
    expect(alertMet('priceAbove', 350, quote)).toBe(true);
    expect(alertMet('priceAbove', 350.01, quote)).toBe(false);
    expect(alertMet('priceBelow', 350, quote)).toBe(true);
    expect(alertMet('priceBelow', 349.99, quote)).toBe(false);
    expect(alertMet('changeAbove', -0.03, quote)).toBe(true);
    expect(alertMet('changeAbove', 0.05, quote)).toBe(false);
    expect(alertMet('changeBelow', -0.02, quote)).toBe(true);
    expect(alertMet('changeBelow', -0.05, quote)).toBe(false);
  });

  it('takes a positive price and a change between −100 % and +1000 %', () => {
    expect(checkAlertValue('priceAbove', 0.01)).toBeNull();
    expect(checkAlertValue('priceBelow', 0)).toBe('alertValueInvalid');
    expect(checkAlertValue('priceAbove', -5)).toBe('alertValueInvalid');
    expect(checkAlertValue('priceAbove', Number.NaN)).toBe('alertValueInvalid');
    expect(checkAlertValue('changeBelow', -0.5)).toBeNull();
    expect(checkAlertValue('changeBelow', -1)).toBe('alertValueInvalid');
    expect(checkAlertValue('changeAbove', 10)).toBe('alertValueInvalid');
    expect(checkAlertValue('changeAbove', Number.POSITIVE_INFINITY)).toBe('alertValueInvalid');
  });
});
