/**
 * The ledger, double-entry (ARCHITECTURE.md "Money"): every movement of money is a posting whose entries sum
 * to zero per currency, across users' accounts and the station's own ("house") accounts, written in the same
 * transaction as the change. A user account's balance always equals the sum of its entries; a house account's
 * balance IS the sum of its entries (no row of it is updated per posting, so it is no lock hot spot).
 */
import { PostgresAdapter, sql } from 'kysely';
import type { LedgerEntryType } from '../../src/shared/api/types';
import {
  prepared,
  type DialectName,
  type PreparedQuery,
  type AccountRow,
  type HouseAccount,
  type Tx,
} from '../platform';

export type { HouseAccount };
type Currency = AccountRow['currency'];

/** A user account's side of a posting. */
export interface UserEntry {
  accountId: number;
  userId: number;
  type: LedgerEntryType;
  /** Signed minor units; positive credits the account. */
  amount: number;
  note?: string | null;
}

/** The station's side of a posting. */
export interface HouseEntry {
  house: HouseAccount;
  /** Signed minor units; positive credits the house account. */
  amount: number;
  /** Needed only when the posting's user entries are in more than one currency (a flash exchange). */
  currency?: Currency;
}

export interface Posting {
  time: number;
  refType?: string | null;
  refId?: number | null;
  /** Written in this order, each with its account's balance after it. */
  entries: readonly UserEntry[];
  house: readonly HouseEntry[];
}

/** A posting of one user entry balanced by one house account: the common case. */
export function postingAgainst(
  house: HouseAccount,
  entry: UserEntry & { time: number; refType?: string | null; refId?: number | null },
): Posting {
  const { time, refType, refId, ...user } = entry;
  return { time, refType, refId, entries: [user], house: [{ house, amount: -user.amount }] };
}

const insertPosting = prepared<{
  time: number;
  type: string;
  refType: string | null;
  refId: number | null;
}>()((db, p) =>
  db
    .insertInto('ledger_postings')
    .values({ time: p.time, type: p.type, ref_type: p.refType, ref_id: p.refId })
    .returning(['id']),
);

const addToBalance = prepared<{ accountId: number; amount: number }>()((db, p) =>
  db
    .updateTable('accounts')
    .set((eb) => ({ balance: eb('balance', '+', p.amount) }))
    .where('id', '=', p.accountId)
    .returning(['balance', 'currency']),
);

const USER_COLUMNS = [
  'posting_id',
  'account_id',
  'user_id',
  'time',
  'type',
  'amount',
  'balance_after',
  'ref_type',
  'ref_id',
  'note',
] as const;
const HOUSE_COLUMNS = ['posting_id', 'account', 'currency', 'amount'] as const;
type UserRow = Record<(typeof USER_COLUMNS)[number], unknown>;
type HouseRow = Record<(typeof HOUSE_COLUMNS)[number], unknown>;

/** Most rows one compiled insert writes (a trade writes two or three); more go through the builder. */
const MAX_PREPARED_ROWS = 4;

/** The compiled inserts of n rows into a table, by n; the parameters of row i are named column + i. */
function rowInserts(table: 'ledger_entries' | 'house_entries', columns: readonly string[]) {
  const byCount = new Map<number, PreparedQuery<Record<string, unknown>, unknown>>();
  return (count: number) => {
    let insert = byCount.get(count);
    if (!insert) {
      const rowOf = (p: Record<string, unknown>, i: number) =>
        Object.fromEntries(columns.map((column) => [column, p[`${column}${i}`]]));
      insert = prepared<Record<string, unknown>>()((db, p) =>
        db.insertInto(table).values(Array.from({ length: count }, (_, i) => rowOf(p, i)) as never),
      );
      byCount.set(count, insert);
    }
    return insert;
  };
}
const userInsert = rowInserts('ledger_entries', USER_COLUMNS);
const houseInsert = rowInserts('house_entries', HOUSE_COLUMNS);

