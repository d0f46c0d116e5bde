/** The fund flow: a user's ledger entries, newest first. */
import type { AccountType, LedgerEntry, LedgerEntryType, Page } from '../../src/shared/api/types';
import type { Messages, Station } from '../platform';
import { toLedgerEntry } from './views';

export async function listLedger(
  station: Station,
  messages: Messages,
  userId: number,
  query: {
    account?: AccountType | undefined;
    type?: LedgerEntryType | undefined;
    pageNum: number;
    pageSize: number;
  },
): Promise<Page<LedgerEntry>> {
  const base = station.db
    .selectFrom('ledger_entries as l')
    .innerJoin('accounts as a', 'a.id', 'l.account_id')
    .where('l.user_id', '=', userId)
    // A fund allocation's sub-account keeps its entries to itself (getUserSubaccount.do).
    .where('a.type', 'in', ['main', 'index', 'newstock', 'hk', 'us'])
    .$if(query.account !== undefined, (q) => q.where('a.type', '=', query.account!))
    .$if(query.type !== undefined, (q) => q.where('l.type', '=', query.type!));
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll('l')
    .select('a.type as account')
    .$narrowType<{ account: AccountType }>()
    .orderBy('l.id', 'desc')
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize)
    .execute();
  return {
    list: rows.map((row) => toLedgerEntry(row, messages)),
    total: Number(total),
    pageNum: query.pageNum,
    pageSize: query.pageSize,
  };
}
