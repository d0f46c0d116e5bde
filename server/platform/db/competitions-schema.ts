/** The tables of migration 0015-competitions (trading competitions). Money in minor units, times in ms. */
import type { Generated } from 'kysely';

export interface CompetitionsTable {
  id: Generated<number>;
  creator_id: number;
  name: string;
  description: string;
  start_at: number;
  end_at: number;
  starting_cny: number;
  starting_hkd: number;
  starting_usd: number;
  /** Comma-separated markets the competition trades (a,star,hk,us,index,futures). */
  markets: string;
  max_leverage: number;
  /** 1: short selling allowed (where the market allows it); 0: longs only. */
  allow_short: number;
  visibility: 'public' | 'private';
  /** A private competition's code to join with; null for a public one. */
  join_code: string | null;
  max_entrants: number | null;
  /** How many have joined (kept with each join, so the cap is checked on one locked row). */
  entrants: Generated<number>;
  created_at: number;
  updated_at: number;
  /** When the ranking was frozen (the end's valuation written); null until then. */
  frozen_at: number | null;
}

export interface CompetitionEntrantsTable {
  competition_id: number;
  user_id: number;
  nickname: string;
  /** The starting cash in yuan at the flash-exchange mid rates of the join: the base of returnPct. */
  base_cny: number;
  joined_at: number;
}

export interface CompetitionSnapshotsTable {
  competition_id: number;
  taken_at: number;
  frozen: number;
  /** JSON array of the standings in rank order (server/competitions/ranking.ts). */
  rows: string;
}

export interface CompetitionEquityTable {
  competition_id: number;
  user_id: number;
  /** The Shanghai calendar day, YYYY-MM-DD. */
  day: string;
  total_assets_cny: number;
  taken_at: number;
}
