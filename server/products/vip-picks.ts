/**
 * VIP picks, "chip grabbing" (DOMAIN.md "New shares, block trades, VIP picks"): each local trading day a few
 * limited allocations of a stock at a set price, first come first served until gone, for users the back
 * office gave the VIP permission (otherwise NO_PERMISSION). A purchase opens a T+1 position through the
 * trading code (openPositionTx: margin and buy fees in the ledger).
 *
 * Rules decided here:
 * - The terms are settings (settings.products.vip: picks per day, price cap, sizes, per-user caps, discount
 *   range, window). The allocations of a day are generated from MARKET_SEED, the day and those terms
 *   (stock, size, per-user cap, set price = the day's previous close less a discount, on the tick) and
 *   stored the first time anyone asks, because what is sold is state every buyer shares: a changed setting
 *   applies from the next day not yet stored. The window is 09:30–15:00 Shanghai time by default.
 * - Lots are taken by one conditional update (sold + lots ≤ total) inside the purchase's transaction, so
 *   the allocation cannot be oversold on SQLite or PostgreSQL, and a check constraint refuses it anyway.
 *   A request for more than what is left is refused whole (no partial fill): SOLD_OUT when nothing is left,
 *   ABOVE_MAXIMUM with what is left otherwise.
 * - A user may take at most the allocation's per-user cap over all their purchases; the user's account row
 *   is locked first, so one user's concurrent purchases are counted one after the other.
 * - Leverage 1: a VIP allocation is paid in full.
 */
import type { AccountRiskState } from '../../src/shared/risk';
import type { Selectable } from 'kysely';
import { toMajor } from '../../src/shared/money';
import type { VipPick, VipPurchase } from '../../src/shared/api/dzvip';
import type { Page } from '../../src/shared/api/types';
import {
  AppError,
  assertFields,
  lotsProblem,
  runOnce,
  storedAnswer,
  type VipBuysTable,
  type VipPicksTable,
  type PositionRow,
  type Station,
} from '../platform';
import { roundToTick, hashSeed, type Instrument } from '../market';
import { instrumentOf, matchesKeyword, pageOfPurchases, purchasedPosition } from './product-purchases';
import { assertTrading, localClock, productDay, productWindow, seededCandidates } from './block-trades';
import { requireKyc, requirePermission } from '../identity';
import { lockAccount } from '../ledger';
import { accountRiskStateOf, openingCost, openPositionTx, sharesPerLot } from '../trading';

type PickRow = Selectable<VipPicksTable>;

/** Days whose allocations this process has stored already (per database). */
const ensuredDays = new WeakMap<object, Set<string>>();

/** Stores the day's allocations if nobody has yet (idempotent across processes); answers the day's key. */
async function ensurePicks(station: Station, now: number): Promise<string | null> {
  const { day, key, trading } = productDay(station, now);
  if (!trading) return null;
  const done = ensuredDays.get(station.db) ?? new Set<string>();
  ensuredDays.set(station.db, done);
  if (done.has(key)) return key;
  const seed = station.config.marketSeed;
  const terms = station.config.settings.products.vip;
  const { min, max } = terms.discountPercent;
  const { opensAt, closesAt } = productWindow(station, day, terms.window);
  const rows = seededCandidates(station, 'vip', day, now, terms.priceCap)
    .slice(0, terms.picksPerDay)
    .map((instrument) => {
      const h = hashSeed(seed, 'vip-terms', day, instrument.code);
      const discount = min / 100 + ((h >>> 16) % (max - min + 1)) / 100;
      const prevClose = station.market.quote(instrument, opensAt).prevClose;
      return {
        day_key: key,
        code: instrument.code,
        price: roundToTick(prevClose * (1 - discount), instrument.tick),
        total_lots: terms.totalLotsChoices[h % terms.totalLotsChoices.length]!,
        sold_lots: 0,
        max_lots_per_user: terms.maxLotsPerUserChoices[(h >>> 8) % terms.maxLotsPerUserChoices.length]!,
        opens_at: opensAt,
        closes_at: closesAt,
        created_at: now,
      };
    });
  if (rows.length > 0) {
    await station.db
      .insertInto('vip_picks')
      .values(rows)
      .onConflict((oc) => oc.columns(['day_key', 'code']).doNothing())
      .execute();
  }
  done.add(key);
  return key;
}

function pickView(station: Station, row: PickRow, instrument: Instrument, now: number): VipPick {
  const remaining = row.total_lots - row.sold_lots;
  return {
    id: row.id,
    code: row.code,
    name: instrument.name,
    market: instrument.market,
    price: row.price,
    currentPrice: station.market.quote(instrument, now).price,
    totalLots: row.total_lots,
    soldLots: row.sold_lots,
    remainingLots: remaining,
    maxLotsPerUser: row.max_lots_per_user,
    lotSize: sharesPerLot(station, instrument),
    opensAt: row.opens_at,
    closesAt: row.closes_at,
    status:
      remaining <= 0 ? 'soldOut' : now < row.opens_at ? 'upcoming' : now < row.closes_at ? 'open' : 'closed',
  };
}

/** getVipList.do: today's allocations with what is left, optionally filtered by a keyword. */
export async function listVipPicks(station: Station, keyword = ''): Promise<VipPick[]> {
  const now = station.clock.now();
  const key = await ensurePicks(station, now);
  if (key === null) return [];
  const rows = await station.db
    .selectFrom('vip_picks')
    .selectAll()
    .where('day_key', '=', key)
    .orderBy('id')
    .execute();
  return rows
    .map((row) => ({ row, instrument: instrumentOf(station, row.code) }))
    .filter(({ instrument }) => matchesKeyword(instrument, keyword))
    .map(({ row, instrument }) => pickView(station, row, instrument, now));
}

