/**
 * Applying for a fund allocation and its review (the rules: fund-allocation.ts): the application holds the
 * margin; the station's reviewer or the operator approves it (the sub-account is funded) or rejects it.
 */
import { allocatedFor, dailyManagementFee } from '../../src/shared/allocation';
import type { Allocation, AllocationType } from '../../src/shared/api/funds';
import { toMinor } from '../../src/shared/money';
import {
  AppError,
  assertFields,
  runOnce,
  storedAnswer,
  type AccountRow,
  type Tx,
  type Station,
  stationText,
} from '../platform';
import { audit, lockAccount, post, postingAgainst, postMessage } from '../ledger';
import { amountToMinor, deciderName, moneyText, type Decider } from '../wallet';
import { requireKyc } from '../identity';
import {
  ACTIVE,
  allocationTypes,
  closeOfTradingDay,
  lockAllocation,
  marginLimits,
  readAllocation,
  SUB_ACCOUNT_TYPE,
  toAllocation,
  type AllocationRow,
} from './fund-allocation-records';

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
        note: stationText('noteAllocationTerms', { multiple: input.multiple, days: input.days }),
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
      { ...user, type: 'allocation_margin', amount: row.margin, note: stationText('noteAllocationMargin') },
      {
        ...user,
        type: 'allocation_credit',
        amount: row.allocated,
        note: stationText('noteAllocationCredit', { multiple: row.multiple }),
      },
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
      note: stationText('noteAllocationRejected'),
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
export async function reviewDueAllocations(station: Station, now: number): Promise<number> {
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
