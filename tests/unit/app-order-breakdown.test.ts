import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../server/config';
import {
  maxAffordableLots,
  orderBreakdown,
  quickTransferAmount,
  canShort,
  leverageChoices,
  unitsPerLot,
  type TradingRules,
} from '../../src/shared/trading-rules';
import { checkStops, parsePrice } from '../../src/app/routes/trade/trade-rules';

const s = DEFAULT_SETTINGS;
const rules: TradingRules = {
  leverage: s.leverage,
  maxLots: { a: 100, star: 100, hk: 100, us: 10_000, index: 50, futures: 20 },
  sharesPerLot: { a: 100, star: 100, hk: null, us: 1 },
  tradingAccount: s.tradingAccount,
  shortStocks: false,
  fees: s.fees,
  indexMultiplier: s.indexMultiplier,
  liquidationLine: s.liquidationLine,
  warningLine: s.warningLine,
  deferredFeeRate: s.deferredFeeRate,
  futuresMarginRate: s.futuresMarginRate,
};

describe('the order breakdown the buy screen shows', () => {
  it('an A-share long at 5×: margin a fifth, commission at its ¥5 minimum, borrowed the rest, liquidated where the account is', () => {
    const input = {
      market: 'a',
      direction: 'long',
      lots: 1,
      unitsPerLot: 100,
      price: 8.37,
      leverage: 5,
      available: 200,
    } as const;
    const b = orderBreakdown(input, rules);
    expect(b).toMatchObject({ shares: 100, value: 837, margin: 167.4, feeTotal: 5.01, cost: 172.41 });
    expect(b.fees).toEqual({ commission: 500, transferFee: 1 });
    expect(b.borrowed).toBe(669.6);
    // The account's R = (27.59 left + price × 100) ÷ 669.60 borrowed reaches 1.05 at (703.08 − 27.59) ÷ 100.
    expect(b.liquidationPrice).toBeCloseTo(6.7549, 4);
    expect(b.deferredFeePerDay).toBe(0.33);
    expect(b.availableAfter).toBe(27.59);
    // With ¥1,000 available the cash left covers the line at any price: no liquidation price.
    expect(orderBreakdown({ ...input, available: 1000 }, rules).liquidationPrice).toBeNull();
    expect(b.insufficient).toBe(false);
  });

  it('moves a held position of the same code with the new one: the account-wide price the list then shows', () => {
    const input = {
      market: 'a',
      direction: 'long',
      lots: 1,
      unitsPerLot: 100,
      price: 10,
      leverage: 5,
      available: 200,
      code: '600000',
    } as const;
    // Held: 100 shares of the same code at 5× (value ¥1,000, margin ¥200, borrowed ¥800) at ¥10.
    const held = {
      id: 1,
      code: '600000',
      direction: 'long',
      shares: 100,
      openValue: 100_000,
      margin: 20_000,
      price: 10,
    } as const;
    const b = orderBreakdown({ ...input, holdings: [held] }, rules);
    // New: value ¥1,000, margin ¥200, fee ¥5.01 → cash 200 − 205.01 = −5.01; borrowed 800 + 800 = 1,600.
    // (−5.01 + p × 200) ÷ 1,600 = 1.05 → p = (1,680 + 5.01) ÷ 200 = 8.42505.
    expect(b.liquidationPrice).toBeCloseTo(8.42505, 5);
    // Another code held is valued at its own price and does not move.
    const other = orderBreakdown({ ...input, holdings: [{ ...held, code: '600036' }] }, rules);
    // (−5.01 + 1,000 + p × 100) ÷ 1,600 = 1.05 → p = (1,680 − 994.99) ÷ 100 = 6.8501.
    expect(other.liquidationPrice).toBeCloseTo(6.8501, 4);
  });

  it('no liquidation and no deferred fee without borrowing; says when funds do not cover the cost', () => {
    const b = orderBreakdown(
      { market: 'us', direction: 'long', lots: 10, unitsPerLot: 1, price: 200, leverage: 1, available: 1000 },
      rules,
    );
    expect(b.liquidationPrice).toBeNull();
    expect(b.deferredFeePerDay).toBe(0);
    expect(b.insufficient).toBe(true);
  });

  it('a short borrows the contracts and is liquidated above the price', () => {
    const b = orderBreakdown(
      {
        market: 'index',
        direction: 'short',
        lots: 1,
        unitsPerLot: unitsPerLot(rules, 'index', 'SH000300', {}),
        price: 4000,
        leverage: 10,
        available: 1_000_000,
      },
      rules,
    );
    expect(b.shares).toBe(300);
    expect(b.borrowed).toBe(1_200_000);
    expect(b.liquidationPrice!).toBeGreaterThan(4000);
    expect(canShort(rules, 'index')).toBe(true);
    expect(canShort(rules, 'a')).toBe(false);
  });
});

