import { useI18nContext } from '../../../../../locales/i18n-react';
import type { Competition } from '../../../../shared/api/competitions';
import { useMarketNames } from '../TradingAccountSwitcher';

/**
 * The order form under a competition that does not trade the instrument's market (a deep link, a search):
 * the station's own refusal, said before the user starts, and the markets it does trade. The form's action
 * is disabled meanwhile.
 */
export function CompetitionMarketLine({ competition }: { competition: Competition }) {
  const { LL } = useI18nContext();
  const marketNames = useMarketNames();
  return (
    <div className="readiness-line market-refused" role="alert" data-testid="competition-market-refused">
      <span className="readiness-dot" aria-hidden="true" />
      <div>
        <p>{LL.errors.COMPETITION_MARKET_NOT_ALLOWED()}</p>
        <p className="muted small">
          {LL.compTrade.marketNotAllowedHint({ markets: marketNames(competition) })}
        </p>
      </div>
    </div>
  );
}
