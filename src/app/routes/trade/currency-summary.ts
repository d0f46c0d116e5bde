/**
 * The positions page's summary (/warehouse): the user's accounts grouped by currency, each group's total
 * assets, today's P&L and buying power (available), as the station reports them per account (API.md
 * `account`), added up in minor units.
 */
import type { Account, Currency } from '../../../shared/api/types';
import type { CompetitionAccount } from '../../../shared/api/competitions';

/** The user's own accounts, or a competition's (one per currency, API.md `account` figures). */
type SummedAccount = Account | CompetitionAccount;
import { toMajor, toMinor } from '../../../shared/money';

/** The currencies in the order the summary shows them (DOMAIN.md "Accounts": CNY main/index/newstock, HKD, USD). */
const CURRENCY_ORDER: readonly Currency[] = ['CNY', 'HKD', 'USD'];

/** One currency's accounts added up, major units (summed in minor units: money in integers). */
export interface CurrencySummary {
  currency: Currency;
  accounts: SummedAccount['type'][];
  totalAssets: number;
  todayPnl: number;
  available: number;
}

/** The user's accounts grouped by currency, each group's total assets, today's P&L and buying power. */
export function summaryByCurrency(accounts: readonly SummedAccount[]): CurrencySummary[] {
  return CURRENCY_ORDER.flatMap((currency) => {
    const group = accounts.filter((a) => a.currency === currency);
    if (group.length === 0) return [];
    const sum = (pick: (a: SummedAccount) => number) =>
      toMajor(group.reduce((total, a) => total + toMinor(pick(a)), 0));
    return [
      {
        currency,
        accounts: group.map((a) => a.type),
        totalAssets: sum((a) => a.totalAssets),
        todayPnl: sum((a) => a.todayPnl),
        available: sum((a) => a.available),
      },
    ];
  });
}
