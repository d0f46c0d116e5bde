/**
 * Market orders on every market, and the user's positions. buy opens a long (or, for indexes and futures, a
 * short) position with margin and fees (open-position.ts), sell closes all or part of one
 * (close-position.ts), top-up adds margin to an open position and setStops replaces its stops
 * (top-up-and-stops.ts), over the rules every order checks (trade-rules.ts). Every balance change is a
 * ledger entry in the same transaction as the position change, and each call runs once per requestId.
 * Indexes and futures trade from the index account and are T+0.
 *
 * This module is the one the routes and other areas import; it re-exports what moved to those files, and
 * keeps the reads: whether a code is held, and the positions page.
 */
import type { Market, Page, Position } from '../../src/shared/api/types';
import type { AccountRiskState } from '../../src/shared/risk';
import type { PositionRow, Station } from '../platform';
import { accountRiskStates } from './account-risk';
import { competitionAccountIds } from '../competitions';
import { tradableOf } from './trade-rules';
import { positionTerms, toPosition } from './views';

export {
  assertPriceLimit,
  assertStops,
  indexMultiplier,
  isContractMarket,
  maxLotsPerOrder,
  sharesPerLot,
  tradableOf,
  type BuyVenue,
  type Tradable,
} from './trade-rules';
export { buy, type BuyOrder } from './open-position';
export { closePositionTx, sell, type CloseRequest, type SellOrder } from './close-position';
export { setStops, topUp, topUpMaximum, type StopsOrder, type TopUpOrder } from './top-up-and-stops';

function positionView(station: Station, row: PositionRow, account?: AccountRiskState): Position {
  const instrument = tradableOf(station, row.code).instrument;
  const quote = row.state === 'open' ? station.market.quote(instrument) : null;
  return toPosition(row, instrument, quote, positionTerms(station, row.market), account);
}

/** exitsStock.do: whether the user holds the code in an open position, and how many lots (contracts). */
export async function holding(
  station: Station,
  userId: number,
  code: string,
): Promise<{ held: boolean; lots: number; positions: number }> {
  const { instrument } = tradableOf(station, code);
  const row = await station.db
    .selectFrom('positions')
    .where('user_id', '=', userId)
    .where('code', '=', instrument.code)
    .where('state', '=', 'open')
    .select((eb) => [
      eb.fn.countAll<number>().as('positions'),
      eb.fn.coalesce(eb.fn.sum<number>('lots'), eb.lit(0)).as('lots'),
    ])
    .executeTakeFirstOrThrow();
  const positions = Number(row.positions);
  return { held: positions > 0, lots: Number(row.lots), positions };
}

export async function listPositions(
  station: Station,
  userId: number,
  query: {
    state: 'open' | 'closed';
    market?: Market | undefined;
    competitionId?: number | undefined;
    pageNum: number;
    pageSize: number;
  },
): Promise<Page<Position>> {
  // A fund allocation's sub-account lists its positions itself (fundsList.do); a competition's accounts
  // only when the competition is named.
  const ownAccounts =
    query.competitionId === undefined
      ? station.db
          .selectFrom('accounts')
          .select('id')
          .where('user_id', '=', userId)
          .where('type', 'in', ['main', 'index', 'newstock', 'hk', 'us'])
      : competitionAccountIds(station.db, userId, query.competitionId);
  const base = station.db
    .selectFrom('positions')
    .where('user_id', '=', userId)
    .where('account_id', 'in', ownAccounts)
    .where('state', '=', query.state)
    .$if(query.market !== undefined, (q) => q.where('market', '=', query.market!));
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy(query.state === 'closed' ? 'closed_at' : 'opened_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize)
    .execute();
  // The account-wide liquidation price: each account's state read once for the page.
  const states =
    query.state === 'open'
      ? await accountRiskStates(
          station.db,
          station,
          rows.map((row) => row.account_id),
        )
      : new Map<number, AccountRiskState>();
  return {
    list: rows.map((row) => positionView(station, row, states.get(row.account_id))),
    total: Number(total),
    pageNum: query.pageNum,
    pageSize: query.pageSize,
  };
}
