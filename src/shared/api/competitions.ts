/**
 * Trading competitions: shapes of the competition calls. Money in major units (totalAssets in yuan at the
 * station's flash-exchange mid rates), rates and returns as fractions, times in ms.
 */
import { MARKETS, type Account, type Market, type Page } from './types';

/** The markets a competition may trade: any of them, as the creator chooses. */
export const COMPETITION_MARKETS: readonly Market[] = MARKETS;

export type CompetitionState = 'upcoming' | 'running' | 'ended';
export type CompetitionVisibility = 'public' | 'private';

/** The currencies a competition's starting cash is given in (one competition account each). */
export interface CompetitionCash {
  CNY: number;
  HKD: number;
  USD: number;
}

export interface Competition {
  id: number;
  name: string;
  description: string;
  startAt: number;
  endAt: number;
  state: CompetitionState;
  startingCash: CompetitionCash;
  markets: Market[];
  maxLeverage: number;
  allowShort: boolean;
  visibility: CompetitionVisibility;
  /** A private competition's code, shown to its creator only (null otherwise). */
  joinCode: string | null;
  maxEntrants: number | null;
  entrants: number;
  /** Whether the ranking is frozen (the end's valuation is final). */
  frozen: boolean;
}

/** create.do and edit.do (edit: with `id`, refused once the competition has started). */
export interface CompetitionFields {
  name: string;
  description?: string;
  startAt: number;
  endAt: number;
  /** Yuan in the CNY account. */
  startingCash: number;
  startingCashHkd?: number;
  startingCashUsd?: number;
  /**
   * One amount in yuan instead of per currency: `startingCash` is the entrant's whole starting cash in yuan,
   * shared equally between the currencies of the allowed markets (CNY for A-shares, HKD for Hong Kong, USD
   * for the US; futures and indexes trade in CNY), each share converted at the station's flash-exchange rate
   * when the competition is created or edited. The converted amounts are stored, so every entrant starts alike.
   */
  cashInCny?: boolean;
  /** Comma-separated markets (every field of the API is one string or number). */
  markets: string;
  maxLeverage: number;
  allowShort: boolean;
  visibility: CompetitionVisibility;
  maxEntrants?: number;
  requestId: string;
}

export interface LeaderboardRow {
  rank: number;
  nickname: string;
  /** Yuan. */
  totalAssets: number;
  /** totalAssets ÷ the starting cash in yuan − 1. */
  returnPct: number;
}

export interface Leaderboard extends Page<LeaderboardRow> {
  /** When the ranking was taken (null before the first ranking). */
  takenAt: number | null;
  frozen: boolean;
}

/** A competition account: the figures of API.md's `account`, in one currency. */
export type CompetitionAccount = Omit<Account, 'type'> & { type: 'competition' };

/** mine.do: a competition the user entered or created, with their standing. */
export interface MyCompetition {
  competition: Competition;
  joined: boolean;
  isCreator: boolean;
  nickname: string | null;
  rank: number | null;
  totalAssets: number | null;
  returnPct: number | null;
}

export interface EquityPoint {
  /** The Shanghai calendar day, YYYY-MM-DD. */
  day: string;
  /** Yuan. */
  totalAssets: number;
  returnPct: number;
}

export interface CompetitionCalls {
  'GET /api/competition/list.do': {
    in: { state?: CompetitionState; pageNum?: number; pageSize?: number };
    out: Page<Competition>;
  };
  'GET /api/competition/detail.do': { in: { id: number }; out: Competition };
  'GET /api/competition/leaderboard.do': {
    in: { id: number; pageNum?: number; pageSize?: number };
    out: Leaderboard;
  };
  'POST /user/competition/create.do': { in: CompetitionFields; out: Competition };
  'POST /user/competition/edit.do': { in: CompetitionFields & { id: number }; out: Competition };
  'POST /user/competition/join.do': {
    in: { id?: number; joinCode?: string; nickname?: string; requestId: string };
    out: MyCompetition;
  };
  'POST /user/competition/nickname.do': { in: { id: number; nickname: string }; out: MyCompetition };
  'GET /user/competition/mine.do': { in: Record<string, never>; out: MyCompetition[] };
  'GET /user/competition/accounts.do': { in: { id: number }; out: CompetitionAccount[] };
  'GET /user/competition/equity.do': { in: { id: number }; out: EquityPoint[] };
}