async function todaysPick(station: Station, code: string, now: number): Promise<PickRow> {
  const key = await ensurePicks(station, now);
  const row =
    key === null
      ? undefined
      : await station.db
          .selectFrom('vip_picks')
          .selectAll()
          .where('day_key', '=', key)
          .where('code', '=', code.trim().toUpperCase())
          .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND', { msgKey: 'VIP_NOT_FOUND' });
  return row;
}

/** getVipByCode.do: today's allocation of a code, or NOT_FOUND. */
export async function vipPickByCode(station: Station, code: string): Promise<VipPick> {
  const now = station.clock.now();
  const row = await todaysPick(station, code, now);
  return pickView(station, row, instrumentOf(station, row.code), now);
}

export interface VipOrder {
  code: string;
  lots: number;
  requestId: string;
}

function purchaseView(
  station: Station,
  row: Selectable<VipBuysTable>,
  position: PositionRow,
  instrument: Instrument,
  account?: AccountRiskState,
): VipPurchase {
  return {
    id: row.id,
    pickId: row.pick_id,
    code: row.code,
    name: instrument.name,
    lots: row.lots,
    shares: position.shares,
    price: row.price,
    amount: toMajor(position.open_value),
    fee: toMajor(position.buy_fee),
    createdAt: row.created_at,
    position: purchasedPosition(station, position, instrument, account),
  };
}

/** buyVipQc.do: takes lots of today's allocation of a code at its set price, while any are left. */
export async function buyVipPick(station: Station, userId: number, order: VipOrder): Promise<VipPurchase> {
  const call = 'buyVipQc';
  const earlier = await storedAnswer<VipPurchase>(station.db, userId, order.requestId, call);
  if (earlier !== undefined) return earlier;
  await requirePermission(station, userId, 'vip_picks');

  const now = station.clock.now();
  const pick = await todaysPick(station, order.code, now);
  const instrument = instrumentOf(station, pick.code);
  assertFields({ lots: lotsProblem(order.lots, pick.max_lots_per_user) });
  await requireKyc(station, userId, 'trading');
  if (now < pick.opens_at) {
    throw new AppError('OUTSIDE_TRADING_HOURS', {
      msgKey: 'VIP_NOT_OPEN',
      params: { time: localClock(pick.opens_at) },
    });
  }
  if (now >= pick.closes_at) throw new AppError('OUTSIDE_TRADING_HOURS', { msgKey: 'VIP_CLOSED' });
  if (pick.sold_lots >= pick.total_lots) throw new AppError('SOLD_OUT', { msgKey: 'VIP_SOLD_OUT' });
  assertTrading(station, instrument, now);
  const accountType = station.config.settings.tradingAccount[instrument.market];

  return runOnce(station.db, { userId, requestId: order.requestId, call, now }, async (trx) => {
    const account = await lockAccount(trx, station.dialect, userId, accountType);
    const mine = await trx
      .selectFrom('vip_buys')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('lots'), eb.lit(0)).as('lots'))
      .where('pick_id', '=', pick.id)
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    const taken = Number(mine.lots);
    if (taken + order.lots > pick.max_lots_per_user) {
      throw new AppError('ABOVE_MAXIMUM', {
        msgKey: 'VIP_USER_LIMIT',
        params: { max: pick.max_lots_per_user, left: Math.max(0, pick.max_lots_per_user - taken) },
      });
    }
    const cost = openingCost(station, instrument, order.lots, 1, pick.price);
    if (account.balance - account.frozen < cost.total) throw new AppError('INSUFFICIENT_FUNDS');

    // First come, first served: the lots are taken only if that many are still left, in one statement
    // (PostgreSQL re-checks the condition on the row after a concurrent buyer's commit).
    const taking = await trx
      .updateTable('vip_picks')
      .set((eb) => ({ sold_lots: eb('sold_lots', '+', order.lots) }))
      .where('id', '=', pick.id)
      .where((eb) => eb(eb('sold_lots', '+', order.lots), '<=', eb.ref('total_lots')))
      .executeTakeFirst();
    if (Number(taking.numUpdatedRows) === 0) {
      const after = await trx
        .selectFrom('vip_picks')
        .select(['sold_lots', 'total_lots'])
        .where('id', '=', pick.id)
        .executeTakeFirstOrThrow();
      const left = after.total_lots - after.sold_lots;
      if (left <= 0) throw new AppError('SOLD_OUT', { msgKey: 'VIP_SOLD_OUT' });
      throw new AppError('ABOVE_MAXIMUM', { msgKey: 'VIP_NOT_ENOUGH_LEFT', params: { left } });
    }

    const position = await openPositionTx(trx, station, {
      instrument,
      account,
      direction: 'long',
      lots: order.lots,
      leverage: 1,
      price: pick.price,
      stopProfit: null,
      stopLoss: null,
      now,
    });
    const values = {
      user_id: userId,
      pick_id: pick.id,
      code: pick.code,
      lots: order.lots,
      price: pick.price,
      position_id: position.id,
      created_at: now,
    };
    const { id } = await trx.insertInto('vip_buys').values(values).returning('id').executeTakeFirstOrThrow();
    const riskState = await accountRiskStateOf(trx, station, position.account_id);
    return purchaseView(station, { id, ...values }, position, instrument, riskState);
  });
}

/** vipQcList.do: the user's VIP purchases, newest first, each with its position now. */
export async function listVipPurchases(
  station: Station,
  userId: number,
  query: { pageNum: number; pageSize: number },
): Promise<Page<VipPurchase>> {
  return pageOfPurchases(station, 'vip_buys', userId, query, (row, position, instrument, account) =>
    purchaseView(station, row, position, instrument, account),
  );
}
