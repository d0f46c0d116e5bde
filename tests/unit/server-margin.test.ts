import { describe, expect, it } from 'vitest';
import { assertLeverage, marginFor, proportionalPart } from '../../server/trading/margin';
import { AppError } from '../../server/platform/errors';

describe('margin and leverage', () => {
  it('takes margin = value ÷ leverage, rounded up to the minor unit', () => {
    expect(marginFor(1_000_000, 1)).toBe(1_000_000);
    expect(marginFor(1_000_000, 5)).toBe(200_000);
    expect(marginFor(1_000_001, 3)).toBe(333_334);
  });

  it('refuses a leverage outside the market list with VALIDATION on the field', () => {
    expect(() => assertLeverage(5, [1, 2, 5])).not.toThrow();
    try {
      assertLeverage(3, [1, 2, 5]);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('VALIDATION');
      expect((error as AppError).fields).toEqual({ leverage: 'invalid' });
    }
  });

  it('splits amounts for a partial close so the parts add up', () => {
    const part = proportionalPart(1001, 1, 3);
    expect(part).toBe(334);
    expect(1001 - part).toBe(667);
  });
});
