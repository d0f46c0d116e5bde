/**
 * Step 2 of the engine's minute (engine.ts): an open position is closed at price(t) (the tick that crossed)
 * with reason stop_profit or stop_loss when price(t) is at or beyond the stop (long: ≥ stop profit, ≤ stop
 * loss; short the other way), if it may be closed at t. A stop that may not be closed yet waits, and fires
 * at the first minute it may be closed if the price is still beyond it.
 */
import { triggeredStop } from '../../src/shared/risk';
import type { PositionRow, Station } from '../platform';
import { engineClose } from './engine-close';
import type { EngineQuotes } from './engine-quotes';
import { hasStop } from './engine-state';

const stopReason = (p: PositionRow, price: number) =>
  triggeredStop(p.direction, price, { stopProfit: p.stop_profit, stopLoss: p.stop_loss });

/** Fires the stops crossed at minute t. True when a position was closed. */
export async function runStopStep(
  station: Station,
  quotes: EngineQuotes,
  positions: readonly PositionRow[],
  t: number,
  counts: { stops: number },
): Promise<boolean> {
  let changed = false;
  for (const p of positions) {
    if (!hasStop(p) || t < p.opened_at) continue;
    const q = quotes.closable(p, t);
    if (!q) continue;
    const reason = stopReason(p, q.price);
    if (!reason) continue;
    const closed = await engineClose(
      station,
      p,
      t,
      q.price,
      reason,
      async (locked) => stopReason(locked, q.price) === reason,
      {
        msgKey: reason === 'stop_profit' ? 'stopProfit' : 'stopLoss',
        params: { code: p.code, name: quotes.instrumentOf(p.code, p.market)?.name ?? p.code },
      },
    );
    if (closed) {
      counts.stops++;
      changed = true;
    }
  }
  return changed;
}
