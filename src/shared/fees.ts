/**
 * Trading fees of DOMAIN.md "Fees", in integer minor units, with the rates from the station's settings.
 * Pure: the station charges with these functions and the buy screen shows its breakdown with the same ones,
 * from the rates getProductSetting.do publishes. Each item is rounded half up to a whole minor unit unless
 * the rule says otherwise.
 */
import { MINOR_PER_MAJOR, applyRate, ceilToUnit, roundHalfUp, toMinor } from './money';
import type { Market } from './api/types';

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
  settlementMin: number;
  settlementMax: number;
}

export interface UsFeeRates {
  /** Per share, in major units. */
  commissionPerShare: number;
  commissionMin: number;
  /** FINRA trading activity fee: sells only, per share, capped. */
  tafPerShare: number;
  tafMax: number;
  /** SEC fee on sell value (0 since May 2025). */
  secFeeRate: number;
}

/** Index (CFD-style) and futures trading: a rate on the contract value, the same on both sides. */
export interface ContractFeeRates {
  /** Fraction of price × contracts × multiplier. */
  rate: number;
  /** Minimum per order in major units (0: none). */
  min: number;
}

export interface FeeSettings {
  a: AShareFeeRates;
  hk: HkFeeRates;
  us: UsFeeRates;
  index: ContractFeeRates;
  futures: ContractFeeRates;
}

export type Side = 'buy' | 'sell';

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
}

function breakdown(items: Partial<Record<FeeItem, number>>): FeeBreakdown {
  const total = Object.values(items).reduce((sum, v) => sum + v, 0);
  return { items, stampDuty: items.stampDuty ?? 0, total };
}

/** A-share: commission (with a minimum) and transfer fee both sides; stamp duty on sells. */
export function aShareFees(side: Side, trade: TradeAmount, rates: AShareFeeRates): FeeBreakdown {
  const items: Partial<Record<FeeItem, number>> = {
    commission: Math.max(applyRate(trade.value, rates.commissionRate), toMinor(rates.commissionMin)),
    transferFee: applyRate(trade.value, rates.transferFeeRate),
  };
  if (side === 'sell') items.stampDuty = applyRate(trade.value, rates.stampDutyRate);
  return breakdown(items);
}

/** Hong Kong: the same on both sides; stamp duty rounded up to a whole HK$1; settlement fee clamped. */
export function hkFees(_side: Side, trade: TradeAmount, rates: HkFeeRates): FeeBreakdown {
  const settlement = applyRate(trade.value, rates.settlementRate);
  return breakdown({
    commission: Math.max(applyRate(trade.value, rates.commissionRate), toMinor(rates.commissionMin)),
    stampDuty: ceilToUnit(trade.value * rates.stampDutyRate, toMinor(rates.stampDutyUnit)),
    sfcLevy: applyRate(trade.value, rates.sfcLevyRate),
    tradingFee: applyRate(trade.value, rates.tradingFeeRate),
    afrcLevy: applyRate(trade.value, rates.afrcLevyRate),
    settlement: Math.min(Math.max(settlement, toMinor(rates.settlementMin)), toMinor(rates.settlementMax)),
  });
}

/** US: commission per share with a minimum; sells add the FINRA TAF (capped) and the SEC fee. */
export function usFees(side: Side, trade: TradeAmount, rates: UsFeeRates): FeeBreakdown {
  const items: Partial<Record<FeeItem, number>> = {
    commission: Math.max(
      roundHalfUp(trade.shares * rates.commissionPerShare * MINOR_PER_MAJOR),
      toMinor(rates.commissionMin),
    ),
  };
  if (side === 'sell') {
    items.finraTaf = Math.min(
      roundHalfUp(trade.shares * rates.tafPerShare * MINOR_PER_MAJOR),
      toMinor(rates.tafMax),
    );
    items.secFee = applyRate(trade.value, rates.secFeeRate);
  }
  return breakdown(items);
}

/** Index and futures: one commission, a rate on the contract value with an optional minimum, both sides. */
export function contractFees(_side: Side, trade: TradeAmount, rates: ContractFeeRates): FeeBreakdown {
  return breakdown({
    commission: Math.max(applyRate(trade.value, rates.rate), toMinor(rates.min)),
  });
}

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
    case 'futures':
      return contractFees(side, trade, fees[market]);
  }
}
