import { useState } from 'react';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { LeaderboardRow } from '../../../shared/api/competitions';
import { formatDateTime, formatMoney } from '../../../shared/format';
import { useLiveLeaderboard } from '../../api/live-leaderboard';
import { useStationQuery } from '../../api/station-query';
import { PctText } from '../../components/PriceText';
import { Empty, ErrorState, Loading } from '../../components/StatusViews';
import { leaderboardRead } from './competition-reads';

/** How often the page is asked for again while the ranking stream is not live. */
const POLL_WHILE_NOT_LIVE_MS = 15_000;

/**
 * A competition's leaderboard, a page at a time: rank, nickname, total assets in yuan and the return as a
 * percentage, with when the ranking was taken and "final" once it is frozen. The user's own row (mine.do's
 * standing) is pinned above the page, wherever they rank.
 */
export function Leaderboard({ id, own }: { id: number; own: LeaderboardRow | null }) {
  const { LL } = useI18nContext();
  const [pageNum, setPageNum] = useState(1);
  const page = leaderboardRead(id, pageNum);
  // The ranking stream marks this page stale at each new snapshot; while it is down, the page polls.
  const live = useLiveLeaderboard(id);
  const board = useStationQuery(page.key, page.input, {
    keepPrevious: true,
    ...(live ? {} : { refetchInterval: POLL_WHILE_NOT_LIVE_MS }),
  });
  const data = board.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  return (
    <section
      className="summary-card leaderboard"
      aria-labelledby="leaderboard-title"
      data-testid="leaderboard"
    >
      <div className="record-head">
        <h2 id="leaderboard-title" className="section-title">
          {LL.competitions.leaderboard()}
        </h2>
        {data?.frozen && (
          <span className="tag final-tag" data-testid="leaderboard-final">
            {LL.competitions.final()}
          </span>
        )}
      </div>
      {data && (
        <p className="muted small num" data-testid="leaderboard-taken-at">
          {data.takenAt === null
            ? LL.competitions.notRankedYet()
            : LL.competitions.takenAt({ time: formatDateTime(data.takenAt) })}
        </p>
      )}
      {own && <LeaderboardTable rows={[own]} caption={LL.competitions.yourRow()} testId="leaderboard-own" />}
      {board.loading ? (
        <Loading />
      ) : !data ? (
        board.error && <ErrorState error={board.error} onRetry={board.reload} />
      ) : data.list.length === 0 ? (
        <Empty text={LL.competitions.emptyLeaderboard()} />
      ) : (
        <LeaderboardTable
          rows={data.list}
          caption={LL.competitions.leaderboard()}
          testId="leaderboard-rows"
        />
      )}
      {data && pages > 1 && (
        <nav className="pager" aria-label={LL.competitions.pages()}>
          <button
            type="button"
            className="button ghost small"
            disabled={pageNum <= 1}
            onClick={() => setPageNum((n) => n - 1)}
            data-testid="leaderboard-previous"
          >
            {LL.competitions.previous()}
          </button>
          <span className="num" data-testid="leaderboard-page">
            {LL.competitions.page({ page: pageNum, pages })}
          </span>
          <button
            type="button"
            className="button ghost small"
            disabled={pageNum >= pages}
            onClick={() => setPageNum((n) => n + 1)}
            data-testid="leaderboard-next"
          >
            {LL.competitions.next()}
          </button>
        </nav>
      )}
    </section>
  );
}

function LeaderboardTable({
  rows,
  caption,
  testId,
}: {
  rows: readonly LeaderboardRow[];
  caption: string;
  testId: string;
}) {
  const { LL, locale } = useI18nContext();
  return (
    <table className="leaderboard-table" data-testid={testId}>
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{LL.competitions.rank()}</th>
          <th scope="col">{LL.competitions.nickname()}</th>
          <th scope="col" className="num-col">
            {LL.competitions.totalAssets()}
          </th>
          <th scope="col" className="num-col">
            {LL.competitions.returnPct()}
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={`${row.rank}-${row.nickname}`} data-testid="leaderboard-row">
            <td className="num">{row.rank}</td>
            <td className="nickname">{row.nickname}</td>
            <td className="num num-col">{formatMoney(row.totalAssets, locale)}</td>
            <td className="num-col">
              <PctText fraction={row.returnPct} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
