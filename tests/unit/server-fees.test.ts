import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../server/config';
import { aShareFees, hkFees, tradeFees, usFees } from '../../server/trading/fees';
import { futuresFees, positionFees, sideOf } from '../../src/shared/fees';
import { isExchangeFund } from '../../src/shared/exchange-funds';

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

describe('A-share exchange-traded funds: commission only (no stamp duty, no transfer fee)', () => {
  it('charges a sale of 10,000 units of 510300 at ¥3.950 its commission alone', () => {
    // ¥39,500 = 3,950,000 fen × 0.025% = 987.5 → 988 fen; a stock would add 39.5 → 40 transfer fee and
    // 1,975 stamp duty.
    expect(aShareFees('sell', { shares: 10_000, value: 3_950_000, code: '510300' }, fees.a)).toEqual({
      items: { commission: 988 },
      stampDuty: 0,
      total: 988,
    });
    expect(aShareFees('sell', { shares: 10_000, value: 3_950_000, code: '600519' }, fees.a).total).toBe(
      988 + 40 + 1975,
    );
  });

  it('knows funds by their code ranges, not stocks of the same exchange', () => {
    for (const code of ['510300', '510050', '588000', '159915', '161725'])
      expect(isExchangeFund(code)).toBe(true);
    for (const code of ['600519', '000001', '300750', '688981', '00700', undefined]) {
      expect(isExchangeFund(code)).toBe(false);
    }
  });
});

