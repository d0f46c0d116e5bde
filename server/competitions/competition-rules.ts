/**
 * The rules of trading competitions, as plain functions over plain data (no I/O):
 * - a competition is upcoming before its start, running from its start to its end, ended from its end on;
 * - a creator may edit it only while it is upcoming; anyone may join it until its end, up to its cap;
 * - its starting cash is given per currency (the CNY, HKD and USD competition accounts); returns are on that
 *   cash valued in yuan at the flash-exchange mid rates of the join;
 * - its limits (markets, the largest leverage, whether shorts are allowed) are inputs of the station's one
 *   rule book (server/trading/trade-rules.ts), never a second copy of it;
 * - the ranking orders entrants by total assets in yuan, highest first; a tie goes to whoever reached the
 *   figure first, then to the earlier entrant.
 */
import { toMajor } from '../../src/shared/money';
import { exchangedAmount } from '../../src/shared/flash-exchange';
import type { Currency, Market } from '../../src/shared/api/types';
import {
  COMPETITION_MARKETS,
  type Competition,
  type CompetitionState,
  type LeaderboardRow,
} from '../../src/shared/api/competitions';

export { COMPETITION_MARKETS };
import { AppError, type CompetitionRow } from '../platform';

export const COMPETITION_CURRENCIES: readonly Currency[] = ['CNY', 'HKD', 'USD'];
/** The competition account each market trades from (futures and indexes settle in yuan). */
const MARKET_CURRENCY: Record<Market, Currency> = {
  a: 'CNY',
  star: 'CNY',
  index: 'CNY',
  futures: 'CNY',
  hk: 'HKD',
  us: 'USD',
};
/** Nicknames on a leaderboard: 1 to 16 characters. */
export const NICKNAME_MAX = 16;

/** The limits a competition adds to the rule book. */
export interface CompetitionLimits {
  markets: readonly Market[];
  maxLeverage: number;
  allowShort: boolean;
}

export function competitionState(
  row: Pick<CompetitionRow, 'start_at' | 'end_at'>,
  now: number,
): CompetitionState {
  if (now < row.start_at) return 'upcoming';
  return now < row.end_at ? 'running' : 'ended';
}

export function marketsOf(row: Pick<CompetitionRow, 'markets'>): Market[] {
  return row.markets.split(',').filter((m): m is Market => COMPETITION_MARKETS.includes(m as Market));
}

export function limitsOf(row: CompetitionRow): CompetitionLimits {
  return { markets: marketsOf(row), maxLeverage: row.max_leverage, allowShort: row.allow_short === 1 };
}

/** The starting cash of each currency, minor units. */
export function startingCashOf(row: CompetitionRow): Record<Currency, number> {
  return { CNY: row.starting_cny, HKD: row.starting_hkd, USD: row.starting_usd };
}

/** Trading in the competition at `now`: refused before its start and from its end (COMPETITION_CLOSED). */
export function assertRunning(row: Pick<CompetitionRow, 'start_at' | 'end_at'>, now: number): void {
  const state = competitionState(row, now);
  if (state === 'upcoming') throw new AppError('COMPETITION_CLOSED', { msgKey: 'COMPETITION_NOT_STARTED' });
  if (state === 'ended') throw new AppError('COMPETITION_CLOSED', { msgKey: 'COMPETITION_ENDED' });
}

/** What create.do and edit.do are given, minor units for money. */
export interface CompetitionTerms {
  name: string;
  description: string;
  startAt: number;
  endAt: number;
  startingCash: Record<Currency, number>;
  markets: Market[];
  maxLeverage: number;
  allowShort: boolean;
  visibility: 'public' | 'private';
  maxEntrants: number | null;
}

/**
 * One starting amount in yuan (create.do/edit.do `cashInCny`), shared equally between the currencies of the
 * allowed markets, minor units: each currency's share is ⌊total ÷ n⌋ fen (the CNY account, when it is one of
 * them, also takes the remainder, so no fen is lost), and a foreign share is converted by the flash
 * exchange's rule (src/shared/flash-exchange.ts) at the mid rates `cnyPer` with no spread, rounded down to
 * the cent: nothing is exchanged, and the ranking values the accounts at those same mid rates, so every
 * entrant starts at a return of 0 (less than a cent per currency under the amount given).
 * A share that comes to less than one minor unit is refused (COMPETITION_CASH_TOO_SMALL).
 */
