/**
 * The engine's own close of a position (stop profit, stop loss, liquidation): in one transaction with the
 * account and the position locked, re-checked on the locked rows (the one sale guard, sale-guard.ts, and the
 * caller's `stillDue`), closed at the minute's price, and the user messaged.
 */
import { quantityUnit } from '../../src/shared/trading-rules';
import type { AccountRow, PositionRow, Tx, Station } from '../platform';
import { postMessage } from '../ledger';
import { lockAccountById } from './limit-orders';
import { closePositionTx } from './close-position';
import { engineMaySell } from './sale-guard';

export type EngineCloseReason = 'stop_profit' | 'stop_loss' | 'liquidation';

export interface EngineCloseMessage {
  msgKey: string;
  params: Record<string, string | number>;
}

/** Closes a position by the engine at minute t if it is still open; re-checks `stillDue` on the locked row. */
export async function engineClose(
  station: Station,
  p: PositionRow,
  t: number,
  price: number,
  reason: EngineCloseReason,
  stillDue: (locked: PositionRow, account: AccountRow, trx: Tx) => Promise<boolean>,
  message: EngineCloseMessage,
): Promise<boolean> {
  return station.db.transaction().execute(async (trx) => {
    const account = await lockAccountById(trx, station, p.account_id);
    const locked = await trx
      .selectFrom('positions')
      .selectAll()
      .where('id', '=', p.id)
      .$if(station.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
    if (!locked || !(await engineMaySell(trx, locked, t))) return false;
    if (!(await stillDue(locked, account, trx))) return false;
    const closedId = await closePositionTx(trx, station, locked, {
      lots: locked.lots,
      price,
      reason,
      now: t,
    });
    await postMessage(trx, {
      userId: locked.user_id,
      kind: reason,
      msgKey: message.msgKey,
      params: { ...message.params, lots: locked.lots, unit: quantityUnit(locked.market), price },
      refType: 'position',
      refId: closedId,
      now: t,
    });
    return true;
  });
}
