/**
 * What the user sees of fund allocations (the rules: fund-allocation.ts): the list, the sub-account valued
 * now, and the positions it opened.
 */
import { allocationRiskRatio } from '../../src/shared/allocation';
import { holdingValue } from '../../src/shared/pnl';
import type { Allocation, AllocationStatus, SubAccount } from '../../src/shared/api/funds';
import { toMajor } from '../../src/shared/money';
import type { Page, Position } from '../../src/shared/api/types';
import type { AccountRiskState } from '../../src/shared/risk';
import type { PositionRow, Station } from '../platform';
import { tradableOf, toPosition, accountRiskStateOf, positionTerms } from '../trading';
import {
  ACTIVE,
  closingQuote,
  openPositionsOf,
  ownAllocation,
  toAllocation,
  type AllocationRow,
} from './fund-allocation-records';

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
  for (const p of positions) value += holdingValue(closingQuote(station, p, t).price, p.shares, p.fx_rate);
  return { cash: account.balance, value, positions };
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

/** A sub-account position valued now; its liquidation price is at the line its allocation was made with. */
function positionView(
  station: Station,
  allocation: AllocationRow,
  row: PositionRow,
  account?: AccountRiskState,
): Position {
  const { instrument } = tradableOf(station, row.code);
  const quote = row.state === 'open' ? station.market.quote(instrument) : null;
  return toPosition(
    row,
    instrument,
    quote,
    positionTerms(station, row.market, allocation.liquidation_line),
    account,
  );
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
      warningLine: row.warning_line,
      liquidationLine: row.liquidation_line,
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
    warningLine: row.warning_line,
    liquidationLine: row.liquidation_line,
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
