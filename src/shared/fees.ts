/**
 * Trading fees of DOMAIN.md "Fees", in integer minor units, with the rates from the station's settings.
 * Pure: the station charges with these functions and the buy screen shows its breakdown with the same ones,
 * from the rates getProductSetting.do publishes. Each item is rounded half up to a whole minor unit unless
 * the rule says otherwise.
 */
import { MINOR_PER_MAJOR, applyRate, ceilToUnit, roundHalfUp, toMinor } from './money';
import type { Direction, Market } from './api/types';
import { isExchangeFund } from './exchange-funds';

export interface AShareFeeRates {
  commissionRate: number;
  /** Minimum commission in major units. */
  commissionMin: number;
  transferFeeRate: number;
  /** Charged on sells only. */
  stampDutyRate: number;
}

export interface HkFeeRates {
  commissionRate: number;
  commissionMin: number;
  /** Both sides, rounded up to a whole `stampDutyUnit` (HK$1). */
  stampDutyRate: number;
  stampDutyUnit: number;
  sfcLevyRate: number;
  tradingFeeRate: number;
  afrcLevyRate: number;
  settlementRate: number;
  /** Settlement fee limits in major units; null: none (DOMAIN.md: none since 30 June 2025). */
  settlementMin: number | null;
  settlementMax: number | null;
}

export interface UsFeeRates {
  /** Per share, in major units. */
  commissionPerShare: number;
  commissionMin: number;
  /** FINRA trading activity fee: sales only, per share, rounded up to the cent, then kept within min–max. */
  tafPerShare: number;
  tafMin: number;
  tafMax: number;
  /** SEC fee on sell value (0 since May 2025). */
  secFeeRate: number;
}

/** Index (CFD-style) trading: a rate on the contract value, the same on both sides. */
export interface ContractFeeRates {
  /** Fraction of price × contracts × multiplier. */
  rate: number;
  /** Minimum per order in major units (0: none). */
  min: number;
}

/**
 * A futures product's fee as its exchange publishes it (DOMAIN.md "Fees"): a rate of the contract value or
 * an amount per contract, for opening, for closing a position opened on an earlier trading day, and for
 * closing one opened the same exchange trading day (CFFEX index futures charge ten times as much for that).
 */
export interface FuturesFeeRule {
  /** `rate`: the amounts are fractions of price × contracts × multiplier; `perContract`: major units each. */
  basis: 'rate' | 'perContract';
  open: number;
  close: number;
  closeToday: number;
}

/** Futures fees per product (the letters of the code: IF0 → IF), `default` for any other product. */
export interface FuturesFeeSettings {
  default: FuturesFeeRule;
  byProduct: Record<string, FuturesFeeRule>;
}

export interface FeeSettings {
  a: AShareFeeRates;
  hk: HkFeeRates;
  us: UsFeeRates;
  index: ContractFeeRates;
  futures: FuturesFeeSettings;
}

/** The side of the market a trade takes. Fees a sale owes (stamp duty, TAF, SEC fee) go with `sell`. */
export type Side = 'buy' | 'sell';

/** Whether a trade opens a position, or closes one opened on an earlier or the same trading day. */
export type Leg = 'open' | 'close' | 'closeToday';

/** The side of an order: opening a long buys and opening a short sells; closing takes the other side. */
export function sideOf(direction: Direction, leg: Leg): Side {
  const opening = leg === 'open';
  return (direction === 'long') === opening ? 'buy' : 'sell';
}

/** A futures code's product: its letters (IF0 → IF, RB2601 → RB). */
export function futuresProduct(code: string): string {
  return code.replace(/\d+$/, '');
}

/** The names of the fee items, as keys of `FeeBreakdown.items`. */
export type FeeItem =
  | 'commission'
  | 'transferFee'
  | 'stampDuty'
  | 'sfcLevy'
  | 'tradingFee'
  | 'afrcLevy'
  | 'settlement'
  | 'finraTaf'
  | 'secFee';

export interface FeeBreakdown {
  /** Each fee by name, minor units. */
  items: Partial<Record<FeeItem, number>>;
  /** The stamp duty among the items (0 where none). */
  stampDuty: number;
  /** Sum of the items, minor units. */
  total: number;
}

export interface TradeAmount {
  /** Shares; for indexes and futures contracts × multiplier. */
  shares: number;
  /** Price × shares in minor units. */
  value: number;
  /** Futures: contracts in the trade (a fee per contract counts them). */
  contracts?: number;
  /**
   * The instrument's code: a future's product sets its fee (else the default product's); an A-share
   * exchange-traded fund pays no stamp duty or transfer fee.
   */
  code?: string;
}

function breakdown(items: Partial<Record<FeeItem, number>>): FeeBreakdown {
  const total = Object.values(items).reduce((sum, v) => sum + v, 0);
  return { items, stampDuty: items.stampDuty ?? 0, total };
}

