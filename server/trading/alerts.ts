/**
 * Price alerts (a user's "tell me when 00700 falls below 350"): add, delete, re-arm and list, and the
 * engine's step that fires them.
 * - An alert names a stock, an index or a future, a kind (price above or below a value; change today above or
 *   below a fraction of the previous close) and its value (src/shared/price-alerts.ts is the rule).
 * - It is refused when its condition already holds at the current price (it would fire at once and tell the
 *   user nothing), and beyond `settings.alertsMax` alerts per user (ABOVE_MAXIMUM with ALERTS_FULL).
 * - The engine checks every armed alert at each minute of the price grid from the first minute at or after
 *   it was armed, while its instrument trades (the price moves once a minute; see engine.ts "Time"), and
 *   fires it once: `fired_at`, the price and a message in the message centre are written in one
 *   transaction, conditional on the alert still being armed, so a minute handled twice fires nothing twice.
 *   A fired alert stays listed until the user re-arms or deletes it.
 */
import { PRICE_ALERT_KINDS, type PriceAlert, type PriceAlertKind } from '../../src/shared/api/alerts';
import { alertMet, checkAlertValue } from '../../src/shared/price-alerts';
import { AppError, assertFields, runOnce, storedAnswer, type PriceAlertRow, type Station } from '../platform';
import { postMessage } from '../ledger';
import type { Tradable } from '../market';
import type { EngineQuotes } from './engine-quotes';

const ADD_CALL = 'POST /user/alert/add.do';

function view(station: Station, row: PriceAlertRow): PriceAlert {
  const found = station.market.findTradable(row.code);
  return {
    id: Number(row.id),
    code: row.code,
    name: found?.instrument.name ?? row.code,
    market: row.market,
    kind: row.kind,
    value: row.value,
    createdAt: Number(row.created_at),
    armedAt: Number(row.armed_at),
    firedAt: row.fired_at === null ? null : Number(row.fired_at),
    firedPrice: row.fired_price,
  };
}

/** The alert's instrument, or NOT_FOUND. */
function alertable(station: Station, code: string): Tradable {
  const found = station.market.findTradable(code);
  if (!found) throw new AppError('NOT_FOUND');
  return found;
}

/** Refuses a value the kind cannot take, or one whose condition already holds now. */
function checkValue(station: Station, found: Tradable, kind: PriceAlertKind, value: number): void {
  assertFields({ value: checkAlertValue(kind, value) });
  const quote = station.market.tradableQuote(found);
  assertFields({ value: alertMet(kind, value, quote) ? 'alertAlreadyMet' : null });
}

export interface NewAlert {
  code: string;
  kind: PriceAlertKind;
  value: number;
  requestId: string;
}

