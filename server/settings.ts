/**
 * The market and money rules of DOMAIN.md as settings: their types and defaults (each rule's date of change
 * beside its default), and the check that refuses product terms the station cannot work with.
 */
import type { Currency, Market, StockMarket, AccountType, ProductSetting } from '../src/shared/api/types';
import type { FeeSettings } from '../src/shared/fees';
import type { AllocationType, FundType } from '../src/shared/api/funds';

export interface LotRule {
  /** Shares per lot; `null` where the instrument's board lot applies (Hong Kong). */
  sharesPerLot: number | null;
  /** Most lots in one order (spec §5: 1 to 100 lots for A-shares). */
  maxLotsPerOrder: number;
}

/** The fee rates' shapes live with the fee rules in src/shared/fees.ts (the app computes the same fees). */
export type {
  AShareFeeRates,
  ContractFeeRates,
  FeeSettings,
  HkFeeRates,
  UsFeeRates,
} from '../src/shared/fees';
/** The markets traded in contracts (lots are contracts; shares hold contracts × multiplier). */
export type ContractMarket = 'index' | 'futures';

export interface ContractRule {
  /** Most contracts in one order. */
  maxContractsPerOrder: number;
}

export interface Settings {
  /** Opening paper balances per account, in major units. */
  startingBalances: Record<AccountType, number>;
  accountCurrency: Record<AccountType, Currency>;
  /** Which account trades which market. */
  tradingAccount: Record<Market, AccountType>;
  fees: FeeSettings;
  lotRules: Record<StockMarket, LotRule>;
  contractRules: Record<ContractMarket, ContractRule>;
  /**
   * Index trading is CFD-style: one contract is worth index points × a multiplier in the index's own
   * currency, settled in the index account at the day's flash-exchange rate; per index code, `default` for
   * any other index.
   */
  indexMultiplier: { default: number; byCode: Record<string, number> };
  /** Whether buy.do may open a short position on a stock (DOMAIN.md: stocks are long only by default). */
  shortStocks: boolean;
  /** Most codes in one user's watchlist. */
  watchlistMax: number;
  /** Most price alerts of one user, armed or fired. */
  alertsMax: number;
  leverage: Record<Market, number[]>;
  /**
   * Futures margin (DOMAIN.md "Leverage, margin and liquidation"): a rate per product (IF0 → IF), no lower
   * than the exchange's minimum, `default` for any other; a product offers leverage up to 1 ÷ its rate.
   */
  futuresMarginRate: { default: number; byProduct: Record<string, number> };
  /** Daily price limit as a fraction of the previous close; null where the market has none. */
  priceLimit: Record<StockMarket, number | null>;
  /** The daily limit of main-board stocks under special treatment (ST, *ST). */
  stPriceLimit: number;
  /** Markets where shares bought today can be sold from the next trading day only. */
  tPlusOne: Record<StockMarket, boolean>;
  liquidationLine: number;
  warningLine: number;
  /** Deferred (overnight financing) fee per day on a leveraged position's borrowed value, a fraction. */
  deferredFeeRate: number;
  smsCodeTtlSeconds: number;
  smsResendSeconds: number;
  /** Wrong guesses before an SMS code is burnt. */
  smsMaxAttempts: number;
  sessionTtlDays: number;
  /** The time zone whose end of day ends the USER_TOKEN cookie. */
  cookieTimeZone: string;
  /** Where the daily price history of the simulation starts (UTC date). */
  marketAnchorDate: string;
  pageSizeDefault: number;
  pageSizeMax: number;
  dayBarsDefault: number;
  dayBarsMax: number;
  /** spec §3: which product areas the app shows, sent by GET /api/admin/getProductSetting.do. */
  productDisplay: ProductSetting;
  /** The products' terms (new shares, block trades, VIP picks, funds, fund allocation). */
  products: ProductSettings;
}

/** A range of whole numbers, both ends included. */
export interface IntRange {
  min: number;
  max: number;
}

/**
 * The products' terms (DOMAIN.md "New shares, block trades, VIP picks, funds, fund allocation"). Read on
 * every call, except the new-share calendar's, which is generated once when the station starts. The
 * generated offers, allocations and issues stay a function of MARKET_SEED and the day for given settings.
 */
export interface ProductSettings {
  newShares: NewShareSettings;
  blockTrades: BlockTradeSettings;
  vip: VipSettings;
  funds: FundSettings;
  allocation: AllocationSettings;
}