/** Inserts the rows in order in one statement. */
async function insertRows(
  trx: Tx,
  table: 'ledger_entries' | 'house_entries',
  rows: readonly (UserRow | HouseRow)[],
): Promise<void> {
  if (rows.length === 0) return;
  if (rows.length > MAX_PREPARED_ROWS) {
    await trx
      .insertInto(table)
      .values(rows as never)
      .execute();
    return;
  }
  const columns = table === 'ledger_entries' ? USER_COLUMNS : HOUSE_COLUMNS;
  const params: Record<string, unknown> = {};
  rows.forEach((row, i) => {
    for (const column of columns) params[`${column}${i}`] = (row as Record<string, unknown>)[column];
  });
  const insert = table === 'ledger_entries' ? userInsert(rows.length) : houseInsert(rows.length);
  await insert.rows(trx, params);
}

/**
 * PostgreSQL: the posting row, its house entries and its user entries in ONE statement (data-modifying CTEs),
 * so a posting costs the order path no more round trips than the one-sided ledger did. By (users, houses).
 */
const postgresInserts = new Map<string, PreparedQuery<Record<string, unknown>, { posting_id: number }>>();

function postgresInsert(users: number, houses: number) {
  const key = `${users}/${houses}`;
  let insert = postgresInserts.get(key);
  if (!insert) {
    const postingId = sql<number>`(select id from posting)`;
    const rowsOf = (p: Record<string, unknown>, columns: readonly string[], count: number, prefix: string) =>
      Array.from({ length: count }, (_, i) => ({
        ...Object.fromEntries(columns.map((column) => [column, p[`${prefix}${column}${i}`]])),
        posting_id: postingId,
      }));
    const userColumns = USER_COLUMNS.filter((c) => c !== 'posting_id');
    const houseColumns = HOUSE_COLUMNS.filter((c) => c !== 'posting_id');
    insert = prepared<Record<string, unknown>>()((db, p) => {
      const withPosting = db.with('posting', (q) =>
        q
          .insertInto('ledger_postings')
          .values({ time: p.time, type: p.type, ref_type: p.refType, ref_id: p.refId } as never)
          .returning('id'),
      );
      const userValues = rowsOf(p, userColumns, users, 'u') as never;
      if (houses === 0)
        return withPosting.insertInto('ledger_entries').values(userValues).returning('posting_id');
      return withPosting
        .with('house', (q) =>
          q.insertInto('house_entries').values(rowsOf(p, houseColumns, houses, 'h') as never),
        )
        .insertInto('ledger_entries')
        .values(userValues)
        .returning('posting_id');
    });
    postgresInserts.set(key, insert);
  }
  return insert;
}

/** Writes the posting row and its entries on PostgreSQL in one statement; answers the posting's id. */
async function insertPostingOnPostgres(
  trx: Tx,
  header: { time: number; type: string; refType: string | null; refId: number | null },
  userRows: readonly UserRow[],
  houseRows: readonly HouseRow[],
): Promise<number> {
  const params: Record<string, unknown> = { ...header };
  userRows.forEach((row, i) => {
    for (const column of USER_COLUMNS) params[`u${column}${i}`] = row[column];
  });
  houseRows.forEach((row, i) => {
    for (const column of HOUSE_COLUMNS) params[`h${column}${i}`] = row[column];
  });
  const [written] = await postgresInsert(userRows.length, houseRows.length).rows(trx, params);
  return Number(written!.posting_id);
}

/** Refuses amounts that are not whole minor units, and a posting without a user entry. */
function checkShape(posting: Posting): void {
  if (posting.entries.length === 0) throw new RangeError('ledger: a posting needs a user entry');
  for (const leg of [...posting.entries, ...posting.house]) {
    if (!Number.isSafeInteger(leg.amount)) {
      throw new RangeError(`ledger amount is not a whole minor unit: ${leg.amount}`);
    }
  }
}

