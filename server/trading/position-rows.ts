/**
 * The position rows and ledger entries that opening and closing write, as prepared statements: a new
 * position with every column, the columns a whole close sets, and the user's own position locked.
 */
import type { LedgerEntryType } from '../../src/shared/api/types';
import { AppError, placeholders, prepared, type PositionRow, type Tx } from '../platform';
import type { UserEntry } from '../ledger';

/** What the ledger entries of one trade share. */
export interface TradeRef {
  refType: string;
  refId: number;
  time: number;
  accountId: number;
  userId: number;
}

/**
 * A user's ledger entry of a trade, written out field by field: on this V8 `{ ...ref, type, amount, note }`
 * costs over a microsecond per added key (npm run bench).
 */
export function tradeEntry(ref: TradeRef, type: LedgerEntryType, amount: number, note: string): UserEntry {
  return { accountId: ref.accountId, userId: ref.userId, type, amount, note };
}

/** A position row before the database gives it an id. */
export type NewPositionRow = Omit<PositionRow, 'id'>;

const POSITION_COLUMNS = Object.keys({
  user_id: true,
  account_id: true,
  code: true,
  market: true,
  direction: true,
  state: true,
  lots: true,
  shares: true,
  leverage: true,
  open_price: true,
  open_value: true,
  margin: true,
  buy_fee: true,
  buy_fee_detail: true,
  sell_fee: true,
  sell_fee_detail: true,
  stamp_duty: true,
  deferred_fee: true,
  stop_profit: true,
  stop_loss: true,
  opened_at: true,
  sellable_from: true,
  closed_at: true,
  close_price: true,
  close_value: true,
  close_reason: true,
  split_from: true,
  fx_rate: true,
} satisfies Record<keyof NewPositionRow, true>) as (keyof NewPositionRow)[];

/** Writes a position (every column given); answers the row as stored. */
export const insertPosition = prepared<NewPositionRow>()((db, p) =>
  db.insertInto('positions').values(placeholders(p, POSITION_COLUMNS)).returningAll(),
);

/** The columns a close sets on the position it closes whole. */
export type ClosedFields = Pick<
  PositionRow,
  | 'state'
  | 'closed_at'
  | 'close_price'
  | 'close_value'
  | 'close_reason'
  | 'sell_fee'
  | 'sell_fee_detail'
  | 'stamp_duty'
>;
const CLOSED_COLUMNS = Object.keys({
  state: true,
  closed_at: true,
  close_price: true,
  close_value: true,
  close_reason: true,
  sell_fee: true,
  sell_fee_detail: true,
  stamp_duty: true,
} satisfies Record<keyof ClosedFields, true>) as (keyof ClosedFields)[];

export const closeWholePosition = prepared<ClosedFields & { id: number }>()((db, p) =>
  db.updateTable('positions').set(placeholders(p, CLOSED_COLUMNS)).where('id', '=', p.id),
);

const selectOwnPosition = prepared<{ id: number; userId: number }>()((db, p, dialect) =>
  db
    .selectFrom('positions')
    .selectAll()
    .where('id', '=', p.id)
    .where('user_id', '=', p.userId)
    .$if(dialect === 'postgres', (q) => q.forUpdate()),
);

/** The user's position, its row locked on PostgreSQL (SQLite serialises transactions); else NOT_FOUND. */
export async function lockOwnPosition(trx: Tx, userId: number, positionId: number): Promise<PositionRow> {
  const [position] = await selectOwnPosition.rows(trx, { id: positionId, userId });
  if (!position) throw new AppError('NOT_FOUND');
  return position;
}
