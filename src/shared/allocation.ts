/**
 * Fund allocation (DOMAIN.md "New shares, block trades, VIP picks, funds, fund allocation"), pure: the
 * station charges with these and the apply screen shows the same figures before the user confirms.
 * Every amount is in minor units.
 *
 * - allocated = margin × multiple; the sub-account starts with margin + allocated.
 * - The management fee is a daily rate on the allocated funds, charged at each trading day's close while
 *   the allocation trades: the whole period costs daily fee × days.
 * - Risk ratio R = (cash + market value of the sub-account's positions) ÷ allocated. Below the warning line
 *   the user is told; at or below the liquidation line the positions are closed and the allocation ends.
 * - The allocated funds are what is borrowed, so a sub-account starts at R = (margin + allocated) ÷ allocated
 *   = 1 + 1 ÷ multiple. DOMAIN.md wants every multiple offered to start strictly above the warning line, so
 *   a multiple at which 1 + 1 ÷ multiple ≤ warning line (10× at the default 1.10) is not offered: counting
 *   the margin as less than borrowed would only hide how close to the line such an allocation starts.
 */
import { applyRate } from './money';

export interface AllocationQuote {
  margin: number;
  multiple: number;
  allocated: number;
  /** margin + allocated: what the sub-account starts with. */
  tradingFunds: number;
  dailyFee: number;
  /** dailyFee × days. */
  totalFee: number;
  /** The sub-account's total assets at which the warning line is reached (allocated × warning line). */
  warningValue: number;
  /** The sub-account's total assets at which the positions are closed (allocated × liquidation line). */
  liquidationValue: number;
}

/** allocated = margin × multiple. */
export function allocatedFor(marginMinor: number, multiple: number): number {
  return marginMinor * multiple;
}

/** One day's management fee on the allocated funds, rounded half up to a whole minor unit. */
export function dailyManagementFee(allocatedMinor: number, dailyFeeRate: number): number {
  return applyRate(allocatedMinor, dailyFeeRate);
}

/** A total-assets level of a line (allocated × line), rounded up: at or below it the line is reached. */
export function lineValue(allocatedMinor: number, line: number): number {
  return Math.ceil(allocatedMinor * line - 1e-9);
}

/** Everything the apply screen shows before confirming. */
export function quoteAllocation(input: {
  margin: number;
  multiple: number;
  days: number;
  dailyFeeRate: number;
  warningLine: number;
  liquidationLine: number;
}): AllocationQuote {
  const allocated = allocatedFor(input.margin, input.multiple);
  const dailyFee = dailyManagementFee(allocated, input.dailyFeeRate);
  return {
    margin: input.margin,
    multiple: input.multiple,
    allocated,
    tradingFunds: input.margin + allocated,
    dailyFee,
    totalFee: dailyFee * input.days,
    warningValue: lineValue(allocated, input.warningLine),
    liquidationValue: lineValue(allocated, input.liquidationLine),
  };
}

/** R = total assets ÷ allocated; +∞ with nothing allocated. */
export function allocationRiskRatio(totalAssetsMinor: number, allocatedMinor: number): number {
  return allocatedMinor > 0 ? totalAssetsMinor / allocatedMinor : Number.POSITIVE_INFINITY;
}

/** R when the sub-account starts, before any trade: (margin + allocated) ÷ allocated = 1 + 1 ÷ multiple. */
export function initialRiskRatio(multiple: number): number {
  return (1 + multiple) / multiple;
}

/** Whether an allocation at `multiple` starts strictly above the warning line (DOMAIN.md). */
export function startsAboveWarningLine(multiple: number, warningLine: number): boolean {
  // 1 + 1/k > W ⇔ 1 + k > W·k; the tolerance keeps 1.1 × 10 = 11.000000000000002 on the line.
  return 1 + multiple - warningLine * multiple > 1e-9;
}

/** The multiples of a list that may be offered at a warning line: those starting strictly above it. */
export function offeredMultiples(multiples: readonly number[], warningLine: number): number[] {
  return multiples.filter((m) => startsAboveWarningLine(m, warningLine));
}
