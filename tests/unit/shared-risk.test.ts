import { describe, expect, it } from 'vitest';
import {
  decideRisk,
  deferredFee,
  liquidationPlan,
  liquidationPrice,
  riskDecision,
  riskRatio,
  stopLossBeyondLiquidation,
  triggeredStop,
  validStops,
  type AccountRiskState,
  type RiskPosition,
} from '../../src/shared/risk';

const lines = { warningLine: 1.1, liquidationLine: 1.05 };

function long(id: number, code: string, shares: number, openPrice: number, leverage: number, price: number) {
  const openValue = Math.round(openPrice * shares * 100);
  return {
    id,
    code,
    direction: 'long',
    shares,
    openValue,
    margin: Math.ceil(openValue / leverage),
    price,
  } satisfies RiskPosition;
}

describe('the risk rule book', () => {
  it('takes R = (cash + collateral) ÷ borrowed, none when nothing is borrowed', () => {
    // ¥10,000 bought at ×5: ¥8,000 borrowed; worth ¥9,000 now, ¥500 cash: R = 9,500 ÷ 8,000.
    const state = { cash: 50_000, borrowedCapital: 0, positions: [long(1, '600000', 1000, 10, 5, 9)] };
    expect(riskRatio(state)).toBeCloseTo(9_500 / 8_000, 12);
    expect(riskRatio({ ...state, positions: [long(1, '600000', 1000, 10, 1, 9)] })).toBeNull();
  });

  it('counts a short as borrowing its value now against its proceeds + margin', () => {
    const short: RiskPosition = {
      id: 1,
      code: 'IF',
      direction: 'short',
      shares: 10,
      openValue: 100_000,
      margin: 20_000,
      price: 110,
    };
    expect(riskRatio({ cash: 0, borrowedCapital: 0, positions: [short] })).toBeCloseTo(120_000 / 110_000, 12);
  });

  it('counts a sub-account allocated funds as borrowed', () => {
    const state = { cash: 100_000, borrowedCapital: 500_000, positions: [long(1, '600000', 100, 50, 1, 45)] };
    expect(riskRatio(state)).toBeCloseTo((100_000 + 450_000) / 500_000, 12);
  });

  it('decides ok at or above the warning line, liquidate at or below the liquidation line, warn between', () => {
    expect(riskDecision(null, lines)).toBe('ok');
    expect(riskDecision(1.1, lines)).toBe('ok');
    expect(riskDecision(1.0999, lines)).toBe('warn');
    expect(riskDecision(1.05, lines)).toBe('liquidate');
    expect(riskDecision(0.5, lines)).toBe('liquidate');
  });

  it('plans a liquidation largest loss first, skipping what may not be closed and unleveraged longs', () => {
    const state: AccountRiskState = {
      cash: 0,
      borrowedCapital: 0,
      positions: [
        long(1, 'A', 100, 10, 5, 9), // −100
        long(2, 'B', 100, 10, 5, 7), // −300
        long(3, 'C', 100, 10, 1, 1), // unleveraged: closing does not raise R
        long(4, 'D', 100, 10, 5, 8), // −200, but suspended
      ],
    };
    expect(liquidationPlan(state, (p) => p.code !== 'D')).toEqual({ close: [2, 1], skipped: [4] });
  });

  it('plans every position of a sub-account, since its allocated funds are repaid at the end', () => {
    const state = {
      cash: 0,
      borrowedCapital: 500_000,
      positions: [long(1, 'A', 100, 10, 1, 9), long(2, 'B', 100, 10, 1, 8)],
    };
    expect(liquidationPlan(state, () => true)).toEqual({ close: [2, 1], skipped: [] });
  });

  it('puts the liquidation price of a lone leveraged long where holdings ÷ borrowed reach the line', () => {
    // $1,000 bought with $500 margin, no cash: 1.05 × 500 ÷ 10 = $52.50 (the position-alone figure).
    const p = {
      id: 1,
      code: 'X',
      direction: 'long',
      shares: 10,
      openValue: 100_000,
      margin: 50_000,
      price: 100,
    } as const;
    expect(liquidationPrice({ cash: 0, borrowedCapital: 0, positions: [p] }, 'X', 1.05)).toBeCloseTo(52.5, 9);
    // Free cash in the account lowers it: (1.05 × 500 − 100) ÷ 10 = $42.50.
    expect(liquidationPrice({ cash: 10_000, borrowedCapital: 0, positions: [p] }, 'X', 1.05)).toBeCloseTo(
      42.5,
      9,
    );
    // Nothing borrowed, or so much cash that no positive price reaches the line: none.
    expect(
      liquidationPrice({ cash: 0, borrowedCapital: 0, positions: [{ ...p, margin: 100_000 }] }, 'X', 1.05),
    ).toBeNull();
    expect(liquidationPrice({ cash: 60_000, borrowedCapital: 0, positions: [p] }, 'X', 1.05)).toBeNull();
  });

  it('puts a short liquidation price above its open price', () => {
    const short: RiskPosition = {
      id: 1,
      code: 'IF',
      direction: 'short',
      shares: 10,
      openValue: 100_000,
      margin: 20_000,
      price: 100,
    };
    // (1,000 + 200) ÷ (1.05 × 10) = 114.2857…
    expect(liquidationPrice({ cash: 0, borrowedCapital: 0, positions: [short] }, 'IF', 1.05)).toBeCloseTo(
      1200 / 10.5,
      9,
    );
  });

  it('accepts stops only on their side of the price', () => {
    expect(validStops('long', 10, { stopProfit: 11, stopLoss: 9 })).toEqual({
      stopProfit: true,
      stopLoss: true,
    });
    expect(validStops('long', 10, { stopProfit: 10, stopLoss: 10 })).toEqual({
      stopProfit: false,
      stopLoss: false,
    });
    expect(validStops('short', 10, { stopProfit: 9, stopLoss: 11 })).toEqual({
      stopProfit: true,
      stopLoss: true,
    });
    expect(validStops('short', 10, { stopProfit: 11, stopLoss: null })).toEqual({
      stopProfit: false,
      stopLoss: true,
    });
  });

  it('triggers a stop at or beyond it, on its side only', () => {
    const stops = { stopProfit: 11, stopLoss: 9 };
    expect(triggeredStop('long', 11, stops)).toBe('stop_profit');
    expect(triggeredStop('long', 9, stops)).toBe('stop_loss');
    expect(triggeredStop('long', 10, stops)).toBeNull();
    expect(triggeredStop('short', 9, { stopProfit: 9, stopLoss: 11 })).toBe('stop_profit');
    expect(triggeredStop('short', 11.5, { stopProfit: 9, stopLoss: 11 })).toBe('stop_loss');
  });

  it('charges the deferred fee on the financed part only', () => {
    expect(deferredFee({ openValue: 1_000_000, margin: 200_000 }, 0.0005)).toBe(400);
    expect(deferredFee({ openValue: 1_000_000, margin: 1_000_000 }, 0.0005)).toBe(0);
  });

  it('liquidates an account whose R falls exactly on the liquidation line', () => {
    // ¥10,000 at ×5 (¥8,000 borrowed) worth ¥7,900, with ¥500 cash: R = 8,400 ÷ 8,000 = 1.05.
    const state = { cash: 50_000, borrowedCapital: 0, positions: [long(1, 'A', 1000, 10, 5, 7.9)] };
    expect(decideRisk(state, lines)).toBe('liquidate');
    expect(decideRisk({ ...state, positions: [long(1, 'A', 1000, 10, 5, 8)] }, lines)).toBe('warn');
  });
});

describe('a stop loss beyond the liquidation price (DOMAIN.md: allowed, with a warning)', () => {
  it("warns for a long's stop below it and a short's above it, not otherwise", () => {
    expect(stopLossBeyondLiquidation('long', 8.99, 9)).toBe(true);
    expect(stopLossBeyondLiquidation('long', 9, 9)).toBe(false);
    expect(stopLossBeyondLiquidation('long', 9.5, 9)).toBe(false);
    expect(stopLossBeyondLiquidation('short', 11.01, 11)).toBe(true);
    expect(stopLossBeyondLiquidation('short', 10.5, 11)).toBe(false);
    expect(stopLossBeyondLiquidation('long', null, 9)).toBe(false);
    expect(stopLossBeyondLiquidation('long', 1, null)).toBe(false);
  });
});
