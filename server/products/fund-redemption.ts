/**
 * The redemption fee of an open-ended fund, by holding period per purchase lot (DOMAIN.md "Funds"; the tiers
 * are settings.products.funds.shortHold).
 *
 * Units are redeemed first in, first out: the units sold before are taken from the oldest purchases, and a
 * redemption takes the oldest units still held. Each lot's units held for less than `shortHold.days` calendar
 * days (from the purchase's instant) pay at least `shortHold.minRedeemFeeRate`; the others pay the fund's
 * redeemFeeRate. Money in minor units; the fee of each part is rounded half up (applyRate).
 */
import { applyRate, toMinor } from '../../src/shared/money';
import type { FundType } from '../../src/shared/api/funds';
import { DAY_MS } from '../market';
import type { FundSettings } from '../settings';

/** A purchase: its units (hundredths) and when it was bought. */
export interface FundLot {
  units: number;
  boughtAt: number;
}

export interface RedemptionFee {
  gross: number;
  fee: number;
  /** Of the units redeemed, those held for less than the short-hold days. */
  shortUnits: number;
}

/** The rate a redemption of units held less than the short-hold days pays for a fund of `type`. */
export function shortHoldRate(shortHold: FundSettings['shortHold'], type: FundType, rate: number): number {
  return shortHold.exemptTypes.includes(type) ? rate : Math.max(rate, shortHold.minRedeemFeeRate);
}

/**
 * The gross value and fee of redeeming `units` at `nav` at `now`, given the holder's purchases (oldest
 * first) and the units already redeemed before.
 */
export function redemptionFee(
  lots: readonly FundLot[],
  soldBefore: number,
  units: number,
  redeem: { now: number; nav: number; rate: number; shortRate: number; shortDays: number },
): RedemptionFee {
  let skip = soldBefore;
  let left = units;
  let shortUnits = 0;
  for (const lot of lots) {
    if (left <= 0) break;
    const available = Math.max(0, lot.units - skip);
    skip = Math.max(0, skip - lot.units);
    const taken = Math.min(available, left);
    if (taken <= 0) continue;
    if (redeem.now - lot.boughtAt < redeem.shortDays * DAY_MS) shortUnits += taken;
    left -= taken;
  }
  const gross = toMinor((units / 100) * redeem.nav);
  const shortGross = Math.min(gross, toMinor((shortUnits / 100) * redeem.nav));
  const fee = applyRate(shortGross, redeem.shortRate) + applyRate(gross - shortGross, redeem.rate);
  return { gross, fee, shortUnits };
}
