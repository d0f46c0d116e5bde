import { Link } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { MyCompetition } from '../../../shared/api/competitions';
import { formatMoney } from '../../../shared/format';
import { useStationQuery } from '../../api/station-query';
import { AsOfNote } from '../../components/ConnectionViews';
import { LoggedOutPrompt } from '../../components/LoggedOutPrompt';
import { PctText } from '../../components/PriceText';
import { Empty, ErrorState, Loading } from '../../components/StatusViews';
import { useLoggedIn } from '../../state/use-logged-in';
import { MY_COMPETITIONS_READ } from './competition-reads';
import { JoinByCodeForm, periodText, StateBadge } from './CompetitionParts';
import '../../components/wallet.css';
import './competitions.css';

/** /myCompetitions: the competitions the user entered or created, with their standing in each. */
export function MyCompetitionsScreen() {
  const { LL } = useI18nContext();
  const loggedIn = useLoggedIn();
  if (!loggedIn) return <LoggedOutPrompt />;
  return (
    <div className="wallet-screen competitions-screen">
      <Link to="/competitionCreate" className="button primary block" data-testid="competition-create-link">
        {LL.competitions.create()}
      </Link>
      <AsOfNote call="GET /user/competition/mine.do" />
      <MyCompetitionList />
      <JoinByCodeForm />
    </div>
  );
}

function MyCompetitionList() {
  const { LL } = useI18nContext();
  const mine = useStationQuery(MY_COMPETITIONS_READ.key, MY_COMPETITIONS_READ.input);
  if (mine.loading) return <Loading />;
  if (!mine.data) return mine.error ? <ErrorState error={mine.error} onRetry={mine.reload} /> : <Loading />;
  if (mine.data.length === 0) return <Empty text={LL.competitions.emptyMine()} />;
  return (
    <ul className="record-list" data-testid="my-competitions">
      {mine.data.map((item) => (
        <MyCompetitionRow key={item.competition.id} item={item} />
      ))}
    </ul>
  );
}

function MyCompetitionRow({ item }: { item: MyCompetition }) {
  const { LL, locale } = useI18nContext();
  const { competition } = item;
  return (
    <li className="record">
      <Link
        to="/competition"
        search={{ id: competition.id }}
        className="record-link"
        data-testid="my-competition-row"
      >
        <span className="record-head">
          <strong className="competition-name">{competition.name}</strong>
          <StateBadge state={competition.state} />
        </span>
        <span className="record-meta num">{periodText(competition)}</span>
        {item.isCreator && (
          <span className="record-meta">
            <span>{LL.competitions.created()}</span>
            {competition.joinCode && (
              <span className="num">
                {LL.competitions.joinCode()} {competition.joinCode}
              </span>
            )}
          </span>
        )}
        {item.joined && (
          <span className="record-meta" data-testid="my-standing">
            <span>
              {item.nickname}
              {' · '}
              {item.rank === null ? LL.competitions.notRanked() : LL.competitions.rankOf({ rank: item.rank })}
            </span>
            {item.totalAssets !== null && item.returnPct !== null && (
              <span className="num">
                CNY {formatMoney(item.totalAssets, locale)} <PctText fraction={item.returnPct} />
              </span>
            )}
          </span>
        )}
      </Link>
    </li>
  );
}
