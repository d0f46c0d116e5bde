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
 */
import {
  allocatedFor,
  allocationRiskRatio,
  dailyManagementFee,
  lineValue,
} from '../../src/shared/allocation';
import type {
  Allocation,
  AllocationEndReason,
  AllocationSetting,
  AllocationStatus,
  AllocationType,
  SubAccount,
} from '../../src/shared/api/funds';
import { toMajor, toMinor } from '../../src/shared/money';
import type { Page, Position } from '../../src/shared/api/types';
import type { AccountRiskState } from '../../src/shared/risk';
import { checkLots } from '../../src/shared/validation';
import type { Selectable } from 'kysely';
import type { AllocationsTable } from '../platform/db/funds-schema';
import type { AccountRow, PositionRow, Tx } from '../platform/db/schema';
import { AppError, assertFields } from '../platform/errors';
import { dayCloseTime, hoursFor, isTradingDay, localDay, nextTradingDay } from '../market/sessions';
import { audit } from '../ledger/audit';
import type { Station } from '../platform/station';
import { tradeFees } from '../trading/fees';
import { runOnce, storedAnswer } from '../platform/idempotency';
import { lockAccount, post, postingAgainst } from '../ledger/ledger';
import { postMessage } from '../ledger/messages';
import { lockAccountById } from '../trading/limit-orders';
import { assertPriceLimit, closePositionTx, maxLotsPerOrder, sell, tradableOf } from '../trading/trading';
import { toPosition } from '../trading/views';
import { amountToMinor, deciderName, moneyText, type Decider } from '../wallet/wallet';
import { requireKyc } from '../identity/kyc-gate';
import { accountRiskStateOf } from '../trading/account-risk';

export type AllocationRow = Selectable<AllocationsTable>;

/**
 * The sub-account's type in the accounts table. Not one of the five account types of the API: the
 * user-facing account, ledger and position queries select those five by name, so this account is read only
 * through its allocation.
 */
export const SUB_ACCOUNT_TYPE = 'fund' satisfies AccountRow['type'];

/** The allocation types (getFundsTypeList.do): settings.products.allocation.types. */
export function allocationTypes(station: Station): AllocationType[] {
  return station.config.settings.products.allocation.types.map((t) => ({
    ...t,
    multiples: [...t.multiples],
  }));
}

/** The margin limits and step (settings.products.allocation), major units. */
function marginLimits(station: Station): Pick<AllocationSetting, 'minMargin' | 'maxMargin' | 'marginStep'> {
  const { minMargin, maxMargin, marginStep } = station.config.settings.products.allocation;
  return { minMargin, maxMargin, marginStep };
}

/** getFundsSetting.do: the margin limits, the lines and the review delay, from the station's settings. */
export function allocationSetting(station: Station): AllocationSetting {
  const { settings } = station.config;
  return {
    ...marginLimits(station),
    warningLine: settings.warningLine,
    liquidationLine: settings.liquidationLine,
    reviewDelaySeconds: station.config.reviewDelaySeconds,
    markets: ['a', 'star'],
  };
}

const ACTIVE: readonly AllocationStatus[] = ['review', 'trading'];

export function toAllocation(row: AllocationRow): Allocation {
  return {
    id: row.id,
    typeCode: row.type_code,
    status: row.status,
    endReason: row.end_reason,
    margin: toMajor(row.margin),
    multiple: row.multiple,
    allocated: toMajor(row.allocated),
    days: row.days,
    dailyFeeRate: row.daily_fee_rate,
    dailyFee: toMajor(row.daily_fee),
    feesCharged: toMajor(row.fees_charged),
    warningValue: toMajor(lineValue(row.allocated, row.warning_line)),
    liquidationValue: toMajor(lineValue(row.allocated, row.liquidation_line)),
    createdAt: row.created_at,
    startedAt: row.started_at,
    expiresAt: row.expires_at,
    endedAt: row.ended_at,
    returned: row.returned === null ? null : toMajor(row.returned),
    rejectReason: row.reject_reason,
  };
}

const cnHours = (station: Station) => hoursFor('a', station.config.clockMode);

