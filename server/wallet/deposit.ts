/**
 * Deposits (recharge/inMoney.do, recharge/list.do): through one of the simulated pay channels of
 * getPayInfo.do, at least the site's minimum ("less than the minimum deposit amount") and within the
 * channel's own minimum and maximum, within the deposit hours. A deposit is pending until the station's
 * pay channel answers REVIEW_DELAY_S later (the engine's step runs the review) or an operator decides:
 * success credits the main account ('deposit' ledger entry), failure and cancellation credit nothing.
 * Each decision is a conditional update from pending, so the engine, a second engine and the operator
 * never decide one deposit twice.
 */
import { toMinor } from '../../src/shared/money';
import type { Page, Recharge, RechargeStatus } from '../../src/shared/api/types';
import { AppError, runOnce, storedAnswer, type Tx, type Station } from '../platform';
import { lockAccount, post, postingAgainst, postMessage } from '../ledger';
import type { DepositOutcome } from './pay-gateway';
import { siteSettings } from '../content';
import { decideByOperator, reviewDue } from './wallet-decisions';
import {
  amountToMinor,
  deciderName,
  moneyText,
  newOrderNo,
  storedReason,
  toRecharge,
  withinWalletHours,
  type Decider,
  type ReasonText,
  type RechargeRow,
} from './wallet';

/** inMoney.do: a pending deposit through `channelId`. */
export async function requestDeposit(
  station: Station,
  userId: number,
  input: { amount: number; channelId: number; requestId: string },
): Promise<Recharge> {
  const call = 'recharge';
  const earlier = await storedAnswer<Recharge>(station.db, userId, input.requestId, call);
  if (earlier !== undefined) return earlier;
  const amount = amountToMinor(input.amount);
  const { setting, payChannels } = await siteSettings(station);
  const channel = payChannels.find((c) => c.id === input.channelId && c.enabled);
  if (!channel) throw new AppError('VALIDATION', { fields: { channelId: 'invalid' } });
  const min = toMinor(Math.max(setting.minRecharge, channel.minAmount));
  if (amount < min) {
    throw new AppError('BELOW_MINIMUM', { msgKey: 'DEPOSIT_BELOW_MINIMUM', params: { min: moneyText(min) } });
  }
  const max = toMinor(channel.maxAmount);
  if (amount > max) {
    throw new AppError('ABOVE_MAXIMUM', { msgKey: 'DEPOSIT_ABOVE_MAXIMUM', params: { max: moneyText(max) } });
  }
  const now = station.clock.now();
  if (!withinWalletHours(station, setting.rechargeHours, now, { tradingDaysOnly: false })) {
    throw new AppError('OUTSIDE_DEPOSIT_HOURS', {
      msgKey: 'DEPOSIT_HOURS_CLOSED',
      params: { hours: setting.rechargeHours },
    });
  }
  return runOnce(station.db, { userId, requestId: input.requestId, call, now }, async (trx) => {
    const account = await lockAccount(trx, station.dialect, userId, 'main');
    const row = await trx
      .insertInto('recharges')
      .values({
        user_id: userId,
        account_id: account.id,
        order_no: newOrderNo(station, 'D', now),
        channel_id: channel.id,
        channel_name: channel.name,
        amount,
        status: 'pending',
        fail_reason: null,
        decided_by: null,
        created_at: now,
        decided_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toRecharge(row, storedReason);
  });
}

export async function listDeposits(
  station: Station,
  userId: number,
  query: { status?: RechargeStatus | undefined; pageNum: number; pageSize: number },
  reason: ReasonText,
): Promise<Page<Recharge>> {
  const base = station.db
    .selectFrom('recharges')
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
    list: rows.map((row) => toRecharge(row, reason)),
    total: Number(total),
    pageNum: query.pageNum,
    pageSize: query.pageSize,
  };
}

const DEPOSIT_MESSAGE: Record<DepositOutcome['status'], string> = {
  success: 'depositSucceeded',
  failed: 'depositFailed',
  cancelled: 'depositCancelled',
};

/**
 * Moves a pending deposit to its outcome in one transaction: the status, the ledger credit on success and
 * the user's message. False when it was no longer pending (decided by someone else first).
 */
async function applyDepositOutcome(
  trx: Tx,
  row: RechargeRow,
  outcome: DepositOutcome,
  decider: Decider,
  now: number,
): Promise<boolean> {
  const reason = outcome.status === 'success' ? null : outcome.reason;
  const done = await trx
    .updateTable('recharges')
    .set({ status: outcome.status, fail_reason: reason, decided_by: deciderName(decider), decided_at: now })
    .where('id', '=', row.id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) return false;
  if (outcome.status === 'success') {
    await post(
      trx,
      postingAgainst('gateway', {
        accountId: row.account_id,
        userId: row.user_id,
        type: 'deposit',
        amount: row.amount,
        time: now,
        refType: 'recharge',
        refId: row.id,
        note: row.order_no,
      }),
    );
  }
  await postMessage(trx, {
    userId: row.user_id,
    kind: 'deposit',
    msgKey: DEPOSIT_MESSAGE[outcome.status],
    params: { amount: moneyText(row.amount), orderNo: row.order_no, reason: reason ?? '' },
    refType: 'recharge',
    refId: row.id,
    now,
  });
  return true;
}

/** The station's pay channel decides every deposit pending for REVIEW_DELAY_S at `now`; returns how many. */
export function reviewDueDeposits(
  station: Station,
  now: number,
  outcomeOf: (row: RechargeRow) => DepositOutcome,
): Promise<number> {
  return reviewDue(station, 'recharges', now, (trx, row, decider, at) =>
    applyDepositOutcome(trx, row, outcomeOf(row), decider, at),
  );
}

/** The operator decides a pending deposit (audited). NOT_FOUND when it does not exist or is decided. */
export function decideDepositByOperator(
  station: Station,
  rechargeId: number,
  outcome: DepositOutcome,
  actor: string,
  reason: string,
): Promise<RechargeRow> {
  return decideByOperator(
    station,
    'recharges',
    rechargeId,
    { action: `deposit.${outcome.status}`, idKey: 'rechargeId', actor, reason },
    (trx, row, decider, now) => applyDepositOutcome(trx, row, outcome, decider, now),
  );
}
