/**
 * Account and ledger rows as API.md's `account` and `ledgerEntry` shapes.
 * - account.balance = the ledger's sum (margins already moved out of it); available = balance − frozen (the
 *   funds pending limit orders hold); frozenMargin = margin of the account's open positions; positionPnl =
 *   their pnl; totalAssets = balance + frozenMargin + positionPnl.
 */
import { toMajor } from '../../src/shared/money';
import type { Account, AccountType, LedgerEntry } from '../../src/shared/api/types';
import type { AccountRow, LedgerRow } from '../platform';

/**
 * One of the user's five accounts, as queries read them with `type in (...)`: a fund allocation's
 * sub-account (type 'fund') is shown with its allocation, never as an account (getUserSubaccount.do).
 */
export type OwnAccountRow = AccountRow & { type: AccountType };

export function toAccount(
  row: OwnAccountRow,
  openPositions: { margin: number; pnl: number }[],
  liquidationLine: number,
): Account {
  const frozenMargin = openPositions.reduce((sum, p) => sum + p.margin, 0);
  const positionPnl = openPositions.reduce((sum, p) => sum + p.pnl, 0);
  const available = row.balance - row.frozen;
  return {
    type: row.type,
    currency: row.currency,
    balance: toMajor(row.balance),
    available: toMajor(available),
    frozenMargin: toMajor(frozenMargin),
    positionPnl: toMajor(positionPnl),
    totalAssets: toMajor(row.balance + frozenMargin + positionPnl),
    liquidationLine,
  };
}

export function toLedgerEntry(row: LedgerRow & { account: AccountType }): LedgerEntry {
  return {
    id: row.id,
    time: row.time,
    account: row.account,
    type: row.type as LedgerEntry['type'],
    amount: toMajor(row.amount),
    balanceAfter: toMajor(row.balance_after),
    refType: row.ref_type,
    refId: row.ref_id,
    note: row.note,
  };
}