/** The generated new-share and new-bond calendar (server/products/new-share-calendar.ts). */
export interface NewShareSettings {
  /** The chance (0…1) that an A-share trading day has a share issue; read when the station starts. */
  shareOdds: number;
  /** The chance (0…1), drawn independently, that it has a convertible-bond issue; read at start. */
  bondOdds: number;
  /** How many days past the station's start the calendar reaches; read at start. */
  horizonDays: number;
  /** newStockList.do lists the issues whose subscription opens at most this many days ahead. */
  listAheadDays: number;
  /** Each issue's lots given out by the online draw, drawn evenly from the range; read at start. */
  onlineLots: IntRange;
  /** Each issue's per-user cap (lots), drawn evenly from the range; read at start. */
  perUserCap: IntRange;
  /** Each issue's chip-grab placement lots, drawn evenly from the range; read at start. */
  placementLots: IntRange;
}

/** Block trades (server/products/block-trades.ts): the day's offers. */
export interface BlockTradeSettings {
  /** Offers per A-share trading day. */
  offersPerDay: number;
  /** Only stocks whose reference price is at most this (yuan) are offered, so the minimum size is affordable. */
  priceCap: number;
  /** The discount to the price now, in whole percent: each offer's is one of min, min + 1, …, max. */
  discountPercent: IntRange;
  /** An offer's minimum size (lots) is one of these. */
  minLotsChoices: number[];
  /** Windows [opens, closes] in minutes after local midnight (Shanghai), given to the day's offers in turn. */
  windows: [number, number][];
}

/** VIP picks (server/products/vip-picks.ts): the day's limited allocations, stored the first time a day is asked. */
export interface VipSettings {
  /** Allocations per A-share trading day. */
  picksPerDay: number;
  /** Only stocks whose reference price is at most this (yuan) are picked. */
  priceCap: number;
  /** An allocation's total lots are one of these. */
  totalLotsChoices: number[];
  /** An allocation's per-user cap (lots over all of a user's purchases) is one of these. */
  maxLotsPerUserChoices: number[];
  /** The set price's discount to the previous close, in whole percent: one of min, min + 1, …, max. */
  discountPercent: IntRange;
  /** The window [opens, closes] in minutes after local midnight (Shanghai). */
  window: [number, number];
}

/** A fund product's fees and smallest purchase. */
export interface FundTerms {
  /** Fraction of the amount paid that is the purchase fee. */
  purchaseFeeRate: number;
  /** Fraction of the redemption's value that is the redemption fee. */
  redeemFeeRate: number;
  /** The smallest purchase, yuan. */
  minPurchase: number;
}

/** Fund products (server/products/funds.ts): their terms by fund code, `default` for any other fund. */
export interface FundSettings {
  terms: { default: FundTerms; byCode: Record<string, FundTerms> };
  /**
   * The short-holding redemption tier (server/products/fund-redemption.ts): units of an open-ended fund held
   * for less than `days` calendar days pay a redemption fee of at least `minRedeemFeeRate`, as the CSRC's
   * Provisions on the Liquidity Risk Management of Publicly Offered Open-ended Securities Investment Funds
   * (2017, art. 23) require: at least 1.5% on holdings under 7 days, credited to the fund's assets. Money
   * market funds are outside that rule (`exemptTypes`). Longer holdings pay the fund's redeemFeeRate.
   */
  shortHold: { days: number; minRedeemFeeRate: number; exemptTypes: FundType[] };
}

/** Fund allocation (server/products/fund-allocation.ts), published by getFundsSetting.do and getFundsTypeList.do. */
export interface AllocationSettings {
  /**
   * The allocation types: period range (trading days), multiples, and the management fee per day on the
   * allocated funds (a fraction; DOMAIN.md: 0.1%/day for the daily type). An application keeps its rate.
   */
  types: AllocationType[];
  /** The margin's limits and step, yuan. */
  minMargin: number;
  maxMargin: number;
  marginStep: number;
}