export function sharedStartingCash(
  totalCny: number,
  markets: readonly Market[],
  cnyPer: Record<Currency, number>,
): Record<Currency, number> {
  const currencies = COMPETITION_CURRENCIES.filter((c) => markets.some((m) => MARKET_CURRENCY[m] === c));
  const share = Math.floor(totalCny / currencies.length);
  const cash: Record<Currency, number> = { CNY: 0, HKD: 0, USD: 0 };
  for (const currency of currencies) {
    cash[currency] =
      currency === 'CNY'
        ? totalCny - share * (currencies.length - 1)
        : exchangedAmount(share, cnyPer, 'CNY', currency, 0);
    if (totalCny > 0 && cash[currency] < 1) {
      throw new AppError('VALIDATION', {
        fields: { startingCash: 'invalid' },
        msgKey: 'COMPETITION_CASH_TOO_SMALL',
      });
    }
  }
  return cash;
}

/** The checks the schema cannot make: times against the clock and each other, and some cash to trade. */
export function assertTerms(terms: CompetitionTerms, now: number): void {
  if (terms.name.trim().length === 0) {
    throw new AppError('VALIDATION', { fields: { name: 'required' } });
  }
  if (terms.startAt <= now) {
    throw new AppError('VALIDATION', { fields: { startAt: 'invalid' }, msgKey: 'COMPETITION_START_PAST' });
  }
  if (terms.endAt <= terms.startAt) {
    throw new AppError('VALIDATION', {
      fields: { endAt: 'invalid' },
      msgKey: 'COMPETITION_END_BEFORE_START',
    });
  }
  if (COMPETITION_CURRENCIES.every((c) => terms.startingCash[c] <= 0)) {
    throw new AppError('VALIDATION', {
      fields: { startingCash: 'invalid' },
      msgKey: 'COMPETITION_CASH_EMPTY',
    });
  }
}

/** A nickname as shown: trimmed, 1 to NICKNAME_MAX characters, else VALIDATION. */
export function checkedNickname(raw: string): string {
  const nickname = raw.trim();
  const length = [...nickname].length;
  if (length === 0 || length > NICKNAME_MAX) {
    throw new AppError('VALIDATION', { fields: { nickname: 'invalid' }, msgKey: 'COMPETITION_NICKNAME' });
  }
  return nickname;
}

/** The competition as the API shows it; its join code only to its creator. */
export function toCompetition(row: CompetitionRow, now: number, viewerId: number | null): Competition {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    startAt: row.start_at,
    endAt: row.end_at,
    state: competitionState(row, now),
    startingCash: {
      CNY: toMajor(row.starting_cny),
      HKD: toMajor(row.starting_hkd),
      USD: toMajor(row.starting_usd),
    },
    markets: marketsOf(row),
    maxLeverage: row.max_leverage,
    allowShort: row.allow_short === 1,
    visibility: row.visibility,
    joinCode: viewerId !== null && viewerId === row.creator_id ? row.join_code : null,
    maxEntrants: row.max_entrants,
    entrants: row.entrants,
    frozen: row.frozen_at !== null,
  };
}

/** One entrant's figure in a ranking, minor units of yuan. */
export interface Standing {
  userId: number;
  nickname: string;
  totalCny: number;
  baseCny: number;
  /** When the entrant's total first took its present value (kept while it does not change). */
  reachedAt: number;
  joinedAt: number;
}

/** Ranking order: total assets highest first, then the earlier time reached, then the earlier entrant. */
export function compareStandings(a: Standing, b: Standing): number {
  return (
    b.totalCny - a.totalCny || a.reachedAt - b.reachedAt || a.joinedAt - b.joinedAt || a.userId - b.userId
  );
}

/** The return on the starting cash, a fraction with 6 decimals. */
export function returnPct(totalCny: number, baseCny: number): number {
  return baseCny > 0 ? Number((totalCny / baseCny - 1).toFixed(6)) : 0;
}

export function toLeaderboardRow(standing: Standing, rank: number): LeaderboardRow {
  return {
    rank,
    nickname: standing.nickname,
    totalAssets: toMajor(standing.totalCny),
    returnPct: returnPct(standing.totalCny, standing.baseCny),
  };
}
