/**
 * What deposits and withdrawals share once they are pending: the station's pay channel (or bank) decides each
 * after REVIEW_DELAY_S, or an operator decides one (audited). Each kind brings its own `apply`, which moves the
 * money and tells the user in the same transaction, and is false when the row was no longer pending.
 */
import type { Selectable } from 'kysely';
import { AppError, type DB, type Tx, type Station } from '../platform';
import { audit } from '../ledger';
import { moneyText, type Decider } from './wallet';

/** The tables of money waiting for a decision; they share the columns read here. */
export type Decided = 'recharges' | 'withdrawals';
type Row<T extends Decided> = Selectable<DB[T]>;
type Apply<T extends Decided> = (trx: Tx, row: Row<T>, decider: Decider, now: number) => Promise<boolean>;

/** The rows of `table` pending for REVIEW_DELAY_S at `now`, oldest first, each applied in its own transaction. */
export async function reviewDue<T extends Decided>(
  station: Station,
  table: T,
  now: number,
  apply: Apply<T>,
): Promise<number> {
  const due = await station.db
    .selectFrom(table as Decided)
    .selectAll()
    .where('status', '=', 'pending')
    .where('created_at', '<=', now - station.config.reviewDelaySeconds * 1000)
    .orderBy('id')
    .limit(500)
    .execute();
  let decided = 0;
  for (const row of due) {
    // Kysely types a query of either table as a row of one or the other; it is a row of `table`.
    const done = await station.db
      .transaction()
      .execute((trx) => apply(trx, row as Row<T>, { by: 'reviewer' }, now));
    if (done) decided += 1;
  }
  return decided;
}

/**
 * An operator's decision on one pending row, audited as `action` with the row's id under `idKey`; returns the
 * row as it is now. NOT_FOUND when there is no such row, ALREADY_DONE when it was decided already.
 */
export async function decideByOperator<T extends Decided>(
  station: Station,
  table: T,
  id: number,
  audited: { action: string; idKey: string; actor: string; reason: string },
  apply: Apply<T>,
): Promise<Row<T>> {
  const now = station.clock.now();
  const { actor, reason } = audited;
  return station.db.transaction().execute(async (trx) => {
    const find = () =>
      trx
        .selectFrom(table as Decided)
        .selectAll()
        .where('id', '=', id);
    const row = await find().executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND');
    const decider: Decider = { by: 'operator', actor, reason };
    if (!(await apply(trx, row as Row<T>, decider, now))) throw new AppError('ALREADY_DONE');
    await audit(trx, {
      time: now,
      actor,
      action: audited.action,
      userId: row.user_id,
      reason,
      detail: { [audited.idKey]: row.id, orderNo: row.order_no, amount: moneyText(row.amount) },
    });
    return (await find().executeTakeFirstOrThrow()) as Row<T>;
  });
}
