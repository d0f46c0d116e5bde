import { lazy, Suspense } from 'react';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { Competition } from '../../../shared/api/competitions';
import { useStationQuery } from '../../api/station-query';
import { PRICE_REFRESH_MS } from '../../components/market-info';
import { Empty, ErrorState, Loading } from '../../components/StatusViews';
import { equityRead } from './trade-reads';

// The chart's code (and the worker it starts) loads only when a competition's curve is shown.
const EquityChart = lazy(() => import('../../chart/EquityChart').then((m) => ({ default: m.EquityChart })));

/** How often the curve is read again: today's point follows the station's live ranking. */
const EQUITY_REFRESH_MS = 6 * PRICE_REFRESH_MS;

/** The positions page under a competition: the user's daily equity curve in it, with its states. */
export function CompetitionEquity({ competition }: { competition: Competition }) {
  const { LL } = useI18nContext();
  const read = equityRead(competition.id);
  const equity = useStationQuery(read.key, read.input, { refetchInterval: EQUITY_REFRESH_MS });
  let body;
  if (equity.loading) body = <Loading label={LL.compTrade.equityLoading()} />;
  else if (!equity.data)
    body = equity.error ? <ErrorState error={equity.error} onRetry={equity.reload} /> : null;
  else if (equity.data.length === 0) body = <Empty text={LL.compTrade.equityEmpty()} />;
  else
    body = (
      <Suspense fallback={<Loading label={LL.compTrade.equityLoading()} />}>
        <EquityChart points={equity.data} name={competition.name} />
      </Suspense>
    );
  return (
    <section className="competition-equity" aria-labelledby="competition-equity-title" data-testid="equity">
      <h2 id="competition-equity-title" className="section-title">
        {LL.compTrade.equityTitle()}
      </h2>
      {body}
    </section>
  );
}
