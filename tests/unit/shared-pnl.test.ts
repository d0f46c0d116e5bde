import { describe, expect, it } from 'vitest';
import { feesCharged, netPnl, pnlYield, pricePnlOf } from '../../src/shared/pnl';

const none = { buyFee: 0, sellFee: 0, stampDuty: 0, deferredFee: 0 };

describe('net P&L (DOMAIN.md "P&L")', () => {
  it('shows an A-share round trip at an unchanged price as the loss of its fees', () => {
    // 100 shares at ¥10.00 = ¥1,000 each way: commission min ¥5 + transfer 0.001% (¥0.01) per side,
    // stamp duty 0.05% (¥0.50) on the sale: 5.01 + 5.01 + 0.50 = ¥10.52.
    const charges = { buyFee: 501, sellFee: 501, stampDuty: 50, deferredFee: 0 };
    const pricePnl = pricePnlOf('long', 100_000, 100_000);
    expect(netPnl(pricePnl, charges)).toEqual({ pricePnl: 0, fees: 1052, pnl: -1052 });
  });

  it('subtracts the buy fee and the deferred fee charged so far from an open long', () => {
    // Bought 1,000 shares at ¥20.00 (¥20,000), now ¥20.50 (¥20,500): price pnl ¥500;
    // buy fee ¥5.20, two days of deferred fee at ¥5.00: net ¥500 − ¥15.20 = ¥484.80.
    const charges = { buyFee: 520, sellFee: 0, stampDuty: 0, deferredFee: 1000 };
    const result = netPnl(pricePnlOf('long', 2_000_000, 2_050_000), charges);
    expect(result).toEqual({ pricePnl: 50_000, fees: 1520, pnl: 48_480 });
    // Margin ¥10,000 at 2×: yield = 484.80 ÷ 10,000.
    expect(pnlYield(result.pnl, 1_000_000)).toBeCloseTo(0.04848, 10);
  });

  it('turns the price move of a short the other way round', () => {
    // Sold short at ¥1,000.00 of value, bought back at ¥1,050.00: a price loss of ¥50 and ¥2 of fees.
    const result = netPnl(pricePnlOf('short', 100_000, 105_000), { ...none, buyFee: 100, sellFee: 100 });
    expect(result).toEqual({ pricePnl: -5000, fees: 200, pnl: -5200 });
  });

  it('adds every kind of fee into fees', () => {
    expect(feesCharged({ buyFee: 1, sellFee: 20, stampDuty: 300, deferredFee: 4000 })).toBe(4321);
    expect(feesCharged(none)).toBe(0);
  });

  it('answers a yield of 0 without margin and rounds it to 6 decimals', () => {
    expect(pnlYield(-1052, 0)).toBe(0);
    expect(pnlYield(-1, 300)).toBe(-0.003333);
  });
});
