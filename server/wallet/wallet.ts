/**
 * What the wallet's calls share (DOMAIN.md "Accounts and money"): amounts, the deposit and withdrawal hours,
 * order numbers, what is withdrawable, and the records as the API shows them.
 *
 * Rules decided here:
 * - Amounts come in major units with at most 2 decimals and are kept in minor units.
 * - Hours are "HH:MM-HH:MM" site settings in the wallet's time zone (Asia/Shanghai), start included and end
 *   excluded: withdrawals 09:30-15:30 on A-share trading days, deposits 09:00-23:00 every day. With
 *   CLOCK_MODE=always-open the wallet is open around the clock too (demos and tests).
 * - Withdrawable = available (balance − frozen) − today's sale proceeds in the main account: a sale's cash
 *   is tradable at once but settles T+1 (spec §5), so it becomes withdrawable on the next trading day.
 *   "Today" is the A-share trading day (the UTC day in always-open mode, where the simulation rolls over).
 */
import { randomInt } from 'node:crypto';
import { toMajor, toMinor } from '../../src/shared/money';
import { checkMoneyAmount } from '../../src/shared/validation';
import type { Recharge, Withdrawal } from '../../src/shared/api/types';
import {
  AppError,
  type AccountRow,
  type RechargesTable,
  type Tx,
  type WithdrawalsTable,
  type Station,
  type Messages,
} from '../platform';
import type { Selectable } from 'kysely';
import { hoursFor, isTradingDay, localDay, localMinuteToUtc, tzOffsetMinutes } from '../market';

export type RechargeRow = Selectable<RechargesTable>;
export type WithdrawalRow = Selectable<WithdrawalsTable>;

/** The minor units of an amount given in major units; VALIDATION `amountEmpty`/`amountInvalid` otherwise. */
export function amountToMinor(amount: number | string | undefined, field = 'amount'): number {
  const key = checkMoneyAmount(amount);
  if (key) throw new AppError('VALIDATION', { fields: { [field]: key } });
  return toMinor(Number(amount));
}

/** Major units with 2 decimals, as messages and errors show money. */
export function moneyText(minor: number): string {
  return toMajor(minor).toFixed(2);
}

/** "09:30-15:30" as minutes from local midnight, [start, end). */
export function parseHours(text: string): [number, number] | null {
  const match = /^(\d{2}):(\d{2})-(\d{2}):(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const [h1, m1, h2, m2] = match.slice(1).map(Number) as [number, number, number, number];
  if (h1 > 24 || h2 > 24 || m1 > 59 || m2 > 59) return null;
  return [h1 * 60 + m1, h2 * 60 + m2];
}

/** Whether `t` falls within `hours` (and, when asked, on an A-share trading day). */
export function withinWalletHours(
  station: Station,
  hours: string,
  t: number,
  opts: { tradingDaysOnly: boolean },
): boolean {
  if (station.config.clockMode === 'always-open') return true;
  const { timeZone } = station.config.wallet;
  const range = parseHours(hours);
  // A damaged setting closes the window rather than opening it around the clock.
  if (!range) return false;
  const day = localDay(t, timeZone);
  if (opts.tradingDaysOnly && !isTradingDay(day, hoursFor('a', station.config.clockMode))) return false;
  const minute = Math.floor((t + tzOffsetMinutes(timeZone, t) * 60_000 - day * 86_400_000) / 60_000);
  return minute >= range[0] && minute < range[1];
}

/** A readable, unique order number: prefix, the local date and time, 6 random digits. */
export function newOrderNo(station: Station, prefix: 'D' | 'W', t: number): string {
  const local = new Date(t + tzOffsetMinutes(station.config.wallet.timeZone, t) * 60_000);
  const stamp = local.toISOString().replace(/\D/g, '').slice(0, 14);
  return `${prefix}${stamp}${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
}

/** Today's sale proceeds in an account: cash that may be traded but not withdrawn before T+1. */
export async function unsettledSales(
  station: Station,
  trx: Tx,
  account: AccountRow,
  t: number,
): Promise<number> {
  const hours = hoursFor('a', station.config.clockMode);
  const dayStart = localMinuteToUtc(localDay(t, hours.timeZone), 0, hours.timeZone);
  const row = await trx
    .selectFrom('ledger_entries')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('total'))
    .where('account_id', '=', account.id)
    .where('type', '=', 'sell')
    .where('amount', '>', 0)
    .where('time', '>=', dayStart)
    .where('time', '<=', t)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** What can leave an account now: available cash less today's unsettled sale proceeds. */
export async function withdrawableOf(
  station: Station,
  trx: Tx,
  account: AccountRow,
  t: number,
): Promise<{ available: number; unsettled: number; withdrawable: number }> {
  const available = Math.max(0, account.balance - account.frozen);
  const unsettled = await unsettledSales(station, trx, account, t);
  return { available, unsettled, withdrawable: Math.max(0, available - unsettled) };
}

/** Translates a stored reason (`@errors.KEY` / `@validation.key`) for the reader; other text as it is. */
export type ReasonText = (reason: string | null) => string | null;

export function toRecharge(row: RechargeRow, reason: ReasonText): Recharge {
  return {
    id: row.id,
    orderNo: row.order_no,
    amount: toMajor(row.amount),
    channel: row.channel_name,
    channelId: row.channel_id,
    status: row.status,
    failReason: reason(row.fail_reason),
    createdAt: row.created_at,
    decidedAt: row.decided_at,
  };
}

export function toWithdrawal(row: WithdrawalRow, reason: ReasonText): Withdrawal {
  return {
    id: row.id,
    orderNo: row.order_no,
    amount: toMajor(row.amount),
    fee: toMajor(row.fee),
    payeeName: row.payee_name,
    bankName: row.bank_name,
    cardNoMasked: row.card_no_masked,
    status: row.status,
    cancelReason: row.cancel_reason,
    rejectReason: reason(row.reject_reason),
    createdAt: row.created_at,
    decidedAt: row.decided_at,
  };
}

/** The pay channels' English names before they were station texts, as deposits written then stored them. */
const LEGACY_CHANNEL_KEYS: Record<string, string> = {
  'Simulated bank transfer (play money)': 'payChannelBank',
  'Simulated instant top-up (play money)': 'payChannelInstant',
};

/** A deposit with its channel's name in the reader's language (`messages`). */
export function rechargeIn(recharge: Recharge, messages: Messages): Recharge {
  const legacy = LEGACY_CHANNEL_KEYS[recharge.channel];
  return { ...recharge, channel: legacy ? messages.text(legacy) : messages.stored(recharge.channel) };
}

/** A reason as stored: untranslated keys pass through for the reader's language. */
export const storedReason: ReasonText = (reason) => reason;

/** Who decided: the station's pay channel, or an operator (audited). */
export type Decider = { by: 'reviewer' } | { by: 'operator'; actor: string; reason: string };

export function deciderName(decider: Decider): string {
  return decider.by === 'reviewer' ? 'reviewer' : `operator:${decider.actor}`.slice(0, 80);
}
