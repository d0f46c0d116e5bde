import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { CompetitionState } from '../../../shared/api/competitions';
import { useStationPages } from '../../api/station-query';
import { AsOfNote } from '../../components/ConnectionViews';
import { PagedList } from '../../components/record-parts';
import { Tabs } from '../../components/Tabs';
import { useLoggedIn } from '../../state/use-logged-in';
import { COMPETITION_STATES, competitionListInput } from './competition-reads';
import { CompetitionRow, JoinByCodeForm } from './CompetitionParts';
import '../../components/wallet.css';
import './competitions.css';

/**
 * /competitions: the public competitions by state (upcoming, running, ended), the way to create one, and
 * joining a private one with its code.
 */
export function CompetitionsScreen() {
  const { LL } = useI18nContext();
  const navigate = useNavigate();
  const loggedIn = useLoggedIn();
  const { state = 'upcoming' } = useSearch({ strict: false }) as { state?: CompetitionState };
  const pages = useStationPages('GET /api/competition/list.do', competitionListInput(state));
  return (
    <div className="wallet-screen competitions-screen">
      <div className="button-row">
        <Link
          to={loggedIn ? '/competitionCreate' : '/login'}
          className="button primary"
          data-testid="competition-create-link"
        >
          {LL.competitions.create()}
        </Link>
        <Link to="/myCompetitions" className="button secondary" data-testid="my-competitions-link">
          {LL.competitions.mine()}
        </Link>
      </div>
      <Tabs<CompetitionState>
        items={COMPETITION_STATES.map((key) => ({
          key,
          label: LL.competitions.state[key](),
          testId: `competitions-tab-${key}`,
        }))}
        value={state}
        label={LL.competitions.listLabel()}
        onChange={(key) => void navigate({ to: '/competitions', search: { state: key }, replace: true })}
      />
      <AsOfNote call="GET /api/competition/list.do" />
      <PagedList pages={pages} emptyText={LL.competitions.empty[state]()} testId="competition-list">
        {(competition) => <CompetitionRow key={competition.id} competition={competition} />}
      </PagedList>
      {loggedIn && <JoinByCodeForm />}
    </div>
  );
}
