/**
 * Properties of the risk rule book (DOMAIN.md "Leverage, margin and liquidation"): the displayed
 * liquidation price is where R reaches the line, a main account and a sub-account in the same state are
 * decided alike, and a stop never fires on the wrong side.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocationRiskRatio } from '../../src/shared/allocation';
import { toMinor } from '../../src/shared/money';
import {
  decideRisk,
  liquidationPrice,
  riskRatio,
  triggeredStop,
  validStops,
  type AccountRiskState,
  type RiskPosition,
} from '../../src/shared/risk';

const TICK = 0.01;
const roundToTick = (price: number) => Math.round(price / TICK) * TICK;
const cents = (min: number, max: number) =>
  fc.integer({ min: Math.round(min * 100), max: Math.round(max * 100) }).map((c) => c / 100);

const positionArb = fc
  .record({
    code: fc.constantFrom('A', 'B', 'C'),
    direction: fc.constantFrom('long', 'short'),
    shares: fc.integer({ min: 1, max: 5_000 }),
    openPrice: cents(1, 500),
    leverage: fc.constantFrom(1, 2, 3, 5, 10, 20),
    move: fc.double({ min: 0.5, max: 1.5, noNaN: true }),
  })
  .map(({ code, direction, shares, openPrice, leverage, move }) => {
    const openValue = toMinor(openPrice * shares);
    return {
      code,
      direction,
      shares,
      openValue,
      margin: Math.ceil(openValue / leverage),
      price: Math.max(TICK, roundToTick(openPrice * move)),
    };
  });

const stateArb = fc
  .record({
    cash: fc.integer({ min: 0, max: 50_000_000 }),
    positions: fc.array(positionArb, { minLength: 1, maxLength: 5 }),
  })
  .map(({ cash, positions }) => ({
    cash,
    borrowedCapital: 0,
    positions: positions.map((p, i) => ({ ...p, id: i + 1 }) as RiskPosition),
  }));

const lineArb = fc.double({ min: 1.01, max: 1.3, noNaN: true });

/** The state with every position of `code` at `price`, everything else unchanged. */
function at(state: AccountRiskState, code: string, price: number): AccountRiskState {
  return { ...state, positions: state.positions.map((p) => (p.code === code ? { ...p, price } : p)) };
}

describe('risk rule book properties', () => {
  it('puts R on the liquidation line within one tick of the liquidation price, fed back as the market price', () => {
    fc.assert(
      fc.property(stateArb, lineArb, fc.constantFrom('A', 'B', 'C'), (state, line, code) => {
        fc.pre(state.positions.some((p) => p.code === code));
        const price = liquidationPrice(state, code, line);
        fc.pre(price !== null && price > 2 * TICK);
        const shown = roundToTick(price!);
        const below = riskRatio(at(state, code, shown - TICK));
        const above = riskRatio(at(state, code, shown + TICK));
        expect(below).not.toBeNull();
        expect(above).not.toBeNull();
        // One tick either side of the displayed price lies on either side of the line.
        expect(Math.min(below!, above!)).toBeLessThanOrEqual(line);
        expect(Math.max(below!, above!)).toBeGreaterThanOrEqual(line);
      }),
      { numRuns: 500 },
    );
  });

  it('decides a sub-account and a main account in the same state alike', () => {
    const lines = fc
      .tuple(fc.double({ min: 1, max: 1.3, noNaN: true }), fc.double({ min: 0, max: 0.2, noNaN: true }))
      .map(([liquidationLine, gap]) => ({ liquidationLine, warningLine: liquidationLine + gap }));
    fc.assert(
      fc.property(stateArb, lines, fc.integer({ min: 1, max: 100_000_000 }), (state, risk, allocated) => {
        // A sub-account: its positions are unleveraged longs, its capital is borrowed as a whole.
        const held = state.positions.map((p) => ({ ...p, direction: 'long' as const, margin: p.openValue }));
        const sub = { cash: state.cash, borrowedCapital: allocated, positions: held };
        // The same money in a main account: the borrowed capital carried by one position's own financing.
        const [first, ...rest] = held;
        const main = {
          cash: state.cash,
          borrowedCapital: 0,
          positions: [{ ...first!, margin: first!.openValue - allocated }, ...rest],
        };
        expect(decideRisk(main, risk)).toBe(decideRisk(sub, risk));
        // And the allocation's own figure, (cash + market value) ÷ allocated, gives that decision too.
        const value = held.reduce((sum, p) => sum + toMinor(p.price * p.shares), 0);
        const ratio = allocationRiskRatio(state.cash + value, allocated);
        const expected =
          ratio >= risk.warningLine ? 'ok' : ratio <= risk.liquidationLine ? 'liquidate' : 'warn';
        expect(decideRisk(sub, risk)).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('never triggers a stop on the wrong side', () => {
    const stop = fc.option(cents(0.01, 200), { nil: null });
    fc.assert(
      fc.property(
        fc.constantFrom('long', 'short'),
        cents(0.01, 200),
        stop,
        stop,
        cents(0.01, 200),
        (direction, placedAt, stopProfit, stopLoss, price) => {
          const stops = { stopProfit, stopLoss };
          const valid = validStops(direction, placedAt, stops);
          fc.pre(valid.stopProfit && valid.stopLoss);
          // Valid stops never fire at the price they were set against.
          expect(triggeredStop(direction, placedAt, stops)).toBeNull();
          const fired = triggeredStop(direction, price, stops);
          const long = direction === 'long';
          if (fired === 'stop_loss') expect(long ? price <= stopLoss! : price >= stopLoss!).toBe(true);
          if (fired === 'stop_profit') expect(long ? price >= stopProfit! : price <= stopProfit!).toBe(true);
          if (fired === null) {
            if (stopLoss !== null) expect(long ? price > stopLoss : price < stopLoss).toBe(true);
            if (stopProfit !== null) expect(long ? price < stopProfit : price > stopProfit).toBe(true);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
