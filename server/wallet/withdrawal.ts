/**
 * Withdrawals (withdraw/outMoney.do, withdraw/cancel.do, withdraw/list.do) from the main account to the
 * bound bank card (DOMAIN.md "Accounts and money", spec §5 and §8).
 *
 * Rules decided here:
 * - Refusals, in this order: the amount's form; the site's minimum and maximum (¥100 to ¥1,000,000);
 *   KYC passed (KYC_REQUIRED), a bank card (BANK_CARD_REQUIRED), a withdrawal password
 *   (WITHDRAW_PASSWORD_REQUIRED); the withdrawal hours on trading days; the password itself
 *   (BAD_WITHDRAW_PASSWORD, wrong guesses lock like logins); what is withdrawable (INSUFFICIENT_FUNDS).
 * - The amount asked for leaves the balance at once, the fee included (the card receives amount − fee):
 *   a 'withdraw' entry of −(amount − fee) and a 'withdraw_fee' entry of −fee, in the same transaction as
 *   the request. So a pending withdrawal is frozen in the plainest way (balance = Σ entries throughout),
 *   and two devices withdrawing the whole balance at once cannot both pass: each locks the account and
 *   re-reads what is withdrawable.
 * - pending → paid (the bank's answer after REVIEW_DELAY_S, or the operator): nothing more moves.
 *   pending → rejected (with a reason) or cancelled (by the user, with a reason): one 'withdraw_refund'
 *   entry gives the whole amount back. Every move from pending is a conditional update, so a cancel
 *   racing the payout has exactly one winner.
 */
import type { Page, Withdrawal, WithdrawalStatus, WithdrawInfo } from '../../src/shared/api/types';
import { applyRate, toMajor, toMinor } from '../../src/shared/money';
import { AppError, runOnce, storedAnswer, type Tx, type Station, stationText } from '../platform';
import { maskCardNo, verifyPassword, requireKyc, guardedCheck } from '../identity';
import { lockAccount, post, postMessage } from '../ledger';
import type { PayoutOutcome } from './pay-gateway';
import { siteSettings } from '../content';
import { decideByOperator, reviewDue } from './wallet-decisions';
import {
  amountToMinor,
  deciderName,
  moneyText,
  newOrderNo,
  storedReason,
  toWithdrawal,
  withdrawableOf,
  withinWalletHours,
  type Decider,
  type ReasonText,
  type WithdrawalRow,
} from './wallet';

/** The longest cancel reason kept. */
export const MAX_REASON_LENGTH = 200;

/** withdraw/info.do: what may be withdrawn now, and the rules the form shows. */
export async function withdrawInfo(station: Station, userId: number): Promise<WithdrawInfo> {
  const { setting } = await siteSettings(station);
  const now = station.clock.now();
  return station.db.transaction().execute(async (trx) => {
    const account = await trx
      .selectFrom('accounts')
      .selectAll()
      .where('user_id', '=', userId)
      .where('type', '=', 'main')
      .executeTakeFirstOrThrow();
    const figures = await withdrawableOf(station, trx, account, now);
    return {
      withdrawable: toMajor(figures.withdrawable),
      available: toMajor(figures.available),
      unsettled: toMajor(figures.unsettled),
      feeRate: setting.withdrawFeeRate,
      minAmount: setting.minWithdraw,
      maxAmount: setting.maxWithdraw,
      hours: setting.withdrawHours,
      open: withinWalletHours(station, setting.withdrawHours, now, { tradingDaysOnly: true }),
    };
  });
}