/** Throws unless the entries sum to zero in every currency (the double-entry rule). */
function checkBalanced(posting: Posting, currencyOf: ReadonlyMap<number, Currency>): void {
  const sums = new Map<Currency, number>();
  const add = (currency: Currency, amount: number) => sums.set(currency, (sums.get(currency) ?? 0) + amount);
  for (const entry of posting.entries) add(currencyOf.get(entry.accountId)!, entry.amount);
  const userCurrencies = [...sums.keys()];
  for (const leg of posting.house) {
    if (!leg.currency && userCurrencies.length !== 1) {
      throw new RangeError(`ledger: house entry ${leg.house} needs a currency`);
    }
    add(leg.currency ?? userCurrencies[0]!, leg.amount);
  }
  for (const [currency, sum] of sums) {
    if (sum !== 0) {
      const first = posting.entries[0]!;
      throw new RangeError(
        `ledger: posting ${first.type} ${posting.refType ?? ''} ${posting.refId ?? ''} is off by ${sum} ${currency}`,
      );
    }
  }
}

/**
 * Writes a posting: moves each user account's balance (one update per account), then records the posting,
 * its user entries in order, each with its account's balance after it, and its house entries. Refuses
 * (throws, so the caller's transaction rolls back) a posting that does not sum to zero per currency, before
 * writing any entry. Answers the posting's id.
 */
export async function post(trx: Tx, posting: Posting): Promise<number> {
  checkShape(posting);
  const header = {
    time: posting.time,
    type: posting.entries[0]!.type,
    refType: posting.refType ?? null,
    refId: posting.refId ?? null,
  };
  const totals = new Map<number, number>();
  for (const entry of posting.entries) {
    totals.set(entry.accountId, (totals.get(entry.accountId) ?? 0) + entry.amount);
  }
  const balanceBefore = new Map<number, number>();
  const currencyOf = new Map<number, Currency>();
  for (const [accountId, total] of totals) {
    const [account] = await addToBalance.rows(trx, { accountId, amount: total });
    if (!account) throw new Error(`ledger: no account ${accountId}`);
    balanceBefore.set(accountId, account.balance - total);
    currencyOf.set(accountId, account.currency);
  }
  checkBalanced(posting, currencyOf);

  const userRows = posting.entries.map((entry): UserRow => {
    const balanceAfter = balanceBefore.get(entry.accountId)! + entry.amount;
    balanceBefore.set(entry.accountId, balanceAfter);
    return {
      posting_id: null,
      account_id: entry.accountId,
      user_id: entry.userId,
      time: posting.time,
      type: entry.type,
      amount: entry.amount,
      balance_after: balanceAfter,
      ref_type: header.refType,
      ref_id: header.refId,
      note: entry.note ?? null,
    };
  });
  const single = currencyOf.size === 1 ? [...currencyOf.values()][0] : undefined;
  const houseRows = posting.house
    .filter((leg) => leg.amount !== 0)
    .map((leg): HouseRow => ({
      posting_id: null,
      account: leg.house,
      currency: leg.currency ?? single,
      amount: leg.amount,
    }));
  const oneStatement =
    trx.getExecutor().adapter instanceof PostgresAdapter &&
    userRows.length <= MAX_PREPARED_ROWS &&
    houseRows.length <= MAX_PREPARED_ROWS;
  if (oneStatement) return insertPostingOnPostgres(trx, header, userRows, houseRows);
  // SQLite runs statements in process (in a commit group, straight on its connection): three cost little.
  const [written] = await insertPosting.rows(trx, header);
  const postingId = written!.id;
  for (const row of [...userRows, ...houseRows]) row.posting_id = postingId;
  await insertRows(trx, 'ledger_entries', userRows);
  await insertRows(trx, 'house_entries', houseRows);
  return postingId;
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

export {
  checkLedger,
  describeLedgerCheck,
  type LedgerCheckResult,
  type LedgerMismatch,
  type UnbalancedPosting,
} from './ledger-check';
