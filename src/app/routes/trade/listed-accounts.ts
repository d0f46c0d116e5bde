import type { Competition } from '../../../shared/api/competitions';
import { USER_READ } from '../../api/reads';
import { useStationQuery } from '../../api/station-query';
import { PRICE_REFRESH_MS } from '../../components/market-info';
import { competitionAccountsRead } from './trade-reads';

/** The accounts the positions page reads: the user's own, or a competition's (accounts.do), polled. */
export function useListedAccounts(competition: Competition | null) {
  const poll = { refetchInterval: PRICE_REFRESH_MS };
  const user = useStationQuery(USER_READ.key, USER_READ.input, poll);
  const inCompetition = useStationQuery(
    'GET /user/competition/accounts.do',
    competition ? competitionAccountsRead(competition.id).input : null,
    poll,
  );
  return { user, competitionAccounts: competition ? inCompetition : null };
}
