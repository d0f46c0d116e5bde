/**
 * A fund allocation's time-driven events and its end (the rules: fund-allocation.ts): the daily management
 * fee at each close, expiry at the period's end, the end after liquidation, the user ending it early, and
 * the settlement they share.
 */
import type { Allocation, AllocationEndReason, AllocationStatus } from '../../src/shared/api/funds';
import {
  AppError,
  runOnce,
  storedAnswer,
  type PositionRow,
  type Tx,
  type Station,
  stationText,
} from '../platform';
import { lockAccount, post, postingAgainst, postMessage } from '../ledger';
import { lockAccountById, closePositionTx } from '../trading';
import { moneyText } from '../wallet';
import { reviewDueAllocations } from './fund-allocation-apply';
import {
  closeOfTradingDay,
  closingQuote,
  lockAllocation,
  openPositionsOf,
  readAllocation,
  toAllocation,
  type AllocationRow,
} from './fund-allocation-records';

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
      postingAgainst('financing', {
        ...ref,
        type: 'management_fee',
        amount: -owedPaid,
        note: stationText('noteFeeOwed'),
      }),
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
        {
          accountId,
          userId: row.user_id,
          type: 'allocation_return',
          amount: -returned,
          note: stationText('noteToMain'),
        },
        {
          accountId: main.id,
          userId: row.user_id,
          type: 'allocation_return',
          amount: returned,
          note: stationText('noteFromSubAccount'),
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
        note: stationText('noteAllocationDay', { day: k }),
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

export interface AllocationEventsResult {
  approved: number;
  feeDays: number;
  expired: number;
}

/**
 * Ends a trading allocation whose sub-account the engine's risk step liquidated, once none of its positions
 * is left open (reason liquidation). False when it still holds a position, no longer trades, or is past its
 * end.
 */
export async function endLiquidatedAllocation(station: Station, id: number, t: number): Promise<boolean> {
  return station.db.transaction().execute(async (trx) => {
    const locked = await lockAllocation(trx, station, id);
    if (locked.account_id === null) return false;
    // Past its last close the period is over: the expiry settles it (runDueAllocationEvents), not the risk
    // step, whose list of trading allocations may have been read before the close.
    if (locked.expires_at !== null && t >= locked.expires_at) return false;
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
