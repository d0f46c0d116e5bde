/**
 * Trading inside a competition, the app's pure part: which competitions the account switcher offers, what
 * a chosen one resolves to, its limits as the rule book takes them (src/shared/trading-rules.ts TradeLimits),
 * and which competition account pays for an order. The competition's accounts are one per currency
 * (server/competitions/entry.ts): a market's order is paid from the one in the currency of the account that
 * trades that market outside competitions (DOMAIN.md "Accounts": index and futures in CNY).
 */
import type { Account, AccountType, Currency, Market } from '../../../shared/api/types';
import type { Competition, CompetitionAccount, MyCompetition } from '../../../shared/api/competitions';
import type { TradeLimits } from '../../../shared/trading-rules';

/** The competitions the user may trade in now: entered (not only created) and running. */
export function tradableCompetitions(mine: readonly MyCompetition[]): Competition[] {
  return mine.filter((m) => m.joined && m.competition.state === 'running').map((m) => m.competition);
}

/** What the chosen account is once the user's competitions are known. */
export type ResolvedChoice =
  | { kind: 'own' }
  | { kind: 'competition'; competition: Competition }
  /** A competition is chosen but the user's competitions are not known yet. */
  | { kind: 'pending' }
  /** A competition is chosen that the user cannot trade in now (not entered, not running, unknown). */
  | { kind: 'unavailable'; competitionId: number };

export function resolveChoice(
  chosen: number | null,
  mine: readonly MyCompetition[] | undefined,
): ResolvedChoice {
  if (chosen === null) return { kind: 'own' };
  if (mine === undefined) return { kind: 'pending' };
  const competition = tradableCompetitions(mine).find((c) => c.id === chosen);
  return competition ? { kind: 'competition', competition } : { kind: 'unavailable', competitionId: chosen };
}

/** The competition's limits, as the one rule book takes them. */
export function limitsOf(competition: Competition): TradeLimits {
  return {
    markets: competition.markets,
    maxLeverage: competition.maxLeverage,
    allowShort: competition.allowShort,
  };
}

/** `?competition=` of the order screens and /warehouse: a competition to trade in (a detail's link). */
export function competitionParam(search: Record<string, unknown>): { competition?: string } {
  const raw = typeof search.competition === 'string' || typeof search.competition === 'number';
  const value = raw ? String(search.competition).trim() : '';
  return /^\d{1,15}$/.test(value) && Number(value) > 0 ? { competition: value } : {};
}

/** The currency of the user's own account of `type` (the competition account in it pays instead). */
export function currencyOfAccount(
  accounts: readonly Pick<Account, 'type' | 'currency'>[],
  type: AccountType,
): Currency | undefined {
  return accounts.find((a) => a.type === type)?.currency;
}

/**
 * The competition account that pays for an order of `market`: the one in the currency of the user's own
 * account trading that market (tradingAccount).
 */
export function payingCompetitionAccount(
  competitionAccounts: readonly CompetitionAccount[],
  ownAccounts: readonly Pick<Account, 'type' | 'currency'>[],
  tradingAccount: Readonly<Record<Market, AccountType>>,
  market: Market,
): CompetitionAccount | undefined {
  const currency = currencyOfAccount(ownAccounts, tradingAccount[market]);
  return competitionAccounts.find((a) => a.currency === currency);
}
