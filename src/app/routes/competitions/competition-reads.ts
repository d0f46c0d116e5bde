/**
 * What the competition screens read: the screens' queries and their routes' preloads (route-prefetch.ts)
 * share them. The public reads (list, detail, leaderboard) and the user's own (mine.do) are all kept by the
 * service worker for offline reading (src/sw/api-routes.ts).
 */
import { read, type StationRead } from '../../api/reads';
import type { CompetitionState, LeaderboardRow, MyCompetition } from '../../../shared/api/competitions';

/** The list's tabs, in the order they show (spec: upcoming, running, ended). */
export const COMPETITION_STATES: readonly CompetitionState[] = ['upcoming', 'running', 'ended'];
/** Rows per page of the list and of the leaderboard (API.md "Paging": the default page size). */
export const COMPETITION_PAGE_SIZE = 15;
export const LEADERBOARD_PAGE_SIZE = 20;

export const competitionListInput = (state: CompetitionState) => ({ state, pageSize: COMPETITION_PAGE_SIZE });
export const competitionRead = (id: number) => read('GET /api/competition/detail.do', { id });
/**
 * One page of a competition's leaderboard. Its query key is the one of 'GET /api/competition/leaderboard.do'
 * (query-keys.ts), so whatever refreshes the ranking live refreshes this page by invalidating that call.
 */
export const leaderboardRead = (id: number, pageNum: number) =>
  read('GET /api/competition/leaderboard.do', { id, pageNum, pageSize: LEADERBOARD_PAGE_SIZE });
export const MY_COMPETITIONS_READ = read('GET /user/competition/mine.do', {});

export function competitionScreenReads(id: number | undefined): readonly StationRead[] {
  return id ? [competitionRead(id), leaderboardRead(id, 1)] : [];
}

/** The user's standing in competition `id` as a leaderboard row (mine.do), once they are ranked. */
export function ownRow(mine: readonly MyCompetition[] | undefined, id: number): LeaderboardRow | null {
  const entry = mine?.find((item) => item.competition.id === id && item.joined);
  if (!entry || entry.rank === null || entry.totalAssets === null || entry.returnPct === null) return null;
  return {
    rank: entry.rank,
    nickname: entry.nickname ?? '',
    totalAssets: entry.totalAssets,
    returnPct: entry.returnPct,
  };
}
