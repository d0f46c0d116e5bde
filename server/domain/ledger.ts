/**
 * The ledger: every change of a balance is an entry written in the same transaction as the change, so an
 * account's balance always equals the sum of its entries.
 */
import { sql } from 'kysely';
import type { LedgerEntryType } from '../../src/shared/api/types';
import type { DialectName } from '../db/database';
import type { AccountRow, Db, DbOrTx, Tx } from '../db/schema';

export interface LedgerPosting {
  accountId: number;
  userId: number;
  type: LedgerEntryType;
  /** Signed minor units; positive credits the account. */
  amount: number;
  time: number;
  refType?: string | null;
  refId?: number | null;
  note?: string | null;
}

/** Applies the amount to the account and records the entry with the balance after it. */
export async function post(trx: Tx, entry: LedgerPosting): Promise<number> {
  if (!Number.isSafeInteger(entry.amount))
    throw new RangeError(`ledger amount is not a whole minor unit: ${entry.amount}`);
  const account = await trx
    .updateTable('accounts')
    .set((eb) => ({ balance: eb('balance', '+', entry.amount) }))
    .where('id', '=', entry.accountId)
    .returning(['balance'])
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('ledger_entries')
    .values({
      account_id: entry.accountId,
      user_id: entry.userId,
      time: entry.time,
      type: entry.type,
      amount: entry.amount,
      balance_after: account.balance,
      ref_type: entry.refType ?? null,
      ref_id: entry.refId ?? null,
      note: entry.note ?? null,
    })
    .execute();
  return account.balance;
}

/**
 * Applies several entries to ONE account with a single balance update, then records them in order, each with
 * the balance after it (the same rows `post` would write one by one, in fewer statements).
 */
export async function postAll(trx: Tx, entries: readonly LedgerPosting[]): Promise<number> {
  const first = entries[0];
  if (!first) throw new RangeError('postAll: no entries');
  let total = 0;
  for (const entry of entries) {
    if (entry.accountId !== first.accountId) throw new RangeError('postAll: entries of different accounts');
    if (!Number.isSafeInteger(entry.amount))
      throw new RangeError(`ledger amount is not a whole minor unit: ${entry.amount}`);
    total += entry.amount;
  }
  const account = await trx
    .updateTable('accounts')
    .set((eb) => ({ balance: eb('balance', '+', total) }))
    .where('id', '=', first.accountId)
    .returning(['balance'])
    .executeTakeFirstOrThrow();
  let balance = account.balance - total;
  await trx
    .insertInto('ledger_entries')
    .values(
      entries.map((entry) => {
        balance += entry.amount;
        return {
          account_id: entry.accountId,
          user_id: entry.userId,
          time: entry.time,
          type: entry.type,
          amount: entry.amount,
          balance_after: balance,
          ref_type: entry.refType ?? null,
          ref_id: entry.refId ?? null,
          note: entry.note ?? null,
        };
      }),
    )
    .execute();
  return account.balance;
}

/** Reads an account inside a transaction, locking its row on PostgreSQL (SQLite serialises transactions). */
export async function lockAccount(
  trx: Tx,
  dialect: DialectName,
  userId: number,
  type: AccountRow['type'],
): Promise<AccountRow> {
  return trx
    .selectFrom('accounts')
    .selectAll()
    .where('user_id', '=', userId)
    .where('type', '=', type)
    .$if(dialect === 'postgres', (q) => q.forUpdate())
    .executeTakeFirstOrThrow();
}

export interface LedgerMismatch {
  accountId: number;
  userId: number;
  type: string;
  balance: number;
  entriesSum: number;
}

export interface LedgerCheckResult {
  accounts: number;
  entries: number;
  mismatches: LedgerMismatch[];
}

/** Verifies that every account's balance equals the sum of its ledger entries. */
export async function checkLedger(db: Db | DbOrTx): Promise<LedgerCheckResult> {
  const rows = await db
    .selectFrom('accounts as a')
    .leftJoin('ledger_entries as l', 'l.account_id', 'a.id')
    .select([
      'a.id as accountId',
      'a.user_id as userId',
      'a.type as type',
      'a.balance as balance',
      sql<number>`cast(coalesce(sum(l.amount), 0) as bigint)`.as('entriesSum'),
      sql<number>`count(l.id)`.as('entries'),
    ])
    .groupBy(['a.id', 'a.user_id', 'a.type', 'a.balance'])
    .execute();
  const mismatches = rows
    .filter((r) => Number(r.balance) !== Number(r.entriesSum))
    .map((r) => ({
      accountId: r.accountId,
      userId: r.userId,
      type: r.type,
      balance: Number(r.balance),
      entriesSum: Number(r.entriesSum),
    }));
  return {
    accounts: rows.length,
    entries: rows.reduce((sum, r) => sum + Number(r.entries), 0),
    mismatches,
  };
}