/** outMoney.do: a pending withdrawal of `amount` (fee included) to the bound card. */
export async function requestWithdrawal(
  station: Station,
  userId: number,
  input: { amount: number; withdrawPassword: string; requestId: string },
): Promise<Withdrawal> {
  const call = 'withdraw';
  const earlier = await storedAnswer<Withdrawal>(station.db, userId, input.requestId, call);
  if (earlier !== undefined) return earlier;
  const amount = amountToMinor(input.amount);
  const { setting } = await siteSettings(station);
  const min = toMinor(setting.minWithdraw);
  if (amount < min) {
    throw new AppError('BELOW_MINIMUM', {
      msgKey: 'WITHDRAW_BELOW_MINIMUM',
      params: { min: moneyText(min) },
    });
  }
  const max = toMinor(setting.maxWithdraw);
  if (amount > max) {
    throw new AppError('ABOVE_MAXIMUM', {
      msgKey: 'WITHDRAW_ABOVE_MAXIMUM',
      params: { max: moneyText(max) },
    });
  }
  await requireKyc(station, userId, 'payee');
  const user = await station.db
    .selectFrom('users')
    .select(['real_name', 'withdraw_password_hash'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const card = await station.db
    .selectFrom('bank_cards')
    .select(['bank_name', 'card_no'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!card) throw new AppError('BANK_CARD_REQUIRED');
  const passwordHash = user.withdraw_password_hash;
  if (passwordHash === null) throw new AppError('WITHDRAW_PASSWORD_REQUIRED');
  const now = station.clock.now();
  if (!withinWalletHours(station, setting.withdrawHours, now, { tradingDaysOnly: true })) {
    throw new AppError('OUTSIDE_WITHDRAW_HOURS', {
      msgKey: 'WITHDRAW_HOURS_CLOSED',
      params: { hours: setting.withdrawHours },
    });
  }
  const password = input.withdrawPassword.trim();
  const passwordOk = await guardedCheck(station, `wd:${userId}`, 'WITHDRAW_PASSWORD_LOCKED', () =>
    verifyPassword(password, passwordHash),
  );
  if (!passwordOk) throw new AppError('BAD_WITHDRAW_PASSWORD');
  const fee = Math.min(applyRate(amount, setting.withdrawFeeRate), amount);

  return runOnce(station.db, { userId, requestId: input.requestId, call, now }, async (trx) => {
    const account = await lockAccount(trx, station.dialect, userId, 'main');
    const { withdrawable } = await withdrawableOf(station, trx, account, now);
    if (amount > withdrawable) {
      throw new AppError('INSUFFICIENT_FUNDS', {
        msgKey: 'WITHDRAW_ABOVE_WITHDRAWABLE',
        params: { withdrawable: moneyText(withdrawable) },
      });
    }
    const row = await trx
      .insertInto('withdrawals')
      .values({
        user_id: userId,
        account_id: account.id,
        order_no: newOrderNo(station, 'W', now),
        amount,
        fee,
        payee_name: user.real_name!,
        bank_name: card.bank_name,
        card_no_masked: maskCardNo(card.card_no),
        status: 'pending',
        cancel_reason: null,
        reject_reason: null,
        decided_by: null,
        created_at: now,
        decided_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const own = { accountId: account.id, userId, note: row.order_no };
    await post(trx, {
      time: now,
      refType: 'withdrawal',
      refId: row.id,
      entries: [
        { ...own, type: 'withdraw' as const, amount: -(amount - fee) },
        ...(fee > 0 ? [{ ...own, type: 'withdraw_fee' as const, amount: -fee }] : []),
      ],
      house: [
        { house: 'gateway', amount: amount - fee },
        { house: 'fees', amount: fee },
      ],
    });
    return toWithdrawal(row, storedReason);
  });
}

/** Gives a pending withdrawal's whole amount back (cancelled or rejected), in the caller's transaction. */
async function refund(
  trx: Tx,
  row: WithdrawalRow,
  now: number,
  outcome: 'cancelled' | 'rejected',
): Promise<void> {
  // The gateway pays back what it received, and the fee comes back from the fees earned.
  await post(trx, {
    time: now,
    refType: 'withdrawal',
    refId: row.id,
    entries: [
      {
        accountId: row.account_id,
        userId: row.user_id,
        type: 'withdraw_refund',
        amount: row.amount,
        note: stationText('noteWithdrawalRefund', { orderNo: row.order_no, outcome }),
      },
    ],
    house: [
      { house: 'gateway', amount: -(row.amount - row.fee) },
      { house: 'fees', amount: -row.fee },
    ],
  });
}

/** cancel.do: the user cancels a pending withdrawal with a reason; the amount comes back at once. */
export async function cancelWithdrawal(
  station: Station,
  userId: number,
  input: { id: number; reason: string },
  reasonText: ReasonText,
): Promise<Withdrawal> {
  const reason = input.reason.trim();
  if (reason === '') throw new AppError('VALIDATION', { fields: { reason: 'required' } });
  // A reason is plain text: no control characters (as bank.ts judges names) and no angle brackets.
  const plain = [...reason].every((c) => c >= ' ' && c !== '<' && c !== '>');
  if ([...reason].length > MAX_REASON_LENGTH || !plain) {
    throw new AppError('VALIDATION', { fields: { reason: 'invalid' } });
  }
  const now = station.clock.now();
  return station.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('withdrawals')
      .selectAll()
      .where('id', '=', input.id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND');
    const done = await trx
      .updateTable('withdrawals')
      .set({ status: 'cancelled', cancel_reason: reason, decided_by: 'user', decided_at: now })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1)
      throw new AppError('ALREADY_DONE', { msgKey: 'WITHDRAW_NOT_PENDING' });
    await refund(trx, row, now, 'cancelled');
    const updated = await trx
      .selectFrom('withdrawals')
      .selectAll()
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    return toWithdrawal(updated, reasonText);
  });
}

export async function listWithdrawals(
  station: Station,
  userId: number,
  query: { status?: WithdrawalStatus | undefined; pageNum: number; pageSize: number },
  reason: ReasonText,
): Promise<Page<Withdrawal>> {
  const base = station.db
    .selectFrom('withdrawals')
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
    list: rows.map((row) => toWithdrawal(row, reason)),
    total: Number(total),
    pageNum: query.pageNum,
    pageSize: query.pageSize,
  };
}

/** Moves a pending withdrawal to paid or rejected; false when it was no longer pending. */
async function applyPayoutOutcome(
  trx: Tx,
  row: WithdrawalRow,
  outcome: PayoutOutcome,
  decider: Decider,
  now: number,
): Promise<boolean> {
  const reason = outcome.status === 'rejected' ? outcome.reason : null;
  const done = await trx
    .updateTable('withdrawals')
    .set({ status: outcome.status, reject_reason: reason, decided_by: deciderName(decider), decided_at: now })
    .where('id', '=', row.id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) return false;
  if (outcome.status === 'rejected') await refund(trx, row, now, 'rejected');
  await postMessage(trx, {
    userId: row.user_id,
    kind: 'withdrawal',
    msgKey: outcome.status === 'paid' ? 'withdrawalPaid' : 'withdrawalRejected',
    params: {
      amount: moneyText(row.amount),
      received: moneyText(row.amount - row.fee),
      orderNo: row.order_no,
      reason: reason ?? '',
    },
    refType: 'withdrawal',
    refId: row.id,
    now,
  });
  return true;
}

/** The bank answers every withdrawal pending for REVIEW_DELAY_S at `now`; returns how many. */
export function reviewDueWithdrawals(
  station: Station,
  now: number,
  outcomeOf: (row: WithdrawalRow) => PayoutOutcome,
): Promise<number> {
  return reviewDue(station, 'withdrawals', now, (trx, row, decider, at) =>
    applyPayoutOutcome(trx, row, outcomeOf(row), decider, at),
  );
}

/** The operator pays or rejects a pending withdrawal (audited); NOT_FOUND / ALREADY_DONE otherwise. */
export function decideWithdrawalByOperator(
  station: Station,
  withdrawalId: number,
  outcome: PayoutOutcome,
  actor: string,
  reason: string,
): Promise<WithdrawalRow> {
  return decideByOperator(
    station,
    'withdrawals',
    withdrawalId,
    { action: `withdrawal.${outcome.status}`, idKey: 'withdrawalId', actor, reason },
    (trx, row, decider, now) => applyPayoutOutcome(trx, row, outcome, decider, now),
  );
}
