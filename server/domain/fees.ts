/**
 * Trading fees of DOMAIN.md "Fees", in integer minor units, with the rates from the settings.
 * Each item is rounded half up to a whole minor unit unless the rule says otherwise.
 */
import { MINOR_PER_MAJOR, applyRate, ceilToUnit, roundHalfUp, toMinor } from '../../src/shared/money';
import type { StockMarket } from '../../src/shared/api/types';
import type { AShareFeeRates, FeeSettings, HkFeeRates, UsFeeRates } from '../config';

export type Side = 'buy' | 'sell';

export interface FeeBreakdown {
  /** Each fee by name, minor units. */
  items: Record<string, number>;
  /** The stamp duty among the items (0 where none). */
  stampDuty: number;
  /** Sum of the items, minor units. */
  total: number;
}

export interface TradeAmount {
  shares: number;
  /** Price × shares in minor units. */
  value: number;
}

function breakdown(items: Record<string, number>): FeeBreakdown {
  const total = Object.values(items).reduce((sum, v) => sum + v, 0);
  return { items, stampDuty: items.stampDuty ?? 0, total };
}

/** A-share: commission (with a minimum) and transfer fee both sides; stamp duty on sells. */
export function aShareFees(side: Side, trade: TradeAmount, rates: AShareFeeRates): FeeBreakdown {
  const items: Record<string, number> = {
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
  const items: Record<string, number> = {
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

export function tradeFees(
  market: StockMarket,
  side: Side,
  trade: TradeAmount,
  fees: FeeSettings,
): FeeBreakdown {
  switch (market) {
    case 'a':
    case 'star':
      return aShareFees(side, trade, fees.a);
    case 'hk':
      return hkFees(side, trade, fees.hk);
    case 'us':
      return usFees(side, trade, fees.us);
  }
}
