import { observable } from '@legendapp/state';
import { persistLocally } from './persist';
import { session$ } from './session';

/**
 * Which account the order form and the positions page trade in: the user's own paper accounts (null) or a
 * competition's accounts (its id). Kept for the tab's session (sessionStorage: a reload keeps it, a new tab
 * or visit starts in the user's own account, so nobody trades in a competition without having chosen it).
 * A change of session (login, logout) forgets the choice, since the competitions are the user's.
 */
export const tradingCompetition$ = observable<number | null>(null);
persistLocally(tradingCompetition$, 'tradingCompetition', { storage: 'session' });

export function chooseTradingCompetition(competitionId: number | null): void {
  tradingCompetition$.set(competitionId);
}

session$.token.onChange(() => tradingCompetition$.set(null));
