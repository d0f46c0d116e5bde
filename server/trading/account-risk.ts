/**
 * The rule book's state of an account (src/shared/risk.ts), read from the database and valued at the
 * current prices, for the position views: each open position shows the price of its instrument at which
 * its account's R reaches the liquidation line (DOMAIN.md "Leverage, margin and liquidation"), the figure
 * the engine's risk step triggers on. A fund allocation's sub-account counts its allocated funds as
 * borrowed while the allocation trades.
 */
import type { AccountRiskState } from '../../src/shared/risk';
import { accountRiskState, riskPosition } from '../ledger';
import { prepared, type DbOrTx, type PositionRow, type Station } from '../platform';

export { accountRiskState, riskPosition };

/** The price of a position's instrument now (its open price if the instrument is no longer listed). */
function priceNow(station: Station, p: PositionRow): number {
  const found = station.market.findTradable(p.code);
  return found ? station.market.quote(found.instrument).price : p.open_price;
}

/**
 * The states of some accounts valued now: one read of the accounts, one of their open positions and one of
 * the trading allocations among them, however many positions a list shows.
 */
export async function accountRiskStates(
  db: DbOrTx,
  station: Station,
  accountIds: readonly number[],
): Promise<Map<number, AccountRiskState>> {
  const ids = [...new Set(accountIds)];
  const states = new Map<number, AccountRiskState>();
  if (ids.length === 0) return states;
  const accounts = await db.selectFrom('accounts').selectAll().where('id', 'in', ids).execute();
  const positions = await db
    .selectFrom('positions')
    .selectAll()
    .where('account_id', 'in', ids)
    .where('state', '=', 'open')
    .orderBy('id')
    .execute();
  const allocations = await db
    .selectFrom('allocations')
    .select(['account_id', 'allocated'])
    .where('account_id', 'in', ids)
    .where('status', '=', 'trading')
    .execute();
  for (const account of accounts) {
    const allocation = allocations.find((a) => a.account_id === account.id) ?? null;
    const held = positions
      .filter((p) => p.account_id === account.id)
      .map((row) => ({ row, price: priceNow(station, row) }));
    states.set(account.id, accountRiskState(account, allocation, held));
  }
  return states;
}

const selectAccount = prepared<{ accountId: number }>()((db, p) =>
  db.selectFrom('accounts').selectAll().where('id', '=', p.accountId),
);
const selectOpenPositions = prepared<{ accountId: number }>()((db, p) =>
  db
    .selectFrom('positions')
    .selectAll()
    .where('account_id', '=', p.accountId)
    .where('state', '=', 'open')
    .orderBy('id'),
);
const selectTradingAllocation = prepared<{ accountId: number }>()((db, p) =>
  db
    .selectFrom('allocations')
    .select(['account_id', 'allocated'])
    .where('account_id', '=', p.accountId)
    .where('status', '=', 'trading'),
);

/**
 * The state of one account valued now. Every order's answer reads it, so its three reads are compiled once
 * (server/platform/db/prepared.ts), as the rest of the order path's are.
 */
export async function accountRiskStateOf(
  db: DbOrTx,
  station: Station,
  accountId: number,
): Promise<AccountRiskState | undefined> {
  const [account] = await selectAccount.rows(db, { accountId });
  if (!account) return undefined;
  const positions = await selectOpenPositions.rows(db, { accountId });
  const [allocation] = await selectTradingAllocation.rows(db, { accountId });
  const held = positions.map((row) => ({ row, price: priceNow(station, row) }));
  return accountRiskState(account, allocation ?? null, held);
}
