import { describe, expect, it } from 'vitest';
import {
  initialRiskRatio,
  offeredMultiples,
  quoteAllocation,
  startsAboveWarningLine,
} from '../../src/shared/allocation';
import { DEFAULT_SETTINGS } from '../../server/settings';

describe('fund allocation multiples (DOMAIN.md: every multiple offered starts above the warning line)', () => {
  const { warningLine, liquidationLine } = DEFAULT_SETTINGS;

  it('starts every default multiple strictly above the default warning line', () => {
    for (const type of DEFAULT_SETTINGS.products.allocation.types) {
      expect(type.multiples.length).toBeGreaterThan(0);
      for (const multiple of offeredMultiples(type.multiples, warningLine)) {
        const quote = quoteAllocation({
          margin: 100_000,
          multiple,
          days: 2,
          dailyFeeRate: 0.001,
          warningLine,
          liquidationLine,
        });
        // The sub-account starts with margin + allocated; R = that ÷ allocated (the amount borrowed).
        expect(quote.tradingFunds / quote.allocated, `${type.code} ×${multiple}`).toBeGreaterThan(
          warningLine,
        );
        expect(quote.tradingFunds, `${type.code} ×${multiple}`).toBeGreaterThan(quote.warningValue);
      }
      // The defaults list no multiple that is then withheld.
      expect(offeredMultiples(type.multiples, warningLine)).toEqual(type.multiples);
    }
  });

  it('puts 10× on the 1.10 line (11M ÷ 10M) and so does not offer it; 8× starts at 1.125', () => {
    expect(initialRiskRatio(10)).toBeCloseTo(1.1, 12);
    expect(startsAboveWarningLine(10, 1.1)).toBe(false);
    expect(initialRiskRatio(8)).toBe(1.125);
    expect(startsAboveWarningLine(8, 1.1)).toBe(true);
    expect(offeredMultiples([1, 2, 5, 8, 9, 10, 20], 1.1)).toEqual([1, 2, 5, 8, 9]);
    // A higher warning line withholds more: at 1.25, 4× starts on it.
    expect(offeredMultiples([1, 2, 3, 4, 5], 1.25)).toEqual([1, 2, 3]);
  });
});