describe('futures on the order screen', () => {
  it('an IF contract: the CFFEX opening fee, no deferred fee, leverage up to 1 ÷ 12% margin', () => {
    // 1 × 300 × 4,000 = ¥1,200,000; at 8× the margin is ¥150,000; fee 0.0023% = ¥27.60.
    const b = orderBreakdown(
      {
        market: 'futures',
        code: 'IF0',
        direction: 'long',
        lots: 1,
        unitsPerLot: 300,
        price: 4000,
        leverage: 8,
        available: 1_000_000,
      },
      rules,
    );
    expect(b).toMatchObject({ value: 1_200_000, margin: 150_000, feeTotal: 27.6, cost: 150_027.6 });
    // Margined, not financed: nothing a day, though ¥1,050,000 is "borrowed".
    expect(b.deferredFeePerDay).toBe(0);
    expect(leverageChoices(rules, 'futures', 'IF0')).toEqual([1, 2, 3, 5, 8]);
    // Rebar at 7% margin: up to 14×.
    expect(leverageChoices(rules, 'futures', 'RB0')).toEqual([1, 2, 3, 5, 8, 10, 12]);
    expect(leverageChoices(rules, 'index', 'SH000300')).toEqual(s.leverage.index);
  });
});

describe('the stops on the order form', () => {
  const typed = (stopProfit: number | null, stopLoss: number | null) => ({
    stopProfit,
    stopLoss,
    stopProfitText: stopProfit === null ? '' : String(stopProfit),
    stopLossText: stopLoss === null ? '' : String(stopLoss),
  });
  it('a long takes profit above and loss below; a short the other way round', () => {
    expect(checkStops('long', 10, typed(11, 9))).toBeNull();
    expect(checkStops('long', 10, typed(9, null))).toBe('side');
    expect(checkStops('short', 10, typed(9, 11))).toBeNull();
    expect(checkStops('short', 10, typed(null, 9))).toBe('side');
  });
  it('a typed stop that is not a price is invalid; empty means none', () => {
    expect(parsePrice('abc')).toBeNull();
    expect(parsePrice('-1')).toBeNull();
    expect(parsePrice(' 9.5 ')).toBe(9.5);
    expect(
      checkStops('long', 10, { stopProfit: null, stopLoss: null, stopProfitText: 'x', stopLossText: '' }),
    ).toBe('invalid');
    expect(checkStops('long', 10, typed(null, null))).toBeNull();
  });
});

describe('what the buy form tells before the user starts', () => {
  const aShare = {
    market: 'a',
    direction: 'long',
    unitsPerLot: 100,
    price: 8.37,
    leverage: 5,
    available: 1000,
  } as const;

  it('max you can buy: the most lots whose margin and fees the funds cover, at the chosen leverage', () => {
    const max = maxAffordableLots(aShare, rules, 100);
    expect(orderBreakdown({ ...aShare, lots: max }, rules).insufficient).toBe(false);
    expect(orderBreakdown({ ...aShare, lots: max + 1 }, rules).insufficient).toBe(true);
    // ¥1,000 at 5× covers 5 lots (5 × 167.40 margin + ¥5 minimum commission + transfer fee).
    expect(max).toBe(5);
    // More leverage, more lots; never above the per-order maximum; none when one lot is too dear.
    expect(maxAffordableLots({ ...aShare, leverage: 10 }, rules, 100)).toBeGreaterThan(max);
    expect(maxAffordableLots({ ...aShare, available: 1e9 }, rules, 100)).toBe(100);
    expect(maxAffordableLots({ ...aShare, available: 100 }, rules, 100)).toBe(0);
  });

  it('offers to transfer the shortfall and 1% of the cost, rounded up, when the other account has it', () => {
    // Short by 12,000.40 of a 600,000 cost: 12,000.40 + 6,000 → 18,001.
    expect(quickTransferAmount(600_000, 587_999.6, 1_000_000)).toBe(18_001);
    // An empty index account and a 2× index contract: what it needs from the main account.
    expect(quickTransferAmount(601_234.56, 0, 1_000_000)).toBe(607_247);
    // Capped by what the other account holds, when it covers the shortfall itself.
    expect(quickTransferAmount(600_000, 0, 603_000)).toBe(603_000);
    // Nothing to offer when nothing is missing or the other account cannot cover it.
    expect(quickTransferAmount(500, 600, 1_000)).toBeNull();
    expect(quickTransferAmount(600_000, 0, 500_000)).toBeNull();
  });
});
