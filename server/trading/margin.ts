/**
 * Leverage and margin of DOMAIN.md "Leverage, margin and liquidation". The pure margin rule lives in
 * src/shared/margin.ts (the buy screen shows the same figures); the risk ratio and the liquidation price in
 * the rule book, src/shared/risk.ts.
 */
export { marginFor } from '../../src/shared/margin';
import { futuresMarginRate, leverageWithin } from '../../src/shared/margin';
import { leverageWithinLimits } from '../../src/shared/trading-rules';
import type { Market } from '../../src/shared/api/types';
import type { Settings } from '../config';
import { AppError } from '../platform';
import type { TradeLimits } from './trade-rules';

/** Refuses a leverage that is not in the market's list. */
export function assertLeverage(leverage: number, allowed: readonly number[]): void {
  if (!allowed.includes(leverage)) throw new AppError('VALIDATION', { fields: { leverage: 'invalid' } });
}

/**
 * Refuses a leverage outside the market's list and, for a future, above 1 ÷ its product's margin rate
 * (DOMAIN.md: futures take margin at a rate no lower than the exchange's), with a message naming both;
 * and above the limits' largest leverage (a competition's), naming it.
 */
export function assertOrderLeverage(
  leverage: number,
  market: Market,
  code: string,
  settings: Settings,
  limits: TradeLimits | null = null,
): void {
  assertLeverage(leverage, settings.leverage[market]);
  if (limits && !leverageWithinLimits(leverage, limits)) {
    throw new AppError('VALIDATION', {
      fields: { leverage: 'invalid' },
      msgKey: 'COMPETITION_LEVERAGE_ABOVE_MAX',
      params: { max: limits.maxLeverage },
    });
  }
  if (market !== 'futures') return;
  const rate = futuresMarginRate(settings.futuresMarginRate, code);
  const offered = leverageWithin(settings.leverage.futures, rate);
  if (offered.includes(leverage)) return;
  throw new AppError('VALIDATION', {
    fields: { leverage: 'invalid' },
    msgKey: 'LEVERAGE_ABOVE_MARGIN_RATE',
    params: { rate: Math.round(rate * 10_000) / 100, max: Math.max(1, ...offered) },
  });
}

/** Splits an amount for a partial close: the part for `lots` of `ofLots`, rounded half up. */
export function proportionalPart(amount: number, lots: number, ofLots: number): number {
  return Math.round((amount * lots) / ofLots);
}