/** The first trading day of an allocation approved at `t`: that day if it trades and has not closed. */
function firstTradingDay(station: Station, t: number): number {
  const hours = cnHours(station);
  const day = localDay(t, hours.timeZone);
  return isTradingDay(day, hours) && t < dayCloseTime(day, hours) ? day : nextTradingDay(day, hours);
}

/** The close of the k-th (1-based) trading day of an allocation started at `startedAt`. */
export function closeOfTradingDay(station: Station, startedAt: number, k: number): number {
  const hours = cnHours(station);
  let day = firstTradingDay(station, startedAt);
  for (let i = 1; i < k; i++) day = nextTradingDay(day, hours);
  return dayCloseTime(day, hours);
}

async function lockAllocation(
  trx: Tx,
  station: Station,
  id: number,
  userId?: number,
): Promise<AllocationRow> {
  const row = await trx
    .selectFrom('allocations')
    .selectAll()
    .where('id', '=', id)
    .$if(userId !== undefined, (q) => q.where('user_id', '=', userId!))
    .$if(station.dialect === 'postgres', (q) => q.forUpdate())
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

async function readAllocation(trx: Tx, id: number): Promise<AllocationRow> {
  return trx.selectFrom('allocations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export interface ApplyInput {
  typeCode: AllocationType['code'];
  margin: number;
  multiple: number;
  days: number;
  requestId: string;
}

/** addFundsApply.do: an application under review; its margin leaves the main account now. */
export async function applyForAllocation(
  station: Station,
  userId: number,
  input: ApplyInput,
): Promise<Allocation> {
  const call = 'addFundsApply';
  const earlier = await storedAnswer<Allocation>(station.db, userId, input.requestId, call);
  if (earlier !== undefined) return earlier;
  const type = allocationTypes(station).find((t) => t.code === input.typeCode);
  if (!type) throw new AppError('VALIDATION', { fields: { typeCode: 'invalid' } });
  const limits = marginLimits(station);
  const margin = amountToMinor(input.margin, 'margin');
  assertFields({
    multiple: type.multiples.includes(input.multiple) ? null : 'invalid',
    days:
      Number.isInteger(input.days) && input.days >= type.minDays && input.days <= type.maxDays
        ? null
        : 'invalid',
  });
  if (margin < toMinor(limits.minMargin)) {
    throw new AppError('BELOW_MINIMUM', {
      msgKey: 'ALLOCATION_MARGIN_BELOW_MINIMUM',
      params: { min: limits.minMargin.toFixed(2) },
    });
  }
  if (margin > toMinor(limits.maxMargin)) {
    throw new AppError('ABOVE_MAXIMUM', {
      msgKey: 'ALLOCATION_MARGIN_ABOVE_MAXIMUM',
      params: { max: limits.maxMargin.toFixed(2) },
    });
  }
  if (margin % toMinor(limits.marginStep) !== 0) {
    throw new AppError('VALIDATION', {
      fields: { margin: 'invalid' },
      msgKey: 'ALLOCATION_MARGIN_STEP',
      params: { step: limits.marginStep },
    });
  }
  await requireKyc(station, userId, 'trading');
  const { settings } = station.config;
  const allocated = allocatedFor(margin, input.multiple);
  const now = station.clock.now();

  return runOnce(station.db, { userId, requestId: input.requestId, call, now }, async (trx) => {
    const main = await lockAccount(trx, station.dialect, userId, 'main');
    const active = await trx
      .selectFrom('allocations')
      .select('id')
      .where('user_id', '=', userId)
      .where('status', 'in', ACTIVE)
      .executeTakeFirst();
    if (active) throw new AppError('ALREADY_DONE', { msgKey: 'ALLOCATION_ACTIVE' });
    if (main.balance - main.frozen < margin) throw new AppError('INSUFFICIENT_FUNDS');
    const row = await trx
      .insertInto('allocations')
      .values({
        user_id: userId,
        type_code: type.code,
        status: 'review',
        end_reason: null,
        margin,
        multiple: input.multiple,
        allocated,
        days: input.days,
        daily_fee_rate: type.dailyFeeRate,
        daily_fee: dailyManagementFee(allocated, type.dailyFeeRate),
        warning_line: settings.warningLine,
        liquidation_line: settings.liquidationLine,
        account_id: null,
        warned_at: null,
        reject_reason: null,
        decided_by: null,
        returned: null,
        created_at: now,
        started_at: null,
        expires_at: null,
        ended_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    // Financing holds the margin while the application is under review.
    await post(
      trx,
      postingAgainst('financing', {
        accountId: main.id,
        userId,
        type: 'allocation_margin',
        amount: -margin,
        time: now,
        refType: 'allocation',
        refId: row.id,
        note: `×${input.multiple} ${input.days}d`,
      }),
    );
    return toAllocation(row);
  });
}

/** The user's sub-account row, created (empty) the first time. */
async function subAccountOf(trx: Tx, station: Station, userId: number): Promise<AccountRow> {
  const found = await trx
    .selectFrom('accounts')
    .selectAll()
    .where('user_id', '=', userId)
    .where('type', '=', SUB_ACCOUNT_TYPE)
    .$if(station.dialect === 'postgres', (q) => q.forUpdate())
    .executeTakeFirst();
  if (found) return found;
  return trx
    .insertInto('accounts')
    .values({ user_id: userId, type: SUB_ACCOUNT_TYPE, currency: 'CNY', balance: 0 })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Approves an application under review at `t`: the sub-account gets margin + allocated. False if decided. */
async function approveTx(
  trx: Tx,
  station: Station,
  row: AllocationRow,
  decider: Decider,
  t: number,
): Promise<boolean> {
  const expiresAt = closeOfTradingDay(station, t, row.days);
  const done = await trx
    .updateTable('allocations')
    .set({ status: 'trading', decided_by: deciderName(decider), started_at: t, expires_at: expiresAt })
    .where('id', '=', row.id)
    .where('status', '=', 'review')
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) return false;
  const account = await subAccountOf(trx, station, row.user_id);
  await trx.updateTable('allocations').set({ account_id: account.id }).where('id', '=', row.id).execute();
  const user = { accountId: account.id, userId: row.user_id };
  // Financing hands over the margin it held and lends the allocated funds.
  await post(trx, {
    time: t,
    refType: 'allocation',
    refId: row.id,
    entries: [
      { ...user, type: 'allocation_margin', amount: row.margin, note: 'margin' },
      { ...user, type: 'allocation_credit', amount: row.allocated, note: `×${row.multiple}` },
    ],
    house: [{ house: 'financing', amount: -(row.margin + row.allocated) }],
  });
  await postMessage(trx, {
    userId: row.user_id,
    kind: 'allocation',
    msgKey: 'allocationApproved',
    params: {
      id: row.id,
      allocated: moneyText(row.allocated),
      total: moneyText(row.margin + row.allocated),
      days: row.days,
    },
    refType: 'allocation',
    refId: row.id,
    now: t,
  });
  return true;
}

/** Rejects an application under review: the margin goes back to main and the allocation ends. */
async function rejectTx(
  trx: Tx,
  station: Station,
  row: AllocationRow,
  decider: Decider,
  reason: string,
  t: number,
): Promise<boolean> {
  const done = await trx
    .updateTable('allocations')
    .set({
      status: 'ended',
      end_reason: 'rejected',
      reject_reason: reason.slice(0, 512),
      decided_by: deciderName(decider),
      ended_at: t,
      returned: row.margin,
    })
    .where('id', '=', row.id)
    .where('status', '=', 'review')
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) return false;
  const main = await lockAccount(trx, station.dialect, row.user_id, 'main');
  await post(
    trx,
    postingAgainst('financing', {
      accountId: main.id,
      userId: row.user_id,
      type: 'allocation_return',
      amount: row.margin,
      time: t,
      refType: 'allocation',
      refId: row.id,
      note: 'rejected',
    }),
  );
  await postMessage(trx, {
    userId: row.user_id,
    kind: 'allocation',
    msgKey: 'allocationRejected',
    params: { id: row.id, margin: moneyText(row.margin), reason },
    refType: 'allocation',
    refId: row.id,
    now: t,
  });
  return true;
}

/** The station's reviewer approves every application pending for REVIEW_DELAY_S, at its due time. */
async function reviewDueAllocations(station: Station, now: number): Promise<number> {
  const delay = station.config.reviewDelaySeconds * 1000;
  const due = await station.db
    .selectFrom('allocations')
    .selectAll()
    .where('status', '=', 'review')
    .where('created_at', '<=', now - delay)
    .orderBy('id')
    .limit(500)
    .execute();
  let approved = 0;
  for (const row of due) {
    const t = row.created_at + delay;
    if (await station.db.transaction().execute((trx) => approveTx(trx, station, row, { by: 'reviewer' }, t)))
      approved++;
  }
  return approved;
}

/** The operator approves or rejects an application under review (audited). */
export async function decideAllocationByOperator(
  station: Station,
  allocationId: number,
  decision: 'approve' | 'reject',
  actor: string,
  reason: string,
): Promise<Allocation> {
  const now = station.clock.now();
  return station.db.transaction().execute(async (trx) => {
    const row = await lockAllocation(trx, station, allocationId);
    const decider: Decider = { by: 'operator', actor, reason };
    const done =
      decision === 'approve'
        ? await approveTx(trx, station, row, decider, now)
        : await rejectTx(trx, station, row, decider, reason, now);
    if (!done) throw new AppError('ALREADY_DONE');
    await audit(trx, {
      time: now,
      actor,
      action: `allocation.${decision}`,
      userId: row.user_id,
      reason,
      detail: { allocationId: row.id, margin: moneyText(row.margin), allocated: moneyText(row.allocated) },
    });
    return toAllocation(await readAllocation(trx, row.id));
  });
}

async function openPositionsOf(
  trx: Tx | Station['db'],
  accountId: number,
  lock: boolean,
): Promise<PositionRow[]> {
  return trx
    .selectFrom('positions')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('state', '=', 'open')
    .orderBy('id')
    .$if(lock, (q) => q.forUpdate())
    .execute();
}

/** The price of a position's instrument at t, and whether it may be closed then (session, limits, T+1). */
function closingQuote(station: Station, p: PositionRow, t: number): { price: number; closable: boolean } {
  const found = station.market.findTradable(p.code);
  if (!found) return { price: p.open_price, closable: false };
  const status = station.market.status(found.instrument, t);
  const detail = station.market.detail(found.instrument, t);
  const atLimitDown = detail.limitDown !== null && detail.price <= detail.limitDown;
  return { price: detail.price, closable: status === 'trading' && t >= p.sellable_from && !atLimitDown };
}

const END_MESSAGE: Record<Exclude<AllocationEndReason, 'rejected'>, string> = {
  expiry: 'allocationExpired',
  user: 'allocationEnded',
  liquidation: 'allocationLiquidated',
};

/**
 * Settles a trading allocation at t inside the caller's transaction (the allocation row locked): closes
 * its open positions at `priceOf`, pays owed fees, repays the allocated funds and returns the rest to main.
 * False when it was no longer trading.
 */
async function settleTx(
  trx: Tx,
  station: Station,
  row: AllocationRow,
  t: number,
  reason: Exclude<AllocationEndReason, 'rejected'>,
  priceOf: (p: PositionRow) => number,
): Promise<boolean> {
  const status: AllocationStatus = reason === 'expiry' ? 'expired' : 'ended';
  const done = await trx
    .updateTable('allocations')
    .set({ status, end_reason: reason, ended_at: t })
    .where('id', '=', row.id)
    .where('status', '=', 'trading')
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1 || row.account_id === null) return false;
  const accountId = row.account_id;
  const positions = await openPositionsOf(trx, accountId, station.dialect === 'postgres');
  for (const p of positions) {
    await closePositionTx(trx, station, p, {
      lots: p.lots,
      price: priceOf(p),
      reason: reason === 'user' ? 'user' : reason,
      now: t,
    });
  }
  let balance = (await lockAccountById(trx, station, accountId)).balance;
  const ref = { accountId, userId: row.user_id, time: t, refType: 'allocation', refId: row.id };
  const owedPaid = Math.min(row.fees_owed, Math.max(0, balance));
  if (owedPaid > 0) {
    await post(
      trx,
      postingAgainst('financing', { ...ref, type: 'management_fee', amount: -owedPaid, note: 'owed' }),
    );
    balance -= owedPaid;
  }
  const repaid = Math.min(row.allocated, Math.max(0, balance));
  if (repaid > 0) {
    const note = moneyText(row.allocated);
    await post(trx, postingAgainst('financing', { ...ref, type: 'allocation_repay', amount: -repaid, note }));
    balance -= repaid;
  }
  const returned = Math.max(0, balance);
  if (returned > 0) {
    const main = await lockAccount(trx, station.dialect, row.user_id, 'main');
    // Between the user's own accounts: the two legs balance each other.
    await post(trx, {
      time: t,
      refType: 'allocation',
      refId: row.id,
      entries: [
        { accountId, userId: row.user_id, type: 'allocation_return', amount: -returned, note: 'to main' },
        {
          accountId: main.id,
          userId: row.user_id,
          type: 'allocation_return',
          amount: returned,
          note: 'from sub-account',
        },
      ],
      house: [],
    });
  }
  await trx
    .updateTable('allocations')
    .set((eb) => ({ returned, fees_charged: eb('fees_charged', '+', owedPaid), fees_owed: 0 }))
    .where('id', '=', row.id)
    .execute();
  await postMessage(trx, {
    userId: row.user_id,
    kind: 'allocation',
    msgKey: END_MESSAGE[reason],
    params: { id: row.id, returned: moneyText(returned), allocated: moneyText(repaid) },
    refType: 'allocation',
    refId: row.id,
    now: t,
  });
  return true;
}

/** Charges day k's management fee at its close; false when that day was done before. */
async function chargeFeeDay(station: Station, id: number, k: number, t: number): Promise<boolean> {
  return station.db
    .transaction()
    .execute(async (trx) => chargeFeeDayTx(trx, station, await lockAllocation(trx, station, id), k, t));
}

/** Day k's fee inside the caller's transaction (the allocation row locked); false when done before. */
async function chargeFeeDayTx(
  trx: Tx,
  station: Station,
  row: AllocationRow,
  k: number,
  t: number,
): Promise<boolean> {
  if (row.status !== 'trading' || row.fee_days !== k - 1 || row.account_id === null) return false;
  const account = await lockAccountById(trx, station, row.account_id);
  const paid = Math.min(row.daily_fee, Math.max(0, account.balance - account.frozen));
  if (paid > 0) {
    await post(
      trx,
      postingAgainst('financing', {
        accountId: account.id,
        userId: row.user_id,
        type: 'management_fee',
        amount: -paid,
        time: t,
        refType: 'allocation',
        refId: row.id,
        note: `day ${k}`,
      }),
    );
  }
  await trx
    .updateTable('allocations')
    .set((eb) => ({
      fee_days: k,
      fees_charged: eb('fees_charged', '+', paid),
      fees_owed: eb('fees_owed', '+', row.daily_fee - paid),
    }))
    .where('id', '=', row.id)
    .where('fee_days', '=', k - 1)
    .execute();
  return true;
}

/** Cash + market value at t of a trading allocation's sub-account, minor units. */
async function totalAssetsAt(
  station: Station,
  accountId: number,
  t: number,
): Promise<{ cash: number; value: number; positions: PositionRow[] }> {
  const account = await station.db
    .selectFrom('accounts')
    .selectAll()
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  const positions = await openPositionsOf(station.db, accountId, false);
  let value = 0;
  for (const p of positions) value += toMinor(closingQuote(station, p, t).price * p.shares);
  return { cash: account.balance, value, positions };
}

export interface AllocationEventsResult {
  approved: number;
  feeDays: number;
  expired: number;
}

/**
 * Ends a trading allocation whose sub-account the engine's risk step liquidated, once none of its positions
 * is left open (reason liquidation). False when it still holds a position or no longer trades.
 */
export async function endLiquidatedAllocation(station: Station, id: number, t: number): Promise<boolean> {
  return station.db.transaction().execute(async (trx) => {
    const locked = await lockAllocation(trx, station, id);
    if (locked.account_id === null) return false;
    if ((await openPositionsOf(trx, locked.account_id, false)).length > 0) return false;
    return settleTx(trx, station, locked, t, 'liquidation', (p) => p.open_price);
  });
}

/**
 * Every time-driven allocation event due at `now`, each applied once: reviews, daily fees, expiry. Called
 * by the engine's step, whose risk step (risk-step.ts) then warns and liquidates sub-accounts.
 */
export async function runDueAllocationEvents(station: Station, now: number): Promise<AllocationEventsResult> {
  const result: AllocationEventsResult = {
    approved: 0,
    feeDays: 0,
    expired: 0,
  };
  result.approved = await reviewDueAllocations(station, now);
  const trading = await station.db
    .selectFrom('allocations')
    .selectAll()
    .where('status', '=', 'trading')
    .orderBy('id')
    .execute();
  for (const row of trading) {
    if (row.started_at === null || row.expires_at === null) continue;
    for (let k = row.fee_days + 1; k <= row.days; k++) {
      const close = closeOfTradingDay(station, row.started_at, k);
      if (close > now) break;
      if (await chargeFeeDay(station, row.id, k, close)) result.feeDays++;
    }
    const expiresAt = row.expires_at;
    if (now >= expiresAt) {
      // The day's last price: the minute before the close.
      const expired = await station.db
        .transaction()
        .execute(async (trx) =>
          settleTx(
            trx,
            station,
            await lockAllocation(trx, station, row.id),
            expiresAt,
            'expiry',
            (p) => closingQuote(station, p, expiresAt - 1).price,
          ),
        );
      if (expired) result.expired++;
    }
  }
  return result;
}

/** endFundsApply.do: the user ends a trading allocation now; every open position must be closable now. */
export async function endAllocation(
  station: Station,
  userId: number,
  input: { applyId: number; requestId: string },
): Promise<Allocation> {
  const call = 'endFundsApply';
  const earlier = await storedAnswer<Allocation>(station.db, userId, input.requestId, call);
  if (earlier !== undefined) return earlier;
  const now = station.clock.now();
  return runOnce(station.db, { userId, requestId: input.requestId, call, now }, async (trx) => {
    let row = await lockAllocation(trx, station, input.applyId, userId);
    // Past its last close the period is over: the engine settles it as expired (every day's fee, the
    // day's last price), not the user.
    if (
      row.status !== 'trading' ||
      row.account_id === null ||
      row.started_at === null ||
      (row.expires_at !== null && now >= row.expires_at)
    ) {
      throw new AppError('ALREADY_DONE', { msgKey: 'ALLOCATION_NOT_TRADING' });
    }
    const positions = await openPositionsOf(trx, row.account_id, station.dialect === 'postgres');
    const prices = new Map<number, number>();
    for (const p of positions) {
      const found = station.market.findTradable(p.code);
      if (found && station.market.status(found.instrument, now) === 'suspended')
        throw new AppError('SUSPENDED');
      const q = closingQuote(station, p, now);
      if (!found || station.market.status(found.instrument, now) !== 'trading') {
        throw new AppError('OUTSIDE_TRADING_HOURS', { msgKey: 'CLOSE_OUTSIDE_TRADING_HOURS' });
      }
      if (now < p.sellable_from) throw new AppError('T_PLUS_ONE');
      if (!q.closable) throw new AppError('PRICE_LIMIT');
      prices.set(p.id, q.price);
    }
    // The fees of the closes already passed that the engine has not charged yet, each once, first.
    const startedAt = row.started_at;
    for (let k = row.fee_days + 1; k <= row.days; k++) {
      const close = closeOfTradingDay(station, startedAt, k);
      if (close > now) break;
      await chargeFeeDayTx(trx, station, row, k, close);
      row = await readAllocation(trx, row.id);
    }
    await settleTx(trx, station, row, now, 'user', (p) => prices.get(p.id) ?? p.open_price);
    return toAllocation(await readAllocation(trx, row.id));
  });
}

export async function listAllocations(
  station: Station,
  userId: number,
  query: { status?: AllocationStatus | undefined; pageNum: number; pageSize: number },
): Promise<Page<Allocation>> {
  const base = station.db
    .selectFrom('allocations')
    .where('user_id', '=', userId)
    .$if(query.status !== undefined, (q) => q.where('status', '=', query.status!));
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('id', 'desc')
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize)
    .execute();
  return {
    list: rows.map(toAllocation),
    total: Number(total),
    pageNum: query.pageNum,
    pageSize: query.pageSize,
  };
}

async function ownAllocation(station: Station, userId: number, id: number): Promise<AllocationRow> {
  const row = await station.db
    .selectFrom('allocations')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

/** A sub-account position valued now; its liquidation price is at the line its allocation was made with. */
function positionView(
  station: Station,
  allocation: AllocationRow,
  row: PositionRow,
  account?: AccountRiskState,
): Position {
  const { instrument } = tradableOf(station, row.code);
  const quote = row.state === 'open' ? station.market.quote(instrument) : null;
  return toPosition(row, instrument, quote, allocation.liquidation_line, account);
}

/** getUserSubaccount.do: an allocation's sub-account (the current one without applyId), valued now. */
export async function subAccountView(
  station: Station,
  userId: number,
  applyId?: number,
): Promise<SubAccount | null> {
  let row: AllocationRow | undefined;
  if (applyId !== undefined) {
    row = await ownAllocation(station, userId, applyId);
  } else {
    row =
      (await station.db
        .selectFrom('allocations')
        .selectAll()
        .where('user_id', '=', userId)
        .where('status', 'in', ACTIVE)
        .orderBy('id', 'desc')
        .executeTakeFirst()) ??
      (await station.db
        .selectFrom('allocations')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .executeTakeFirst());
  }
  if (!row) return null;
  const allocation = toAllocation(row);
  if (row.status !== 'trading' || row.account_id === null) {
    const returned = row.returned ?? 0;
    const pnl = row.status === 'review' ? 0 : returned - row.margin;
    return {
      allocation,
      cash: 0,
      marketValue: 0,
      totalAssets: 0,
      pnl: toMajor(pnl),
      riskRatio: null,
      positions: [],
    };
  }
  const now = station.clock.now();
  const { cash, value, positions } = await totalAssetsAt(station, row.account_id, now);
  const state = await accountRiskStateOf(station.db, station, row.account_id);
  const total = cash + value;
  return {
    allocation,
    cash: toMajor(cash),
    marketValue: toMajor(value),
    totalAssets: toMajor(total),
    pnl: toMajor(total - row.margin - row.allocated),
    riskRatio: Number(allocationRiskRatio(total, row.allocated).toFixed(4)),
    positions: positions.map((p) => positionView(station, row, p, state)),
  };
}

/** fundsList.do: the positions an allocation's sub-account opened, open or closed, newest first. */
export async function listSubAccountPositions(
  station: Station,
  userId: number,
  query: { applyId: number; state: 'open' | 'closed'; pageNum: number; pageSize: number },
): Promise<Page<Position>> {
  const row = await ownAllocation(station, userId, query.applyId);
  const empty = { list: [], total: 0, pageNum: query.pageNum, pageSize: query.pageSize };
  if (row.account_id === null || row.started_at === null) return empty;
  const base = station.db
    .selectFrom('positions')
    .where('account_id', '=', row.account_id)
    .where('state', '=', query.state)
    .where('opened_at', '>=', row.started_at)
    .$if(row.ended_at !== null, (q) => q.where('opened_at', '<=', row.ended_at!));
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy(query.state === 'closed' ? 'closed_at' : 'opened_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize)
    .execute();
  const state =
    query.state === 'open' ? await accountRiskStateOf(station.db, station, row.account_id) : undefined;
  return {
    list: rows.map((p) => positionView(station, row, p, state)),
    total: Number(total),
    pageNum: query.pageNum,
    pageSize: query.pageSize,
  };
}

/** buyFunds.do: a market buy (long, leverage 1) of an A-share or STAR stock in the sub-account. */
export async function buyInSubAccount(
  station: Station,
  userId: number,
  order: { applyId: number; code: string; lots: number; requestId: string },
): Promise<Position> {
  const call = 'buyFunds';
  const earlier = await storedAnswer<Position>(station.db, userId, order.requestId, call);
  if (earlier !== undefined) return earlier;
  const { settings } = station.config;
  const { instrument, market, unitsPerLot } = tradableOf(station, order.code);
  if (market !== 'a' && market !== 'star') {
    throw new AppError('VALIDATION', { fields: { code: 'invalid' }, msgKey: 'SUB_ACCOUNT_MARKET' });
  }
  assertFields({ lots: checkLots(order.lots, maxLotsPerOrder(settings, market)) });
  const now = station.clock.now();
  const status = station.market.status(instrument, now);
  if (status === 'suspended') throw new AppError('SUSPENDED');
  if (status !== 'trading') throw new AppError('OUTSIDE_TRADING_HOURS');
  const detail = station.market.detail(instrument, now);
  assertPriceLimit(detail, true);
  const shares = order.lots * unitsPerLot;
  const value = toMinor(detail.price * shares);
  const fees = tradeFees(market, 'buy', { shares, value }, settings.fees);

  return runOnce(station.db, { userId, requestId: order.requestId, call, now }, async (trx) => {
    const row = await lockAllocation(trx, station, order.applyId, userId);
    if (
      row.status !== 'trading' ||
      row.account_id === null ||
      row.expires_at === null ||
      now >= row.expires_at
    ) {
      throw new AppError('ALREADY_DONE', { msgKey: 'ALLOCATION_NOT_TRADING' });
    }
    const account = await lockAccountById(trx, station, row.account_id);
    if (account.balance - account.frozen < value + fees.total) throw new AppError('INSUFFICIENT_FUNDS');
    const inserted = await trx
      .insertInto('positions')
      .values({
        user_id: userId,
        account_id: account.id,
        code: instrument.code,
        market,
        direction: 'long',
        state: 'open',
        lots: order.lots,
        shares,
        leverage: 1,
        open_price: detail.price,
        open_value: value,
        margin: value,
        buy_fee: fees.total,
        buy_fee_detail: JSON.stringify(fees.items),
        sell_fee: 0,
        sell_fee_detail: null,
        stamp_duty: 0,
        deferred_fee: 0,
        stop_profit: null,
        stop_loss: null,
        opened_at: now,
        sellable_from: station.market.sellableFrom(instrument, now),
        closed_at: null,
        close_price: null,
        close_value: null,
        close_reason: null,
        split_from: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const user = { accountId: account.id, userId };
    // The price goes to the market (the position's counterparty), the fees to the fees earned.
    await post(trx, {
      time: now,
      refType: 'position',
      refId: inserted.id,
      entries: [
        { ...user, type: 'buy', amount: -value, note: `${instrument.code} ×${shares}` },
        ...(fees.total > 0
          ? [{ ...user, type: 'buy_fee' as const, amount: -fees.total, note: instrument.code }]
          : []),
      ],
      house: [
        { house: 'market', amount: value },
        { house: 'fees', amount: fees.total },
      ],
    });
    const state = await accountRiskStateOf(trx, station, account.id);
    return toPosition(inserted, instrument, detail, row.liquidation_line, state);
  });
}

/** sellFunds.do: sells (all or some lots of) a position of a trading allocation's sub-account. */
export async function sellInSubAccount(
  station: Station,
  userId: number,
  order: { applyId: number; positionId: number; lots?: number | undefined; requestId: string },
): Promise<Position> {
  const row = await ownAllocation(station, userId, order.applyId);
  const position = await station.db
    .selectFrom('positions')
    .select(['account_id'])
    .where('id', '=', order.positionId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!position || row.account_id === null || position.account_id !== row.account_id) {
    throw new AppError('NOT_FOUND');
  }
  // Past its last close the period is over even before the engine's step settles it (at that day's last
  // price): no sale at a later price, as buyFunds allows no buy.
  const over = row.expires_at === null || station.clock.now() >= row.expires_at;
  if (row.status !== 'trading' || over) {
    const earlier = await storedAnswer<Position>(station.db, userId, order.requestId, 'sell');
    if (earlier !== undefined) return earlier;
    throw new AppError('ALREADY_DONE', { msgKey: 'ALLOCATION_NOT_TRADING' });
  }
  // The ordinary sell: sessions, T+1, price limits and fees; the proceeds go to the position's account.
  return sell(station, userId, {
    positionId: order.positionId,
    lots: order.lots,
    requestId: order.requestId,
  });
}
