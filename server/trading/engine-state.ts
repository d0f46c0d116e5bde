/**
 * What a minute's steps need, read once and re-read after each write: the pending limit orders, the open
 * positions worth watching (with a stop, or of an account with something borrowed), those accounts, the
 * risk episodes in progress, the sub-accounts of trading allocations and the armed price alerts.
 */
import type { AccountRow, OrderRow, PositionRow, PriceAlertRow, Station } from '../platform';
import { armedAlerts } from './alerts';

export interface EngineState {
  orders: OrderRow[];
  /** Open positions with a stop, or of an account with something borrowed. */
  positions: PositionRow[];
  /** Accounts with something borrowed. */
  accounts: Map<number, AccountRow>;
  /** Their open positions. */
  byAccount: Map<number, PositionRow[]>;
  /** Accounts in a risk episode (warned). */
  episodes: Set<number>;
  /** The sub-accounts of trading allocations: checked once per step by checkSubAccounts. */
  subAccounts: Set<number>;
  /** Armed price alerts (alerts.ts). */
  alerts: PriceAlertRow[];
}

/** The financed part of a position: what the deferred fee is charged on. */
const financedOf = (p: PositionRow) => Math.max(0, p.open_value - p.margin);
/** Whether a position borrows (and so counts for the risk ratio): a long with leverage, every short. */
const borrows = (p: PositionRow) => p.direction === 'short' || financedOf(p) > 0;
export const hasStop = (p: PositionRow) => p.stop_profit !== null || p.stop_loss !== null;

export async function loadEngineState(station: Station): Promise<EngineState> {
  const orders = await station.db
    .selectFrom('orders')
    .selectAll()
    .where('status', '=', 'pending')
    .orderBy('id')
    .execute();
  const leveraged = station.db
    .selectFrom('positions')
    .select('account_id')
    .where('state', '=', 'open')
    .where((eb) => eb.or([eb('open_value', '>', eb.ref('margin')), eb('direction', '=', 'short')]));
  const positions = await station.db
    .selectFrom('positions')
    .selectAll()
    .where('state', '=', 'open')
    .where((eb) =>
      eb.or([
        eb('stop_profit', 'is not', null),
        eb('stop_loss', 'is not', null),
        eb('account_id', 'in', leveraged),
      ]),
    )
    .orderBy('id')
    .execute();
  const accountIds = [...new Set(positions.filter(borrows).map((p) => p.account_id))];
  const accounts =
    accountIds.length === 0
      ? []
      : await station.db.selectFrom('accounts').selectAll().where('id', 'in', accountIds).execute();
  const episodes = await station.db
    .selectFrom('engine_runs')
    .select('key')
    .where('kind', '=', 'risk_episode')
    .execute();
  const subAccounts = await station.db
    .selectFrom('allocations')
    .select('account_id')
    .where('status', '=', 'trading')
    .execute();
  const byAccount = new Map<number, PositionRow[]>();
  for (const p of positions) byAccount.set(p.account_id, [...(byAccount.get(p.account_id) ?? []), p]);
  return {
    orders,
    positions,
    byAccount,
    accounts: new Map(accounts.map((a) => [a.id, a])),
    episodes: new Set(episodes.map((e) => Number(e.key))),
    subAccounts: new Set(subAccounts.flatMap((a) => (a.account_id === null ? [] : [a.account_id]))),
    alerts: await armedAlerts(station),
  };
}

/** Whether no minute step has anything to watch, so the engine may go straight to the next day close. */
export function isIdle(state: EngineState): boolean {
  return (
    state.orders.length === 0 &&
    state.alerts.length === 0 &&
    state.accounts.size === 0 &&
    [...state.episodes].every((id) => state.subAccounts.has(id)) &&
    !state.positions.some(hasStop)
  );
}
