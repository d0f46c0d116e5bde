import { describe, expect, it } from 'vitest';
import { fallPercent, riskStanding } from '../../src/shared/risk-gauge';
import { riskExposure, riskRatio, type AccountRiskState } from '../../src/shared/risk';

const lines = { warningLine: 1.1, liquidationLine: 1.05 };

describe('how far prices may fall before the warning line (DOMAIN.md "Risk ratio")', () => {
  it('says nothing can be liquidated when nothing is borrowed', () => {
    expect(riskStanding({ ...lines, ratio: null, borrowed: 0, longValue: 500_000 })).toEqual({
      level: 'none',
    });
  });

  it('finds the uniform fall at which (cash + MV·(1−f)) ÷ borrowed reaches the warning line', () => {
    // Cash ¥20,000, holdings ¥200,000, borrowed ¥150,000: R = 1.4667. At f: (20,000 + 200,000·(1−f)) ÷
    // 150,000 = 1.10 ⇒ f = (220,000 − 165,000) ÷ 200,000 = 27.5%.
    const standing = riskStanding({
      ...lines,
      ratio: 220_000 / 150_000,
      borrowed: 150_000,
      longValue: 200_000,
    });
    expect(standing).toMatchObject({ level: 'safe' });
    if (standing.level === 'none') throw new Error('borrowed');
    expect(standing.fallToWarning).toBeCloseTo(0.275, 12);
    expect(fallPercent(standing.fallToWarning!)).toBe(27);
    // The fall found puts R exactly on the line.
    const f = standing.fallToWarning!;
    expect((20_000 + 200_000 * (1 - f)) / 150_000).toBeCloseTo(1.1, 12);
  });

  it('reads a real account state the way the engine does', () => {
    // 1,000 shares bought at ¥100 with ¥25,000 margin (4×), now at ¥110, ¥5,000 of cash (minor units).
    const state: AccountRiskState = {
      cash: 500_000,
      borrowedCapital: 0,
      positions: [
        {
          id: 1,
          code: '600519',
          direction: 'long',
          shares: 1000,
          openValue: 10_000_000,
          margin: 2_500_000,
          price: 110,
        },
      ],
    };
    const exposure = riskExposure(state);
    expect(exposure).toEqual({
      ratio: riskRatio(state),
      borrowed: 7_500_000,
      longValue: 11_000_000,
      shortValue: 0,
    });
    const standing = riskStanding({ ...lines, ...exposure });
    if (standing.level === 'none') throw new Error('borrowed');
    // (5,000 + 110,000·(1−f)) = 1.1 × 75,000 ⇒ f = (115,000 − 82,500) ÷ 110,000.
    expect(standing.fallToWarning).toBeCloseTo(32_500 / 110_000, 12);
    // At that fall the price is ¥110·(1−f) and the engine's R is the warning line.
    const fallen = {
      ...state,
      positions: [{ ...state.positions[0]!, price: 110 * (1 - standing.fallToWarning!) }],
    };
    expect(riskRatio(fallen)).toBeCloseTo(1.1, 4);
  });

  it('has no room left at the warning line', () => {
    expect(riskStanding({ ...lines, ratio: 1.1, borrowed: 100_000, longValue: 110_000 })).toEqual({
      level: 'safe',
      ratio: 1.1,
      fallToWarning: 0,
    });
    expect(riskStanding({ ...lines, ratio: 1.08, borrowed: 100_000, longValue: 108_000 })).toEqual({
      level: 'warning',
      ratio: 1.08,
      fallToWarning: 0,
    });
  });

  it('is at liquidation at or below the liquidation line', () => {
    expect(riskStanding({ ...lines, ratio: 1.05, borrowed: 100_000, longValue: 105_000 })).toMatchObject({
      level: 'liquidation',
      fallToWarning: 0,
    });
    expect(riskStanding({ ...lines, ratio: 0.9, borrowed: 100_000, longValue: 90_000 })).toMatchObject({
      level: 'liquidation',
      fallToWarning: 0,
    });
  });

  it('finds no fall that reaches the line when nothing held falls with prices', () => {
    // A fund allocation holding only cash: its R does not move with prices.
    expect(riskStanding({ ...lines, ratio: 1.3333, borrowed: 300_000, longValue: 0 })).toMatchObject({
      level: 'safe',
      fallToWarning: null,
    });
    // A short gains as prices fall.
    expect(
      riskStanding({ ...lines, ratio: 1.5, borrowed: 100_000, longValue: 0, shortValue: 100_000 }),
    ).toMatchObject({ level: 'safe', fallToWarning: null });
  });
});
