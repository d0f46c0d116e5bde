/**
 * Step 4 of the engine (engine.ts), day closes and the deferred fee (DOMAIN.md "Fees"): at each market's
 * daily close, every stock or index position of that market open at the close with something borrowed pays
 * deferredFeeRate × (open value − margin), as a ledger entry 'deferred_fee' and in position.deferred_fee,
 * once per market and trading day: the charge and its ('deferred_fee', '<market>:<date>') row commit
 * together. Markets: cn (A-shares, CNY indexes and futures) closes at 15:00 Shanghai, hk at 16:00 Hong Kong,
 * us at 16:00 New York, on their calendars' trading days; in CLOCK_MODE=always-open "the close" is the end
 * of the UTC day. Futures pay none: they are margined, not financed.
 */
import { deferredFee } from '../../src/shared/risk';
import type { Currency } from '../../src/shared/api/types';
import { isUniqueViolation, type PositionRow, type Tx, type Station } from '../platform';
import { dateOfDay, dayCloseTime, hoursFor, isTradingDay, localDay } from '../market';
import { post, postingAgainst } from '../ledger';
import { lockAccountById } from './limit-orders';
import type { EngineQuotes } from './engine-quotes';

type FeeMarket = 'cn' | 'hk' | 'us';
const FEE_MARKETS: readonly { name: FeeMarket; hoursOf: 'a' | 'hk' | 'us'; currency: Currency }[] = [
  { name: 'cn', hoursOf: 'a', currency: 'CNY' },
  { name: 'hk', hoursOf: 'hk', currency: 'HKD' },
  { name: 'us', hoursOf: 'us', currency: 'USD' },
];

export interface DayClose {
  market: (typeof FEE_MARKETS)[number];
  day: number;
  time: number;
}

/** Day closes of every fee market in (from, to], oldest first. */
export function closesBetween(station: Station, from: number, to: number): DayClose[] {
  const out: DayClose[] = [];
  for (const market of FEE_MARKETS) {
    const hours = hoursFor(market.hoursOf, station.config.clockMode);
    const last = localDay(to, hours.timeZone);
    for (let day = localDay(from, hours.timeZone) - 1; day <= last; day++) {
      if (!isTradingDay(day, hours)) continue;
      const time = dayCloseTime(day, hours);
      if (time > from && time <= to) out.push({ market, day, time });
    }
  }
  return out.sort((a, b) => a.time - b.time || a.market.name.localeCompare(b.market.name));
}

/** Charges one market day's deferred fee; false when it was charged before. */
export async function chargeDeferredFee(
  station: Station,
  quotes: EngineQuotes,
  close: DayClose,
): Promise<boolean> {
  const key = `${close.market.name}:${dateOfDay(close.day)}`;
  try {
    await station.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('engine_runs')
        .values({ kind: 'deferred_fee', key, done_at: close.time, note: null })
        .execute();
      const held = await trx
        .selectFrom('positions')
        .selectAll()
        .where('opened_at', '<', close.time)
        .where((eb) => eb.or([eb('closed_at', 'is', null), eb('closed_at', '>=', close.time)]))
        .where((eb) => eb('open_value', '>', eb.ref('margin')))
        .where('market', '!=', 'futures')
        .orderBy('account_id')
        .orderBy('id')
        // Locked, so a sell cannot close one while its fee is taken from its margin.
        .$if(station.dialect === 'postgres', (q) => q.forUpdate())
        .execute();
      let charged = 0;
      for (const p of held) {
        if (quotes.instrumentOf(p.code, p.market)?.currency !== close.market.currency) continue;
        charged += await chargePositionFee(trx, station, p, close);
      }
      await trx
        .updateTable('engine_runs')
        .set({ note: `positions charged, total minor units ${charged}` })
        .where('kind', '=', 'deferred_fee')
        .where('key', '=', key)
        .execute();
    });
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/** One position's deferred fee at a close, inside the close's transaction; returns what was charged. */
async function chargePositionFee(
  trx: Tx,
  station: Station,
  p: PositionRow,
  close: DayClose,
): Promise<number> {
  let fee = deferredFee(
    { openValue: p.open_value, margin: p.margin },
    station.config.settings.deferredFeeRate,
  );
  if (fee <= 0) return 0;
  // The fee comes from available cash; what cash cannot pay comes out of the position's own margin
  // (moved back to cash first, raising its risk), so available never goes negative. Beyond the
  // margin too, the rest is waived: the position is then at the liquidation line anyway.
  const account = await lockAccountById(trx, station, p.account_id);
  const available = Math.max(0, account.balance - account.frozen);
  const margin = p.state === 'open' ? p.margin : 0;
  const fromMargin = Math.min(Math.max(0, fee - available), margin);
  fee = Math.min(fee, available + fromMargin);
  if (fee <= 0) return 0;
  const note = `${p.code} ${dateOfDay(close.day)}`;
  if (fromMargin > 0) {
    await post(
      trx,
      postingAgainst('market', {
        accountId: p.account_id,
        userId: p.user_id,
        type: 'margin_release',
        amount: fromMargin,
        time: close.time,
        refType: 'position',
        refId: p.id,
        note,
      }),
    );
    await trx
      .updateTable('positions')
      .set((eb) => ({ margin: eb('margin', '-', fromMargin) }))
      .where('id', '=', p.id)
      .execute();
  }
  await post(
    trx,
    postingAgainst('financing', {
      accountId: p.account_id,
      userId: p.user_id,
      type: 'deferred_fee',
      amount: -fee,
      time: close.time,
      refType: 'position',
      refId: p.id,
      note,
    }),
  );
  await trx
    .updateTable('positions')
    .set((eb) => ({ deferred_fee: eb('deferred_fee', '+', fee) }))
    .where('id', '=', p.id)
    .execute();
  return fee;
}