describe('Hong Kong fees (both sides; settlement 0.0042% with no minimum or maximum since 30 June 2025)', () => {
  it('charges every item on a HK$62,000 trade', () => {
    // 6,200,000 cents: commission 0.03% = 1,860; stamp 0.1% = 6,200 (exactly HK$62, no rounding up);
    // SFC 0.0027% = 167.4 → 167; trading fee 0.00565% = 350.3 → 350; AFRC 0.00015% = 9.3 → 9;
    // settlement 0.0042% = 260.4 → 260. Total 8,846.
    const buy = hkFees('buy', { shares: 100, value: 6_200_000 }, fees.hk);
    expect(buy.items).toEqual({
      commission: 1860,
      stampDuty: 6200,
      sfcLevy: 167,
      tradingFee: 350,
      afrcLevy: 9,
      settlement: 260,
    });
    expect(buy.total).toBe(8846);
    expect(hkFees('sell', { shares: 100, value: 6_200_000 }, fees.hk)).toEqual(buy);
  });

  it('charges a HK$6,420 trade HK$0.27 settlement, not the old HK$2.00 minimum', () => {
    // 100 shares at HK$64.20 = 642,000 cents: settlement 0.0042% = 26.964 → 27 (HK$0.27; HK$2 before);
    // commission 192.6 → minimum HK$3 = 300; stamp HK$6.42 → rounded up to HK$7 = 700; SFC 17.334 → 17;
    // trading fee 36.273 → 36; AFRC 0.963 → 1. Total 300 + 700 + 17 + 36 + 1 + 27 = 1,081.
    const buy = hkFees('buy', { shares: 100, value: 642_000 }, fees.hk);
    expect(buy.items).toEqual({
      commission: 300,
      stampDuty: 700,
      sfcLevy: 17,
      tradingFee: 36,
      afrcLevy: 1,
      settlement: 27,
    });
    expect(buy.total).toBe(1081);
  });

  it('does not cap the settlement fee of a large trade; a set minimum and maximum still apply', () => {
    // HK$10,000,000 = 1,000,000,000 cents × 0.0042% = 42,000 (HK$420; the old cap was HK$100).
    expect(hkFees('sell', { shares: 10_000, value: 1_000_000_000 }, fees.hk).items.settlement).toBe(42_000);
    // The setting can still say HK$2–100 (the rule before 30 June 2025): 0.002% of HK$10,000,000 is HK$200
    // → HK$100; of HK$6,420 it is HK$0.13 → HK$2.
    const before = { ...fees.hk, settlementRate: 0.00002, settlementMin: 2, settlementMax: 100 };
    expect(hkFees('sell', { shares: 10_000, value: 1_000_000_000 }, before).items.settlement).toBe(10_000);
    expect(hkFees('sell', { shares: 100, value: 642_000 }, before).items.settlement).toBe(200);
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

  it('applies the minimum commission', () => {
    // HK$1,000: commission 0.30 → HK$3; stamp HK$1.
    expect(hkFees('buy', { shares: 100, value: 100_000 }, fees.hk).items).toMatchObject({
      commission: 300,
      stampDuty: 100,
    });
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

  it('adds the FINRA TAF, rounded up to the cent, and the SEC fee on sales', () => {
    // 300 × $0.000166 = $0.0498 → 5 cents.
    expect(usFees('sell', { shares: 300, value: 3_000_000 }, fees.us)).toEqual({
      items: { commission: 150, finraTaf: 5, secFee: 0 },
      stampDuty: 0,
      total: 155,
    });
    // 10 shares at $30: TAF 10 × $0.000166 = $0.00166 → rounded up to $0.01 (not $0.00); commission
    // $0.05 → minimum $1. Total $1.01.
    expect(usFees('sell', { shares: 10, value: 30_000 }, fees.us)).toEqual({
      items: { commission: 100, finraTaf: 1, secFee: 0 },
      stampDuty: 0,
      total: 101,
    });
    // 130 shares: $0.02158 → up to $0.03 (half up would give $0.02).
    expect(usFees('sell', { shares: 130, value: 130_000 }, fees.us).items.finraTaf).toBe(3);
    // 100,000 shares at $100: TAF $16.60 → capped at $8.30; commission $500.
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

describe('the fees a sale owes are paid on the sale, also when it opens a short (DOMAIN.md "Fees")', () => {
  it('opening a long buys and closing it sells; opening a short sells and closing it buys back', () => {
    expect([sideOf('long', 'open'), sideOf('long', 'close'), sideOf('long', 'closeToday')]).toEqual([
      'buy',
      'sell',
      'sell',
    ]);
    expect([sideOf('short', 'open'), sideOf('short', 'close'), sideOf('short', 'closeToday')]).toEqual([
      'sell',
      'buy',
      'buy',
    ]);
  });

  it('a US short of 1,000 shares at $20 pays the TAF on the opening sale and none on the buy-back', () => {
    // $20,000 = 2,000,000 cents. Open (a sale): commission 1,000 × $0.005 = $5.00 = 500; TAF 1,000 ×
    // $0.000166 = $0.166 → up to $0.17 = 17; SEC fee 0. Buy-back at $19: commission $5.00 only.
    const open = positionFees('us', 'short', 'open', { shares: 1000, value: 2_000_000 }, fees);
    expect(open.items).toEqual({ commission: 500, finraTaf: 17, secFee: 0 });
    expect(open.total).toBe(517);
    const close = positionFees('us', 'short', 'close', { shares: 1000, value: 1_900_000 }, fees);
    expect(close.items).toEqual({ commission: 500 });
    // A long pays them when it closes, as before.
    expect(positionFees('us', 'long', 'open', { shares: 1000, value: 2_000_000 }, fees).items).toEqual({
      commission: 500,
    });
    expect(positionFees('us', 'long', 'close', { shares: 1000, value: 2_000_000 }, fees).total).toBe(517);
  });

  it('an A-share short (where allowed) pays stamp duty on the opening sale, not on the buy-back', () => {
    // ¥100,000 = 10,000,000 fen: commission 2,500, transfer 100, stamp duty 0.05% = 5,000 on the open.
    const open = positionFees('a', 'short', 'open', { shares: 1000, value: 10_000_000 }, fees);
    expect(open).toEqual({
      items: { commission: 2500, transferFee: 100, stampDuty: 5000 },
      stampDuty: 5000,
      total: 7600,
    });
    const close = positionFees('a', 'short', 'close', { shares: 1000, value: 10_000_000 }, fees);
    expect(close).toEqual({ items: { commission: 2500, transferFee: 100 }, stampDuty: 0, total: 2600 });
  });
});

describe('futures fees per product, as the exchange publishes them', () => {
  // One IF contract at 4,000 points × ¥300 = ¥1,200,000 = 120,000,000 fen.
  const ifTrade = { shares: 300, value: 120_000_000, contracts: 1, code: 'IF0' };

  it('CFFEX IF: 0.0023% to open or to close an older position, 0.023% to close one opened today', () => {
    // 120,000,000 × 0.0023% = 2,760 fen (¥27.60); × 0.023% = 27,600 fen (¥276.00).
    expect(futuresFees('open', ifTrade, fees.futures).items).toEqual({ commission: 2760 });
    expect(futuresFees('close', ifTrade, fees.futures).items).toEqual({ commission: 2760 });
    expect(futuresFees('closeToday', ifTrade, fees.futures).items).toEqual({ commission: 27_600 });
    // A short opens and closes at the same rates: futures fees go by the leg, not the side.
    expect(positionFees('futures', 'short', 'open', ifTrade, fees).total).toBe(2760);
    expect(positionFees('futures', 'short', 'closeToday', ifTrade, fees).total).toBe(27_600);
  });

  it('a commodity future charges its own rate or amount per contract', () => {
    // SHFE rebar RB: 2 contracts × 10 t at ¥3,100 = ¥62,000 = 6,200,000 fen × 0.01% = 620 fen (¥6.20).
    const rb = { shares: 20, value: 6_200_000, contracts: 2, code: 'RB0' };
    expect(futuresFees('open', rb, fees.futures).total).toBe(620);
    expect(futuresFees('closeToday', rb, fees.futures).total).toBe(620);
    // SHFE gold AU: ¥10 per contract; 3 contracts (3,000 g at ¥950) pay ¥30 = 3,000 fen whatever the
    // price; closing today is free.
    const au = { shares: 3000, value: 285_000_000, contracts: 3, code: 'AU0' };
    expect(futuresFees('open', au, fees.futures).total).toBe(3000);
    expect(futuresFees('close', { ...au, value: 300_000_000 }, fees.futures).total).toBe(3000);
    expect(futuresFees('closeToday', au, fees.futures).total).toBe(0);
  });

  it('a buy of a future counts as an opening and a sale as a close of an older position', () => {
    expect(tradeFees('futures', 'buy', ifTrade, fees).total).toBe(2760);
    expect(tradeFees('futures', 'sell', ifTrade, fees).total).toBe(2760);
  });
});
