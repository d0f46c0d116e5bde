/**
 * The ledger's two identities (ARCHITECTURE.md "Money"), checked over the whole database: every posting's
 * entries sum to zero per currency, and every user account's balance equals the sum of its entries.
 */
import { sql } from 'kysely';
import type { DbOrTx, HouseAccount } from '../platform';

export interface LedgerMismatch {
  accountId: number;
  userId: number;
  type: string;
  balance: number;
  entriesSum: number;
}

/** A posting whose entries do not sum to zero in `currency` (postingId null: entries with no posting). */
export interface UnbalancedPosting {
  postingId: number | null;
  type: string | null;
  refType: string | null;
  refId: number | null;
  currency: string;
  sum: number;
}

export interface LedgerCheckResult {
  accounts: number;
  entries: number;
  postings: number;
  houseEntries: number;
  /** User accounts whose balance is not the sum of their entries. */
  mismatches: LedgerMismatch[];
  /** Postings that do not sum to zero per currency. */
  unbalanced: UnbalancedPosting[];
  /** Each house account's balance per currency: the sum of its entries. */
  house: { account: HouseAccount; currency: string; balance: number }[];
}

async function balanceMismatches(db: DbOrTx) {
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
      accountId: Number(r.accountId),
      userId: Number(r.userId),
      type: r.type,
      balance: Number(r.balance),
      entriesSum: Number(r.entriesSum),
    }));
  return { accounts: rows.length, entries: rows.reduce((sum, r) => sum + Number(r.entries), 0), mismatches };
}

async function unbalancedPostings(db: DbOrTx): Promise<UnbalancedPosting[]> {
  const legs = db
    .selectFrom('ledger_entries as l')
    .innerJoin('accounts as a', 'a.id', 'l.account_id')
    .select(['l.posting_id as postingId', 'a.currency as currency', 'l.amount as amount'])
    .unionAll(
      db
        .selectFrom('house_entries as h')
        .select(['h.posting_id as postingId', 'h.currency as currency', 'h.amount as amount']),
    );
  const rows = await db
    .selectFrom(legs.as('leg'))
    .leftJoin('ledger_postings as p', 'p.id', 'leg.postingId')
    .select([
      'leg.postingId as postingId',
      'leg.currency as currency',
      'p.type as type',
      'p.ref_type as refType',
      'p.ref_id as refId',
      sql<number>`cast(sum(leg.amount) as bigint)`.as('sum'),
    ])
    .groupBy(['leg.postingId', 'leg.currency', 'p.id', 'p.type', 'p.ref_type', 'p.ref_id'])
    // An entry whose posting header is missing is as wrong as an unbalanced one.
    .having((eb) => eb.or([eb(sql`sum(leg.amount)`, '<>', 0), eb('p.id', 'is', null)]))
    .orderBy('leg.postingId')
    .execute();
  return rows.map((r) => ({
    postingId: r.postingId === null ? null : Number(r.postingId),
    type: r.type,
    refType: r.refType,
    refId: r.refId === null ? null : Number(r.refId),
    currency: r.currency,
    sum: Number(r.sum),
  }));
}

/** Checks both identities; lists what breaks each, and the house accounts' balances. */
export async function checkLedger(db: DbOrTx): Promise<LedgerCheckResult> {
  const balances = await balanceMismatches(db);
  const unbalanced = await unbalancedPostings(db);
  const postings = await db
    .selectFrom('ledger_postings')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const house = await db
    .selectFrom('house_entries')
    .select([
      'account',
      'currency',
      sql<number>`cast(sum(amount) as bigint)`.as('balance'),
      sql<number>`count(*)`.as('entries'),
    ])
    .groupBy(['account', 'currency'])
    .orderBy('account')
    .orderBy('currency')
    .execute();
  return {
    ...balances,
    postings: Number(postings.n),
    houseEntries: house.reduce((sum, h) => sum + Number(h.entries), 0),
    unbalanced,
    house: house.map((h) => ({ account: h.account, currency: h.currency, balance: Number(h.balance) })),
  };
}

function money(minor: number, currency: string): string {
  return `${(minor / 100).toFixed(2)} ${currency}`;
}

/** What `npm run station -- ledger-check` prints: the verdict, then each posting and account at fault. */
export function describeLedgerCheck(result: LedgerCheckResult): string[] {
  const lines: string[] = [];
  const counts = `${result.postings} postings, ${result.entries} user entries, ${result.houseEntries} house entries, ${result.accounts} accounts`;
  if (result.unbalanced.length === 0 && result.mismatches.length === 0) {
    lines.push(
      `ledger-check: OK: ${counts}; every posting sums to zero and every balance matches its ledger`,
    );
  } else {
    lines.push(`ledger-check: FAILED: ${counts}`);
  }
  if (result.unbalanced.length > 0) {
    lines.push(`  ${result.unbalanced.length} postings do not sum to zero:`);
    for (const p of result.unbalanced) {
      const what = p.postingId === null ? 'entries with no posting' : `posting ${p.postingId}`;
      const ref = p.refType ? ` (${p.refType} ${p.refId ?? ''})`.replace(' )', ')') : '';
      const header = p.type === null && p.postingId !== null ? ' (no posting row)' : '';
      lines.push(`    ${what} ${p.type ?? ''}${ref}${header}: off by ${money(p.sum, p.currency)}`);
    }
  }
  if (result.mismatches.length > 0) {
    lines.push(`  ${result.mismatches.length} accounts do not match their entries:`);
    for (const m of result.mismatches) {
      lines.push(
        `    account ${m.accountId} (user ${m.userId}, ${m.type}): balance ${m.balance} ≠ entries ${m.entriesSum} (minor units)`,
      );
    }
  }
  if (result.house.length > 0) {
    lines.push('  house accounts:');
    for (const h of result.house) lines.push(`    ${h.account} ${money(h.balance, h.currency)}`);
  }
  return lines;
}