/**
 * A-share: commission (with a minimum) and transfer fee both sides; stamp duty on sells. An exchange-traded
 * fund (exchange-funds.ts) pays the commission only.
 */
export function aShareFees(side: Side, trade: TradeAmount, rates: AShareFeeRates): FeeBreakdown {
  const commission = Math.max(applyRate(trade.value, rates.commissionRate), toMinor(rates.commissionMin));
  if (isExchangeFund(trade.code)) return breakdown({ commission });
  const items: Partial<Record<FeeItem, number>> = {
    commission,
    transferFee: applyRate(trade.value, rates.transferFeeRate),
  };
  if (side === 'sell') items.stampDuty = applyRate(trade.value, rates.stampDutyRate);
  return breakdown(items);
}

/** Keeps a fee within optional limits given in major units (null: no limit). */
function within(fee: number, min: number | null, max: number | null): number {
  const floor = min === null ? fee : Math.max(fee, toMinor(min));
  return max === null ? floor : Math.min(floor, toMinor(max));
}

/** Hong Kong: the same on both sides; stamp duty rounded up to a whole HK$1; settlement within its limits. */
export function hkFees(_side: Side, trade: TradeAmount, rates: HkFeeRates): FeeBreakdown {
  return breakdown({
    commission: Math.max(applyRate(trade.value, rates.commissionRate), toMinor(rates.commissionMin)),
    stampDuty: ceilToUnit(trade.value * rates.stampDutyRate, toMinor(rates.stampDutyUnit)),
    sfcLevy: applyRate(trade.value, rates.sfcLevyRate),
    tradingFee: applyRate(trade.value, rates.tradingFeeRate),
    afrcLevy: applyRate(trade.value, rates.afrcLevyRate),
    settlement: within(
      applyRate(trade.value, rates.settlementRate),
      rates.settlementMin,
      rates.settlementMax,
    ),
  });
}

/**
 * US: commission per share with a minimum; a sale adds the FINRA TAF (per share, rounded up to the cent,
 * within its minimum and cap) and the SEC fee.
 */
export function usFees(side: Side, trade: TradeAmount, rates: UsFeeRates): FeeBreakdown {
  const items: Partial<Record<FeeItem, number>> = {
    commission: Math.max(
      roundHalfUp(trade.shares * rates.commissionPerShare * MINOR_PER_MAJOR),
      toMinor(rates.commissionMin),
    ),
  };
  if (side === 'sell') {
    const taf = ceilToUnit(trade.shares * rates.tafPerShare * MINOR_PER_MAJOR, 1);
    items.finraTaf = within(taf, rates.tafMin, rates.tafMax);
    items.secFee = applyRate(trade.value, rates.secFeeRate);
  }
  return breakdown(items);
}

/** Index: one commission, a rate on the contract value with an optional minimum, both sides. */
export function contractFees(_side: Side, trade: TradeAmount, rates: ContractFeeRates): FeeBreakdown {
  return breakdown({
    commission: Math.max(applyRate(trade.value, rates.rate), toMinor(rates.min)),
  });
}

/** The fee rule of a futures code's product, or the default. */
export function futuresFeeRule(code: string | undefined, fees: FuturesFeeSettings): FuturesFeeRule {
  return (code === undefined ? undefined : fees.byProduct[futuresProduct(code)]) ?? fees.default;
}

/** Futures: one commission, the product's rate of the value or amount per contract for the leg. */
export function futuresFees(leg: Leg, trade: TradeAmount, fees: FuturesFeeSettings): FeeBreakdown {
  const rule = futuresFeeRule(trade.code, fees);
  const amount = rule[leg];
  if (rule.basis === 'rate') return breakdown({ commission: applyRate(trade.value, amount) });
  if (trade.contracts === undefined) throw new Error('futuresFees: a fee per contract needs the contracts');
  return breakdown({ commission: toMinor(amount * trade.contracts) });
}

/**
 * The fees of a trade that opens or closes a position: stocks and indexes by the side the direction and
 * leg give (a short opens with a sale, so the sale's fees are paid then and not on the buy-back); futures
 * by the leg.
 */
export function positionFees(
  market: Market,
  direction: Direction,
  leg: Leg,
  trade: TradeAmount,
  fees: FeeSettings,
): FeeBreakdown {
  if (market === 'futures') return futuresFees(leg, trade, fees.futures);
  return tradeFees(market, sideOf(direction, leg), trade, fees);
}

/** The fees of a buy or a sale; a future's buy counts as an opening and its sale as a close. */
export function tradeFees(market: Market, side: Side, trade: TradeAmount, fees: FeeSettings): FeeBreakdown {
  switch (market) {
    case 'a':
    case 'star':
      return aShareFees(side, trade, fees.a);
    case 'hk':
      return hkFees(side, trade, fees.hk);
    case 'us':
      return usFees(side, trade, fees.us);
    case 'index':
      return contractFees(side, trade, fees.index);
    case 'futures':
      return futuresFees(side === 'buy' ? 'open' : 'close', trade, fees.futures);
  }
}
