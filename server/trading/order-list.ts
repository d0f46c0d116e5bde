/** order/list.do: the user's limit orders, newest first: their own, or one competition's when it is named. */
import type { Order, OrderStatus, Page } from '../../src/shared/api/types';
import type { Station } from '../platform';
import { toOrder } from './limit-orders';

export async function listOrders(
  station: Station,
  userId: number,
  query: {
    status?: OrderStatus | undefined;
    competitionId?: number | undefined;
    pageNum: number;
    pageSize: number;
  },
): Promise<Page<Order>> {
  // A competition's orders only when it is named; otherwise the user's own (no competition account).
  const competitionAccounts = station.db
    .selectFrom('accounts')
    .select('id')
    .where('user_id', '=', userId)
    .$if(query.competitionId === undefined, (q) => q.where('competition_id', 'is not', null))
    .$if(query.competitionId !== undefined, (q) => q.where('competition_id', '=', query.competitionId!));
  const base = station.db
    .selectFrom('orders')
    .where('user_id', '=', userId)
    .where('account_id', query.competitionId === undefined ? 'not in' : 'in', competitionAccounts)
    .$if(query.status !== undefined, (q) => q.where('status', '=', query.status!));
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('id', 'desc')
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize)
    .execute();
  return {
    list: rows.map((row) => toOrder(row, station.market.find(row.code))),
    total: Number(total),
    pageNum: query.pageNum,
    pageSize: query.pageSize,
  };
}
