/**
 * The ledger: every change of a balance is an entry written in the same transaction as the change, so an
 * account's balance always equals the sum of its entries.
 */
import { sql } from 'kysely';
import type { LedgerEntryType } from '../../src/shared/api/types';
import type { DialectName } from '../platform/db/database';
import { prepared, type PreparedQuery } from '../platform/db/prepared';
import type { AccountRow, Db, DbOrTx, Tx } from '../platform/db/schema';

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

const addToBalance = prepared<{ accountId: number; amount: number }>()((db, p) =>
  db
    .updateTable('accounts')
    .set((eb) => ({ balance: eb('balance', '+', p.amount) }))
    .where('id', '=', p.accountId)
    .returning(['balance']),
);

/** The ledger_entries row of an entry, with the balance after it. */
function entryRow(entry: LedgerPosting, balanceAfter: number) {
  return {
    account_id: entry.accountId,
    user_id: entry.userId,
    time: entry.time,
    type: entry.type,
    amount: entry.amount,
    balance_after: balanceAfter,
    ref_type: entry.refType ?? null,
    ref_id: entry.refId ?? null,
    note: entry.note ?? null,
  };
}
type EntryRow = ReturnType<typeof entryRow>;
const ENTRY_COLUMNS = [
  'account_id',
  'user_id',
  'time',
  'type',
  'amount',
  'balance_after',
  'ref_type',
  'ref_id',
  'note',
] as const satisfies readonly (keyof EntryRow)[];

/** Most entries one compiled insert writes (a trade writes two or three); more go through the builder. */
const MAX_PREPARED_ENTRIES = 4;
/** The compiled insert of n rows, by n; the parameters of row i are named column + i. */
const insertEntries = new Map<number, PreparedQuery<Record<string, unknown>, unknown>>();

function insertOfRows(count: number): PreparedQuery<Record<string, unknown>, unknown> {
  let insert = insertEntries.get(count);
  if (!insert) {
    const rowOf = (p: Record<string, unknown>, i: number) => {
      const row = {} as Record<keyof EntryRow, unknown>;
      for (const column of ENTRY_COLUMNS) row[column] = p[`${column}${i}`];
      return row as EntryRow;
    };
    insert = prepared<Record<string, unknown>>()((db, p) =>
      db.insertInto('ledger_entries').values(Array.from({ length: count }, (_, i) => rowOf(p, i))),
    );
    insertEntries.set(count, insert);
  }
  return insert;
}

/** Inserts the rows in order in one statement. */
async function insertEntryRows(trx: Tx, rows: readonly EntryRow[]): Promise<void> {
  if (rows.length > MAX_PREPARED_ENTRIES) {
    await trx.insertInto('ledger_entries').values(rows).execute();
    return;
  }
  const params: Record<string, unknown> = {};
  rows.forEach((row, i) => {
    for (const column of ENTRY_COLUMNS) params[`${column}${i}`] = row[column];
  });
  await insertOfRows(rows.length).rows(trx, params);
}

/** Adds `amount` to the account's balance; answers the balance after it. */
async function addToAccount(trx: Tx, accountId: number, amount: number): Promise<number> {
  const [account] = await addToBalance.rows(trx, { accountId, amount });
  if (!account) throw new Error(`ledger: no account ${accountId}`);
  return account.balance;
}

/** Applies the amount to the account and records the entry with the balance after it. */
export async function post(trx: Tx, entry: LedgerPosting): Promise<number> {
  if (!Number.isSafeInteger(entry.amount))
    throw new RangeError(`ledger amount is not a whole minor unit: ${entry.amount}`);
  const balance = await addToAccount(trx, entry.accountId, entry.amount);
  await insertEntryRows(trx, [entryRow(entry, balance)]);
  return balance;
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
  const after = await addToAccount(trx, first.accountId, total);
  let balance = after - total;
  await insertEntryRows(
    trx,
    entries.map((entry) => {
      balance += entry.amount;
      return entryRow(entry, balance);
    }),
  );
  return after;
}

const selectAccountForUpdate = prepared<{ userId: number; type: AccountRow['type'] }>()((db, p, dialect) =>
  db
    .selectFrom('accounts')
    .selectAll()
    .where('user_id', '=', p.userId)
    .where('type', '=', p.type)
    .$if(dialect === 'postgres', (q) => q.forUpdate()),
);

/** Reads an account inside a transaction, locking its row on PostgreSQL (SQLite serialises transactions). */
export async function lockAccount(
  trx: Tx,
  dialect: DialectName,
  userId: number,
  type: AccountRow['type'],
): Promise<AccountRow> {
  const [account] = await selectAccountForUpdate.rows(trx, { userId, type });
  if (!account) throw new Error(`ledger: user ${userId} has no ${type} account`);
  return account;
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
