/**
 * Step 1 of the engine's minute (engine.ts): a pending long limit order fills when its instrument trades at
 * minute t and price(t) ≤ trigger (a short: ≥), at price(t), never at limit-up for a buy (limit-down for a
 * short sale). An order is considered from the first minute at or after it was placed. A gap through the
 * trigger (the open below a buy's trigger) fills at the gapped price, which is better than the limit.
 */
import type { OrderRow, Station } from '../platform';
import type { EngineQuotes } from './engine-quotes';
import { fillOrder, reachesLimit } from './limit-orders';

export interface LimitOrderCounts {
  fills: number;
  rejections: number;
}

/** Tries every pending order at minute t. True when an order was filled or rejected. */
export async function runLimitOrderStep(
  station: Station,
  quotes: EngineQuotes,
  orders: readonly OrderRow[],
  t: number,
  counts: LimitOrderCounts,
): Promise<boolean> {
  let changed = false;
  for (const order of orders) {
    if (t < order.created_at) continue;
    const instrument = quotes.instrumentOf(order.code, order.market);
    if (!instrument) continue;
    const q = quotes.quoteAt(instrument, t);
    if (!q.trading) continue;
    const atLimit =
      order.direction === 'long'
        ? q.limitUp !== null && q.price >= q.limitUp
        : q.limitDown !== null && q.price <= q.limitDown;
    if (atLimit || !reachesLimit(order, q.price)) continue;
    // The fill price is this minute's price, the one just checked against the limit (fillOrder checks again).
    const outcome = await fillOrder(station, order.id, { price: q.price, now: t });
    if (outcome === 'filled') counts.fills++;
    if (outcome === 'rejected') counts.rejections++;
    if (outcome !== 'gone') changed = true;
  }
  return changed;
}
