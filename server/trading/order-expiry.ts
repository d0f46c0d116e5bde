/**
 * Day orders (DOMAIN.md "Leverage, margin and liquidation", limit orders): a pending limit order that has
 * not filled by the close of the session it was, or first could be, worked in expires. Its status becomes
 * cancelled with rejectReason EXPIRED, what it froze is released and its user gets a message saying so. Frozen funds are not a ledger movement
 * (limit-orders.ts), so the balance and its entries are unchanged and only accounts.frozen goes down.
 *
 * A function of (station, from, to): the engine calls it for each minute it handles, before the minute's
 * fills, so an order expiring at the close C can still fill at the last minute before C and never after.
 */
import { quantityUnit } from '../../src/shared/trading-rules';
import type { Station } from '../platform';
import { postMessage } from '../ledger';
import { lockAccountById, lockOrder, settleOrder } from './limit-orders';

/** Expires every pending order whose day ended in (from, to]; returns how many expired. */
export async function expireDayOrders(station: Station, from: number, to: number): Promise<number> {
  const due = await station.db
    .selectFrom('orders')
    .select(['id', 'account_id'])
    .where('status', '=', 'pending')
    .where('expires_at', '>', from)
    .where('expires_at', '<=', to)
    .orderBy('id')
    .execute();
  let expired = 0;
  for (const { id, account_id: accountId } of due) {
    const done = await station.db.transaction().execute(async (trx) => {
      // The account first, then the order: the engine and cancel.do lock in the same order.
      await lockAccountById(trx, station, accountId);
      const order = await lockOrder(trx, station, id);
      if (order.status !== 'pending') return false;
      const now = order.expires_at!;
      await settleOrder(trx, order, { status: 'cancelled', rejectReason: 'EXPIRED', now });
      const name = station.market.find(order.code)?.name ?? order.code;
      await postMessage(trx, {
        userId: order.user_id,
        kind: 'order_expired',
        msgKey: 'orderExpired',
        params: {
          code: order.code,
          name,
          lots: order.lots,
          unit: quantityUnit(order.market),
          trigger: order.trigger_price,
        },
        refType: 'order',
        refId: order.id,
        now,
      });
      return true;
    });
    if (done) expired++;
  }
  return expired;
}
