import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../server/config';
import { aShareFees, hkFees, tradeFees, usFees } from '../../server/trading/fees';

const { fees } = DEFAULT_SETTINGS;

describe('A-share fees (DOMAIN.md: commission 0.025% min ¥5, transfer 0.001%, stamp duty 0.05% on sells)', () => {
  it('charges commission and transfer fee on a ¥100,000 buy', () => {
    // 10,000,000 fen × 0.025% = 2,500; × 0.001% = 100.
    expect(aShareFees('buy', { shares: 1000, value: 10_000_000 }, fees.a)).toEqual({
      items: { commission: 2500, transferFee: 100 },
      stampDuty: 0,
      total: 2600,
    });
  });

  it('adds stamp duty on a sell', () => {
    // + 10,000,000 × 0.05% = 5,000.
    expect(aShareFees('sell', { shares: 1000, value: 10_000_000 }, fees.a)).toEqual({
      items: { commission: 2500, transferFee: 100, stampDuty: 5000 },
      stampDuty: 5000,
      total: 7600,
    });
  });

  it('applies the ¥5 minimum commission and rounds each item half up to the fen', () => {
    // ¥12,345.67: commission 308.64 fen < 500 → 500; transfer 12.35 → 12; stamp 617.28 → 617.
    const sell = aShareFees('sell', { shares: 100, value: 1_234_567 }, fees.a);
    expect(sell.items).toEqual({ commission: 500, transferFee: 12, stampDuty: 617 });
    expect(sell.total).toBe(1129);
    // Half a fen rounds up: 1,235,000 × 0.05% = 617.5 → 618.
    expect(aShareFees('sell', { shares: 100, value: 1_235_000 }, fees.a).items.stampDuty).toBe(618);
  });

  it('treats STAR like the main board', () => {
    expect(tradeFees('star', 'sell', { shares: 100, value: 1_000_000 }, fees)).toEqual(
      tradeFees('a', 'sell', { shares: 100, value: 1_000_000 }, fees),
    );
  });
});

describe('Hong Kong fees (both sides)', () => {
  it('charges every item on a HK$62,000 trade', () => {
    // 6,200,000 cents: commission 0.03% = 1,860; stamp 0.1% = 6,200 (exactly HK$62, no rounding up);
    // SFC 0.0027% = 167.4 → 167; trading fee 0.00565% = 350.3 → 350; AFRC 0.00015% = 9.3 → 9;
    // settlement 0.002% = 124 → minimum HK$2 = 200.
    const buy = hkFees('buy', { shares: 100, value: 6_200_000 }, fees.hk);
    expect(buy.items).toEqual({
      commission: 1860,
      stampDuty: 6200,
      sfcLevy: 167,
      tradingFee: 350,
      afrcLevy: 9,
      settlement: 200,
    });
    expect(buy.total).toBe(8786);
    expect(hkFees('sell', { shares: 100, value: 6_200_000 }, fees.hk)).toEqual(buy);
  });

  it('rounds stamp duty up to a whole HK$1', () => {
    // HK$62,050.50: stamp 62.0505 → HK$63; commission 1,861.515 → 1,862; SFC 167.536 → 168;
    // trading fee 350.585 → 351; AFRC 9.308 → 9.
    const buy = hkFees('buy', { shares: 100, value: 6_205_050 }, fees.hk);
    expect(buy.items).toMatchObject({
      stampDuty: 6300,
      commission: 1862,
      sfcLevy: 168,
      tradingFee: 351,
      afrcLevy: 9,
    });
    expect(buy.stampDuty).toBe(6300);
  });

  it('applies the minimum commission and the settlement cap', () => {
    // HK$1,000: commission 0.30 → HK$3; stamp HK$1.
    expect(hkFees('buy', { shares: 100, value: 100_000 }, fees.hk).items).toMatchObject({
      commission: 300,
      stampDuty: 100,
    });
    // HK$10,000,000: settlement 0.002% = HK$200 → capped at HK$100.
    expect(hkFees('buy', { shares: 10_000, value: 1_000_000_000 }, fees.hk).items.settlement).toBe(10_000);
  });
});

describe('US fees', () => {
  it('charges $0.005 a share with a $1 minimum on both sides', () => {
    expect(usFees('buy', { shares: 300, value: 3_000_000 }, fees.us)).toEqual({
      items: { commission: 150 },
      stampDuty: 0,
      total: 150,
    });
    expect(usFees('buy', { shares: 10, value: 300_000 }, fees.us).items.commission).toBe(100);
  });

  it('adds the FINRA TAF (capped at $8.30) and the SEC fee on sells', () => {
    // 300 × $0.000166 = $0.0498 → 5 cents.
    expect(usFees('sell', { shares: 300, value: 3_000_000 }, fees.us)).toEqual({
      items: { commission: 150, finraTaf: 5, secFee: 0 },
      stampDuty: 0,
      total: 155,
    });
    // 100,000 shares: TAF $16.60 → $8.30; commission $500.
    expect(usFees('sell', { shares: 100_000, value: 1_000_000_000 }, fees.us).items).toMatchObject({
      commission: 50_000,
      finraTaf: 830,
    });
    // The SEC fee rate is a setting: at $27.80 per million, a $1,000,000 sale pays $27.80.
    const withSec = usFees(
      'sell',
      { shares: 1000, value: 100_000_000 },
      { ...fees.us, secFeeRate: 0.0000278 },
    );
    expect(withSec.items.secFee).toBe(2780);
  });
});
