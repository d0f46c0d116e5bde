/**
 * Fund allocation (DOMAIN.md "…funds, fund allocation"): leveraged capital for a period of trading days,
 * traded in a sub-account.
 *
 * Rules decided here:
 * - Apply (addFundsApply.do): a type (its period range, multiples and daily fee rate), a margin (a multiple
 *   of the margin step, within the limits), a multiple and a period. Types and margin limits are settings
 *   (settings.products.allocation); an application keeps the daily fee rate it was made with. The margin leaves the main account at
 *   once ('allocation_margin'). A user has at most one allocation under review or trading.
 * - Review: the station's reviewer approves REVIEW_DELAY_S after the application (the engine's step); the
 *   operator may approve or reject before (audited). A rejection returns the margin and ends the allocation
 *   (status ended, reason rejected). Each decision is a conditional update from 'review', so it happens once.
 * - Trading: the sub-account (the user's `accounts` row of type 'fund') receives the margin and the
 *   allocated funds (margin × multiple). It trades A-shares and STAR shares long at leverage 1 through
 *   buyFunds.do and sellFunds.do, under the ordinary market rules (sessions, T+1, price limits, fees).
 * - The period: trading starts on the day of approval if that is a trading day before its close, else on
 *   the next trading day; the allocation expires at the close of its N-th trading day.
 * - The management fee (daily rate × allocated) is due at each of those N closes. It is paid from the
 *   sub-account's cash; what the cash cannot pay is owed and taken first at the settlement. Each day's fee
 *   is done exactly once: the allocation's fee_days moves from k − 1 to k in the fee's transaction.
 * - Risk: R = (cash + market value) ÷ allocated, valued when the engine steps, by the engine's risk step
 *   (risk-step.ts), the one main accounts go through: below the warning line the user is told once per
 *   episode; at or below the liquidation line every position that may be closed now is closed at market
 *   and, once none is left open, endLiquidatedAllocation ends the allocation (reason liquidation).
 * - Settlement (expiry at the period's end, liquidation, or the user ending early): the positions are closed
 *   (at expiry at the day's last price, whatever T+1 or the limits say: the period is over), owed fees are
 *   paid, the allocated funds are repaid, and what is left goes back to the main account. A loss beyond the
 *   margin is the station's: the repayment is capped at what the sub-account holds. Ending early first
 *   charges the fees of the closes already passed that the engine has not charged yet; from the last close
 *   on the user cannot end it any more (the engine settles it as expired).
 *
 * This module is the door to fund allocation; the work is split by what it does:
 * - fund-allocation-records.ts: settings, the API's view of a row, the period's trading days, shared reads;
 * - fund-allocation-apply.ts: applying, and the reviewer's and the operator's decisions;
 * - fund-allocation-settlement.ts: daily fees, expiry, the end after liquidation or by the user;
 * - fund-allocation-sub-account.ts: buying and selling in the sub-account;
 * - fund-allocation-views.ts: the list, the sub-account and its positions.
 */
export {
  allocationSetting,
  allocationTypes,
  closeOfTradingDay,
  SUB_ACCOUNT_TYPE,
  toAllocation,
  type AllocationRow,
} from './fund-allocation-records';
export { applyForAllocation, decideAllocationByOperator, type ApplyInput } from './fund-allocation-apply';
export {
  endAllocation,
  endLiquidatedAllocation,
  runDueAllocationEvents,
  type AllocationEventsResult,
} from './fund-allocation-settlement';
export { buyInSubAccount, sellInSubAccount } from './fund-allocation-sub-account';
export { listAllocations, listSubAccountPositions, subAccountView } from './fund-allocation-views';
