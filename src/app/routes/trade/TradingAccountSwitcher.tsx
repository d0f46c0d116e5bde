import { useId } from 'react';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { Competition } from '../../../shared/api/competitions';
import { chooseTradingCompetition } from '../../state/trading-account';
import type { TradingAccount } from './use-trading-account';

/** The competition's markets in the reader's language, joined for a sentence. */
export function useMarketNames(): (competition: Competition) => string {
  const { LL } = useI18nContext();
  return (competition) => competition.markets.map((m) => LL.compTrade.marketName[m]()).join(', ');
}

/**
 * "My account" or a running competition the user entered: the account the order form and the positions
 * page trade in. Shown only when there is a competition to choose (or the user's competitions could not be
 * read, which it says). Under a competition, its rules and that its trades never touch the user's own
 * accounts.
 */
export function TradingAccountSwitcher({ account }: { account: TradingAccount }) {
  const { LL } = useI18nContext();
  const id = useId();
  const marketNames = useMarketNames();
  const { competition, choices, error } = account;
  if (choices.length === 0 && !competition) {
    return error ? (
      <p className="account-switcher-note muted small" data-testid="account-switcher-failed">
        {LL.compTrade.competitionsFailed()}
      </p>
    ) : null;
  }
  return (
    <section className="account-switcher" data-testid="account-switcher">
      <label htmlFor={id} className="account-switcher-label">
        {LL.compTrade.switcherLabel()}
      </label>
      <select
        id={id}
        data-testid="account-switcher-select"
        value={competition ? String(competition.id) : ''}
        onChange={(event) =>
          chooseTradingCompetition(event.target.value === '' ? null : Number(event.target.value))
        }
      >
        <option value="">{LL.compTrade.myAccount()}</option>
        {choices.map((c) => (
          <option key={c.id} value={String(c.id)}>
            {LL.compTrade.competition({ name: c.name })}
          </option>
        ))}
      </select>
      {competition && (
        <div className="account-switcher-rules muted small" data-testid="competition-rules">
          <p>
            {LL.compTrade.rules({
              markets: marketNames(competition),
              max: competition.maxLeverage,
              shorts: competition.allowShort ? LL.compTrade.shortsAllowed() : LL.compTrade.shortsNotAllowed(),
            })}
          </p>
          <p>{LL.compTrade.separateNote()}</p>
        </div>
      )}
    </section>
  );
}