export async function addAlert(station: Station, userId: number, input: NewAlert): Promise<PriceAlert> {
  const first = await storedAnswer<PriceAlert>(station.db, userId, input.requestId, ADD_CALL);
  if (first) return first;
  assertFields({ kind: PRICE_ALERT_KINDS.includes(input.kind) ? null : 'invalid' });
  const found = alertable(station, input.code);
  checkValue(station, found, input.kind, input.value);
  const max = station.config.settings.alertsMax;
  const now = station.clock.now();
  return runOnce(station.db, { userId, requestId: input.requestId, call: ADD_CALL, now }, async (trx) => {
    // One add at a time per user (PostgreSQL; SQLite runs one transaction at a time), so the cap holds.
    if (station.dialect === 'postgres') {
      await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
    }
    const { n } = await trx
      .selectFrom('price_alerts')
      .where('user_id', '=', userId)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(n) >= max) throw new AppError('ABOVE_MAXIMUM', { msgKey: 'ALERTS_FULL', params: { max } });
    const row = await trx
      .insertInto('price_alerts')
      .values({
        user_id: userId,
        code: found.instrument.code,
        market: found.market,
        kind: input.kind,
        value: input.value,
        created_at: now,
        armed_at: now,
        fired_at: null,
        fired_price: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return view(station, row);
  });
}

/** Deletes one of the user's alerts (harmless when it is not there, as removing from the watchlist). */
export async function deleteAlert(station: Station, userId: number, id: number): Promise<null> {
  await station.db.deleteFrom('price_alerts').where('id', '=', id).where('user_id', '=', userId).execute();
  return null;
}

/** Arms a fired alert again from now; NOT_FOUND for another user's, VALIDATION when it would fire at once. */
export async function rearmAlert(station: Station, userId: number, id: number): Promise<PriceAlert> {
  const row = await station.db
    .selectFrom('price_alerts')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  if (row.fired_at === null) return view(station, row);
  checkValue(station, alertable(station, row.code), row.kind, row.value);
  const now = station.clock.now();
  const updated = await station.db
    .updateTable('price_alerts')
    .set({ armed_at: now, fired_at: null, fired_price: null })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst();
  if (!updated) throw new AppError('NOT_FOUND');
  return view(station, updated);
}

/** The user's alerts, the newest first; of one instrument when `code` is given. */
export async function listAlerts(station: Station, userId: number, code?: string): Promise<PriceAlert[]> {
  let query = station.db
    .selectFrom('price_alerts')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'desc');
  if (code !== undefined) {
    const found = station.market.findTradable(code);
    query = query.where('code', '=', found?.instrument.code ?? code);
  }
  return (await query.execute()).map((row) => view(station, row));
}

/** Every armed alert, for the engine. */
export async function armedAlerts(station: Station): Promise<PriceAlertRow[]> {
  return station.db
    .selectFrom('price_alerts')
    .selectAll()
    .where('fired_at', 'is', null)
    .orderBy('id')
    .execute();
}

const MESSAGE_KEY: Record<PriceAlertKind, string> = {
  priceAbove: 'alertPriceAbove',
  priceBelow: 'alertPriceBelow',
  changeAbove: 'alertChangeAbove',
  changeBelow: 'alertChangeBelow',
};

/** A change as the message shows it: signed, in per cent, two decimals. */
const percentText = (fraction: number) => `${fraction > 0 ? '+' : ''}${(fraction * 100).toFixed(2)}%`;

/**
 * The alert step at minute t: fires each armed alert (armed at or before t) whose instrument trades at t and
 * whose condition holds at t's price. Returns the ids it fired (the engine drops them from its state).
 */
export async function runAlertStep(
  station: Station,
  quotes: EngineQuotes,
  alerts: readonly PriceAlertRow[],
  t: number,
): Promise<Set<number>> {
  const fired = new Set<number>();
  for (const alert of alerts) {
    if (alert.armed_at > t) continue;
    const instrument = quotes.instrumentOf(alert.code, alert.market);
    if (!instrument) continue;
    const q = quotes.quoteAt(instrument, t);
    if (!q.trading || !alertMet(alert.kind, alert.value, q)) continue;
    const change = alert.kind === 'changeAbove' || alert.kind === 'changeBelow';
    await station.db.transaction().execute(async (trx) => {
      const done = await trx
        .updateTable('price_alerts')
        .set({ fired_at: t, fired_price: q.price })
        .where('id', '=', alert.id)
        .where('fired_at', 'is', null)
        .where('armed_at', '=', alert.armed_at)
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) !== 1) return;
      await postMessage(trx, {
        userId: alert.user_id,
        kind: 'alert',
        msgKey: MESSAGE_KEY[alert.kind],
        params: {
          name: instrument.name,
          code: instrument.code,
          price: q.price,
          value: change ? percentText(alert.value) : alert.value,
          ...(change ? { change: percentText(q.changePct) } : {}),
        },
        refType: 'alert',
        refId: Number(alert.id),
        now: t,
      });
    });
    fired.add(Number(alert.id));
  }
  return fired;
}
