/**
 * Fund allocation's records (the rules: fund-allocation.ts): the settings it is applied under, the row as
 * the API shows it, the period's trading days, and the reads and locks the other allocation files share.
 */
import { lineValue, offeredMultiples } from '../../src/shared/allocation';
import type {
  Allocation,
  AllocationSetting,
  AllocationStatus,
  AllocationType,
} from '../../src/shared/api/funds';
import { toMajor } from '../../src/shared/money';
import {
  AppError,
  type AccountRow,
  type AllocationRow,
  type PositionRow,
  type Tx,
  type Station,
} from '../platform';
import { dayCloseTime, hoursFor, isTradingDay, localDay, nextTradingDay } from '../market';

export type { AllocationRow };

/**
 * The sub-account's type in the accounts table. Not one of the five account types of the API: the
 * user-facing account, ledger and position queries select those five by name, so this account is read only
 * through its allocation.
 */
export const SUB_ACCOUNT_TYPE = 'fund' satisfies AccountRow['type'];

/** The allocation types (getFundsTypeList.do): settings.products.allocation.types. */
export function allocationTypes(station: Station): AllocationType[] {
  const { settings } = station.config;
  // DOMAIN.md: every multiple offered starts strictly above the warning line, whatever the lines are set to.
  return settings.products.allocation.types.map((t) => ({
    ...t,
    multiples: offeredMultiples(t.multiples, settings.warningLine),
  }));
}

/** The margin limits and step (settings.products.allocation), major units. */
export function marginLimits(
  station: Station,
): Pick<AllocationSetting, 'minMargin' | 'maxMargin' | 'marginStep'> {
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

export const ACTIVE: readonly AllocationStatus[] = ['review', 'trading'];

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

/** An allocation row, locked for the caller's transaction (and only the user's when userId is given). */
export async function lockAllocation(
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

/** An allocation row as the caller's transaction sees it now. */
export async function readAllocation(trx: Tx, id: number): Promise<AllocationRow> {
  return trx.selectFrom('allocations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** A sub-account's open positions, oldest first (locked on request). */
export async function openPositionsOf(
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
export function closingQuote(
  station: Station,
  p: PositionRow,
  t: number,
): { price: number; closable: boolean } {
  const found = station.market.findTradable(p.code);
  if (!found) return { price: p.open_price, closable: false };
  const status = station.market.status(found.instrument, t);
  const detail = station.market.detail(found.instrument, t);
  const atLimitDown = detail.limitDown !== null && detail.price <= detail.limitDown;
  return { price: detail.price, closable: status === 'trading' && t >= p.sellable_from && !atLimitDown };
}

/** One of the user's allocations, unlocked; NOT_FOUND when it is someone else's. */
export async function ownAllocation(station: Station, userId: number, id: number): Promise<AllocationRow> {
  const row = await station.db
    .selectFrom('allocations')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}
