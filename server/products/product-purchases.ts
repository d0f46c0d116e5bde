/**
 * What the block-trade and VIP-pick purchases share: the keyword an offer list is filtered by, and a user's
 * purchase records read back page by page, each with its position as it is now (so a record's P&L and
 * liquidation price are those the positions page shows, DOMAIN.md "Leverage, margin and liquidation").
 */
import type { AccountRiskState } from '../../src/shared/risk';
import type { Page, Position } from '../../src/shared/api/types';
import type { Selectable } from 'kysely';
import {
  AppError,
  type BlockTradeBuysTable,
  type PositionRow,
  type Station,
  type VipBuysTable,
} from '../platform';
import { nameMatches, type Instrument } from '../market';
import { accountRiskStateOf, positionTerms, toPosition } from '../trading';

/** Whether an offer's stock matches what the user typed: code, pinyin or name (any language); '' matches all. */
export function matchesKeyword(instrument: Instrument, keyword: string): boolean {
  const k = keyword.trim().toLowerCase();
  return (
    k === '' ||
    instrument.code.toLowerCase().includes(k) ||
    instrument.pinyin.toLowerCase().includes(k) ||
    nameMatches(instrument, k)
  );
}

/** A stock of the catalogue by code, listed or not (a record outlives nothing, but stays readable). */
export function instrumentOf(station: Station, code: string): Instrument {
  const instrument = station.market.instruments.find((i) => i.code === code);
  if (!instrument) throw new AppError('NOT_FOUND');
  return instrument;
}

/** A purchase's position as the user sees it now: an open one at today's quote, with its account's risk. */
export function purchasedPosition(
  station: Station,
  position: PositionRow,
  instrument: Instrument,
  account?: AccountRiskState,
): Position {
  const quote = position.state === 'open' ? station.market.quote(instrument) : null;
  return toPosition(position, instrument, quote, positionTerms(station, position.market), account);
}

/** The tables of purchase records: each row names its buyer and the position it opened. */
interface PurchaseRows {
  block_trade_buys: Selectable<BlockTradeBuysTable>;
  vip_buys: Selectable<VipBuysTable>;
}
type PurchaseTable = keyof PurchaseRows;

/**
 * A user's purchase records of one kind, newest first, a page at a time, each turned into its view with the
 * position it opened (as it is now) and, while that position is open, its account's risk state.
 */
export async function pageOfPurchases<T extends PurchaseTable, V>(
  station: Station,
  table: T,
  userId: number,
  query: { pageNum: number; pageSize: number },
  view: (
    row: PurchaseRows[T],
    position: PositionRow,
    instrument: Instrument,
    account?: AccountRiskState,
  ) => V,
): Promise<Page<V>> {
  const db = station.db;
  const { total } = await db
    .selectFrom(table as PurchaseTable)
    .where('user_id', '=', userId)
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = (await db
    .selectFrom(table as PurchaseTable)
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize)
    .execute()) as PurchaseRows[T][];
  const positions = await positionsById(
    station,
    rows.map((r) => r.position_id),
  );
  const accounts = await accountStatesOf(station, positions.values());
  return {
    list: rows.map((row) => {
      const position = positions.get(row.position_id)!;
      return view(row, position, instrumentOf(station, row.code), accounts.get(position.account_id));
    }),
    total: Number(total),
    pageNum: query.pageNum,
    pageSize: query.pageSize,
  };
}

/**
 * The risk state of each account holding one of the open `positions`, so their liquidation prices are the
 * account-wide ones the engine triggers on (DOMAIN.md "Leverage, margin and liquidation").
 */
async function accountStatesOf(
  station: Station,
  positions: Iterable<PositionRow>,
): Promise<Map<number, AccountRiskState>> {
  const states = new Map<number, AccountRiskState>();
  for (const p of positions) {
    if (p.state !== 'open' || states.has(p.account_id)) continue;
    const state = await accountRiskStateOf(station.db, station, p.account_id);
    if (state) states.set(p.account_id, state);
  }
  return states;
}

async function positionsById(station: Station, ids: number[]): Promise<Map<number, PositionRow>> {
  if (ids.length === 0) return new Map();
  const rows = await station.db.selectFrom('positions').selectAll().where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r]));
}