/** DOMAIN.md defaults. An operator changes them here, not in code scattered about. */
export const DEFAULT_SETTINGS: Settings = {
  startingBalances: { main: 1_000_000, index: 0, newstock: 0, hk: 100_000, us: 100_000 },
  accountCurrency: { main: 'CNY', index: 'CNY', newstock: 'CNY', hk: 'HKD', us: 'USD' },
  tradingAccount: { a: 'main', star: 'main', hk: 'hk', us: 'us', index: 'index', futures: 'index' },
  fees: {
    a: { commissionRate: 0.00025, commissionMin: 5, transferFeeRate: 0.00001, stampDutyRate: 0.0005 },
    hk: {
      commissionRate: 0.0003,
      commissionMin: 3,
      stampDutyRate: 0.001,
      stampDutyUnit: 1,
      sfcLevyRate: 0.000027,
      tradingFeeRate: 0.0000565,
      afrcLevyRate: 0.0000015,
      // HKSCC settlement fee 0.0042% with no minimum or maximum since 30 June 2025 (0.002%, HK$2–100 before).
      settlementRate: 0.000042,
      settlementMin: null,
      settlementMax: null,
    },
    // FINRA TAF as in force in 2026 (DOMAIN.md "Fees"): $0.000166 a share on sales, rounded up to the cent,
    // at least $0.01, at most $8.30 (rounded up and with the $0.01 minimum since 26 November 2026; rounded
    // half up before). SEC fee rate 0 since 14 May 2025.
    us: {
      commissionPerShare: 0.005,
      commissionMin: 1,
      tafPerShare: 0.000166,
      tafMin: 0.01,
      tafMax: 8.3,
      secFeeRate: 0,
    },
    // Index CFDs: 0.0023% of the contract value per side, after the CFFEX index futures; no minimum.
    index: { rate: 0.000023, min: 0 },
    // Futures per product as the exchanges publish them (approximately their 2025 schedules; each exchange
    // changes its own, and the operator follows here): a rate of the value or yuan per contract, to open,
    // to close an older position, to close one opened the same trading day. CFFEX index futures: 0.0023%,
    // and 0.023% to close today (since 20 March 2023). Per product since 26 November 2026 (one rate,
    // 0.0023%, before); `default` (0.01%) serves a product not listed.
    futures: {
      default: { basis: 'rate', open: 0.0001, close: 0.0001, closeToday: 0.0001 },
      byProduct: {
        IF: { basis: 'rate', open: 0.000023, close: 0.000023, closeToday: 0.00023 },
        IH: { basis: 'rate', open: 0.000023, close: 0.000023, closeToday: 0.00023 },
        IC: { basis: 'rate', open: 0.000023, close: 0.000023, closeToday: 0.00023 },
        IM: { basis: 'rate', open: 0.000023, close: 0.000023, closeToday: 0.00023 },
        AU: { basis: 'perContract', open: 10, close: 10, closeToday: 0 },
        AG: { basis: 'rate', open: 0.00005, close: 0.00005, closeToday: 0.00005 },
        CU: { basis: 'rate', open: 0.00005, close: 0.00005, closeToday: 0.0001 },
        RB: { basis: 'rate', open: 0.0001, close: 0.0001, closeToday: 0.0001 },
        I: { basis: 'rate', open: 0.0001, close: 0.0001, closeToday: 0.0001 },
        SC: { basis: 'perContract', open: 20, close: 20, closeToday: 0 },
      },
    },
  },
  lotRules: {
    a: { sharesPerLot: 100, maxLotsPerOrder: 100 },
    star: { sharesPerLot: 100, maxLotsPerOrder: 100 },
    hk: { sharesPerLot: null, maxLotsPerOrder: 100 },
    us: { sharesPerLot: 1, maxLotsPerOrder: 10_000 },
  },
  // CFFEX caps one limit order of index futures at 20 contracts; the index CFDs allow a little more.
  contractRules: { index: { maxContractsPerOrder: 50 }, futures: { maxContractsPerOrder: 20 } },
  // Units of the index's own currency per point (DOMAIN.md "Markets": HSI HK$50, SPX US$50 a point, CNY for
  // the Chinese indexes), after the futures on the same index where there are some (IF/IH 300, IC 200; HSI
  // and HSTECH HK$50, E-mini S&P US$50, E-mini Dow US$5). The Nasdaq Composite has no listed future (the
  // E-mini's US$20 is the Nasdaq-100's): US$10 keeps its contract near the S&P and Dow ones in size.
  // Since 26 November 2026: HSI, HSTECH, SPX, IXIC and DJI in their own currency at the flash-exchange rate
  // (yuan per point before) and IXIC US$10 (20 before).
  indexMultiplier: {
    default: 100,
    byCode: { SH000300: 300, SH000016: 300, SH000905: 200, HSI: 50, HSTECH: 50, SPX: 50, IXIC: 10, DJI: 5 },
  },
  shortStocks: false,
  watchlistMax: 200,
  alertsMax: 50,
  leverage: {
    a: [1, 2, 3, 5, 10],
    star: [1, 2, 3, 5, 10],
    hk: [1, 2, 5],
    us: [1, 2, 5],
    index: [1, 2, 3, 5, 10, 15, 20],
    // The multiples a future may be offered; each product offers those up to 1 ÷ its margin rate
    // (futuresMarginRate). Since 26 November 2026, with 8 so CFFEX index futures (12%) offer 8× (1–20 before).
    futures: [1, 2, 3, 5, 8, 10, 12, 15, 20],
  },
  // The exchanges' minimum margin rates (2025; DOMAIN.md: CFFEX index futures about 12%, commodities
  // 5–15%), per product; 15% for a product not listed. Since 26 November 2026 (none before: up to 20×).
  futuresMarginRate: {
    default: 0.15,
    byProduct: {
      IF: 0.12,
      IH: 0.12,
      IC: 0.12,
      IM: 0.12,
      AU: 0.12,
      AG: 0.13,
      CU: 0.09,
      RB: 0.07,
      I: 0.11,
      SC: 0.1,
    },
  },
  priceLimit: { a: 0.1, star: 0.2, hk: null, us: null },
  // ±5% until July 2025; ST and *ST main-board stocks have moved ±10% since.
  stPriceLimit: 0.1,
  tPlusOne: { a: true, star: true, hk: false, us: false },
  liquidationLine: 1.05,
  warningLine: 1.1,
  deferredFeeRate: 0.0005,
  smsCodeTtlSeconds: 60,
  smsResendSeconds: 60,
  smsMaxAttempts: 5,
  sessionTtlDays: 30,
  cookieTimeZone: 'Asia/Shanghai',
  marketAnchorDate: '2020-01-01',
  pageSizeDefault: 15,
  pageSizeMax: 100,
  dayBarsDefault: 120,
  dayBarsMax: 1000,
  productDisplay: { futuresDisplay: true, indexDisplay: true, kcStockDisplay: true, stockDisplay: true },
  products: {
    newShares: {
      shareOdds: 0.2,
      bondOdds: 0.1,
      horizonDays: 120,
      listAheadDays: 14,
      onlineLots: { min: 10, max: 30 },
      perUserCap: { min: 5, max: 20 },
      placementLots: { min: 20, max: 60 },
    },
    blockTrades: {
      offersPerDay: 8,
      // The largest minimum size (30 lots) of a ¥100 stock then fits a new account's ¥1,000,000.
      priceCap: 100,
      discountPercent: { min: 3, max: 12 },
      minLotsChoices: [5, 10, 20, 30],
      // 09:30–15:00, 09:30–11:30, 13:00–15:00, 10:30–14:00.
      windows: [
        [570, 900],
        [570, 690],
        [780, 900],
        [630, 840],
      ],
    },
    vip: {
      picksPerDay: 4,
      priceCap: 100,
      totalLotsChoices: [50, 80, 100, 150],
      maxLotsPerUserChoices: [5, 10, 20],
      discountPercent: { min: 2, max: 8 },
      window: [570, 900],
    },
    funds: {
      terms: {
        default: { purchaseFeeRate: 0.0015, redeemFeeRate: 0.005, minPurchase: 10 },
        byCode: {
          '110020': { purchaseFeeRate: 0.0012, redeemFeeRate: 0.005, minPurchase: 10 },
          '110011': { purchaseFeeRate: 0.0015, redeemFeeRate: 0.005, minPurchase: 10 },
          '161725': { purchaseFeeRate: 0.0015, redeemFeeRate: 0.005, minPurchase: 10 },
          '000171': { purchaseFeeRate: 0.0008, redeemFeeRate: 0.001, minPurchase: 10 },
          '003003': { purchaseFeeRate: 0, redeemFeeRate: 0, minPurchase: 1 },
        },
      },
      shortHold: { days: 7, minRedeemFeeRate: 0.015, exemptTypes: ['money'] },
    },
    allocation: {
      types: [
        // No 10×: it would start at R = 1.10, on the default warning line (src/shared/allocation.ts).
        { code: 'days', minDays: 2, maxDays: 30, multiples: [1, 2, 3, 4, 5, 6, 8], dailyFeeRate: 0.001 },
        { code: 'months', minDays: 20, maxDays: 120, multiples: [1, 2, 3, 4, 5], dailyFeeRate: 0.0008 },
      ],
      minMargin: 1_000,
      maxMargin: 1_000_000,
      marginStep: 100,
    },
  },
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Refuses product terms the products cannot work with (an operator's edit of DEFAULT_SETTINGS), naming the
 * setting: empty choices, reversed ranges, rates outside 0…1, windows outside the day, a block trade's
 * minimum size above the largest order.
 */
export function checkProductSettings(settings: Settings): void {
  const p = settings.products;
  const fail = (name: string, rule: string) => {
    throw new ConfigError(`settings.products.${name} ${rule}`);
  };
  const whole = (name: string, value: number, min: number, max: number) => {
    if (!Number.isInteger(value) || value < min || value > max)
      fail(name, `must be a whole number from ${min} to ${max}; got ${value}`);
  };
  const fraction = (name: string, value: number, max = 1) => {
    if (!Number.isFinite(value) || value < 0 || value > max)
      fail(name, `must be a number from 0 to ${max}; got ${value}`);
  };
  const positive = (name: string, value: number) => {
    if (!Number.isFinite(value) || value <= 0) fail(name, `must be above 0; got ${value}`);
  };
  const range = (name: string, r: IntRange, min: number, max: number) => {
    whole(`${name}.min`, r.min, min, max);
    whole(`${name}.max`, r.max, r.min, max);
  };
  const choices = (name: string, list: readonly number[], max: number) => {
    if (list.length === 0) fail(name, 'must not be empty');
    list.forEach((value, i) => whole(`${name}[${i}]`, value, 1, max));
  };
  const window = (name: string, [opens, closes]: readonly [number, number]) => {
    whole(`${name}[0]`, opens, 0, 1439);
    whole(`${name}[1]`, closes, opens + 1, 1440);
  };

  const n = p.newShares;
  fraction('newShares.shareOdds', n.shareOdds);
  fraction('newShares.bondOdds', n.bondOdds);
  whole('newShares.horizonDays', n.horizonDays, 1, 3650);
  whole('newShares.listAheadDays', n.listAheadDays, 0, 3650);
  range('newShares.onlineLots', n.onlineLots, 1, 1_000_000);
  range('newShares.perUserCap', n.perUserCap, 1, 1_000_000);
  range('newShares.placementLots', n.placementLots, 1, 1_000_000);

  const b = p.blockTrades;
  const maxLots = Math.min(settings.lotRules.a.maxLotsPerOrder, settings.lotRules.star.maxLotsPerOrder);
  whole('blockTrades.offersPerDay', b.offersPerDay, 0, 1000);
  positive('blockTrades.priceCap', b.priceCap);
  range('blockTrades.discountPercent', b.discountPercent, 0, 99);
  choices('blockTrades.minLotsChoices', b.minLotsChoices, maxLots);
  if (b.windows.length === 0) fail('blockTrades.windows', 'must not be empty');
  b.windows.forEach((w, i) => window(`blockTrades.windows[${i}]`, w));

  const v = p.vip;
  whole('vip.picksPerDay', v.picksPerDay, 0, 1000);
  positive('vip.priceCap', v.priceCap);
  choices('vip.totalLotsChoices', v.totalLotsChoices, 1_000_000);
  choices('vip.maxLotsPerUserChoices', v.maxLotsPerUserChoices, 1_000_000);
  range('vip.discountPercent', v.discountPercent, 0, 99);
  window('vip.window', v.window);

  const terms = Object.entries(p.funds.terms.byCode).map(([code, t]) => [`byCode.${code}`, t] as const);
  for (const [name, t] of [['default', p.funds.terms.default] as const, ...terms]) {
    fraction(`funds.terms.${name}.purchaseFeeRate`, t.purchaseFeeRate, 0.5);
    fraction(`funds.terms.${name}.redeemFeeRate`, t.redeemFeeRate, 0.5);
    positive(`funds.terms.${name}.minPurchase`, t.minPurchase);
  }
  whole('funds.shortHold.days', p.funds.shortHold.days, 0, 366);
  fraction('funds.shortHold.minRedeemFeeRate', p.funds.shortHold.minRedeemFeeRate, 0.5);

  const a = p.allocation;
  if (a.types.length === 0) fail('allocation.types', 'must not be empty');
  if (new Set(a.types.map((t) => t.code)).size !== a.types.length) {
    fail('allocation.types', 'must not repeat a code');
  }
  a.types.forEach((t, i) => {
    const name = `allocation.types[${i}]`;
    if (t.code !== 'days' && t.code !== 'months') fail(`${name}.code`, 'must be days or months');
    whole(`${name}.minDays`, t.minDays, 1, 1000);
    whole(`${name}.maxDays`, t.maxDays, t.minDays, 1000);
    choices(`${name}.multiples`, t.multiples, 100);
    fraction(`${name}.dailyFeeRate`, t.dailyFeeRate, 0.1);
  });
  positive('allocation.marginStep', a.marginStep);
  positive('allocation.minMargin', a.minMargin);
  if (!(a.maxMargin >= a.minMargin)) fail('allocation.maxMargin', 'must be at least minMargin');
}
