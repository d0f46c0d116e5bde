import { useEffect } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useSelector } from '@legendapp/state/react';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { Competition } from '../../../shared/api/competitions';
import type { ApiError } from '../../api/errors';
import { useStationQuery } from '../../api/station-query';
import { showAlert } from '../../state/alert';
import { chooseTradingCompetition, tradingCompetition$ } from '../../state/trading-account';
import { useLoggedIn } from '../../state/use-logged-in';
import { competitionParam, resolveChoice, tradableCompetitions } from './competition-trading';
import { MINE_READ } from './trade-reads';

/** The account the order form and the positions page trade in now, and the choices the switcher offers. */
export interface TradingAccount {
  /** The competition traded in; null for the user's own accounts. */
  competition: Competition | null;
  /** The competitionId every trading call and read carries (undefined: the user's own accounts). */
  competitionId: number | undefined;
  /** A competition is chosen and the user's competitions are still on their way: show a loading state. */
  pending: boolean;
  /** Why the user's competitions could not be read (the switcher says so). */
  error: ApiError | undefined;
  /** A competition is chosen and the user's competitions could not be read: the screen shows this error. */
  choiceError: ApiError | undefined;
  /** The running competitions the user entered. */
  choices: readonly Competition[];
  reload: () => void;
}

/**
 * The chosen trading account (state/trading-account.ts), resolved against the user's competitions
 * (mine.do). A `?competition=ID` in the URL chooses that competition (a competition's "trade in this
 * competition" link) and is then dropped from it, so the choice has one home. A chosen competition the user
 * cannot trade in now falls back to the own account, with an alert saying so.
 */
export function useTradingAccount(): TradingAccount {
  const { LL } = useI18nContext();
  const loggedIn = useLoggedIn();
  const chosen = useSelector(tradingCompetition$);
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const navigate = useNavigate();
  const linked = competitionParam(search).competition;
  useEffect(() => {
    if (linked === undefined) return;
    chooseTradingCompetition(Number(linked));
    void navigate({
      to: '.',
      search: (previous: Record<string, unknown>) => ({ ...previous, competition: undefined }),
      replace: true,
    } as Parameters<typeof navigate>[0]);
  }, [linked, navigate]);

  const mine = useStationQuery(MINE_READ.key, loggedIn ? MINE_READ.input : null);
  // The link's competition counts as chosen from the first render (the effect above writes it after).
  const wanted = linked !== undefined ? Number(linked) : chosen;
  const resolved = resolveChoice(wanted, mine.data);
  const unavailableId = resolved.kind === 'unavailable' ? resolved.competitionId : null;
  useEffect(() => {
    if (unavailableId === null) return;
    chooseTradingCompetition(null);
    showAlert(LL.compTrade.notAvailable({ id: unavailableId }));
  }, [unavailableId, LL]);

  const competition = resolved.kind === 'competition' ? resolved.competition : null;
  return {
    competition,
    competitionId: competition?.id,
    pending: resolved.kind === 'pending' && !mine.error,
    error: mine.error,
    choiceError: resolved.kind === 'pending' ? mine.error : undefined,
    choices: mine.data ? tradableCompetitions(mine.data) : [],
    reload: mine.reload,
  };
}
