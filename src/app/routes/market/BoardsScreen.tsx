import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { StockMarket } from '../../../shared/api/types';
import { formatDateTime, formatMoney, formatPct } from '../../../shared/format';
import type { CallKey } from '../../../shared/api/calls';
import { useStationQuery, type StationQuery } from '../../api/station-query';
import { AsOfNote } from '../../components/ConnectionViews';
import { PctText, moveClass } from '../../components/PriceText';
import { Empty, ErrorState, Loading } from '../../components/StatusViews';
import { Tabs } from '../../components/Tabs';
import { detailLink } from './detail-link';
import { PRICE_REFRESH_MS, priceDigits } from '../../components/market-info';
import { PullToRefresh } from '../../components/PullToRefresh';
import './market.css';

/** How many of a market's stocks rise, fall and stay flat now (getZdfNumber.do). */
function MoveCountsBar({ market }: { market: StockMarket }) {
  const { LL } = useI18nContext();
  const counts = useStationQuery(
    'GET /api/stock/getZdfNumber.do',
    { market },
    { refetchInterval: PRICE_REFRESH_MS },
  );
  if (!counts.data) return null;
  const c = counts.data;
  return (
    <dl className="move-counts" data-testid="move-counts">
      <div className="up">
        <dt>{LL.trading.rising()}</dt>
        <dd className="num" data-testid="count-rising">
          {c.rising}
        </dd>
      </div>
      <div className="flat">
        <dt>{LL.trading.flat()}</dt>
        <dd className="num">{c.flat}</dd>
      </div>
      <div className="down">
        <dt>{LL.trading.falling()}</dt>
        <dd className="num" data-testid="count-falling">
          {c.falling}
        </dd>
      </div>
      <div className="up">
        <dt>{LL.detail.limitUp()}</dt>
        <dd className="num">{c.limitUp}</dd>
      </div>
      <div className="down">
        <dt>{LL.detail.limitDown()}</dt>
        <dd className="num">{c.limitDown}</dd>
      </div>
    </dl>
  );
}

/** Loading, error and empty of a board's list, around its rows; "as of" when `call`'s answer was stored. */
function Board<T>({
  state,
  call,
  render,
  testId,
}: {
  state: StationQuery<T[]>;
  call: CallKey;
  render: (item: T) => React.ReactNode;
  testId: string;
}) {
  const { LL } = useI18nContext();
  let body;
  if (state.loading) body = <Loading />;
  else if (!state.data) body = state.error ? <ErrorState error={state.error} onRetry={state.reload} /> : null;
  else if (state.data.length === 0) body = <Empty text={LL.market.empty()} />;
  else
    body = (
      <ul className="quote-list board-list" data-testid={testId}>
        {state.data.map(render)}
      </ul>
    );
  return (
    <PullToRefresh onRefresh={state.reload}>
      {state.data && <AsOfNote call={call} />}
      {body}
    </PullToRefresh>
  );
}

function Row({
  code,
  name,
  market,
  price,
  change,
  right,
}: {
  code: string;
  name: string;
  market: StockMarket;
  price: number;
  change: number;
  right: React.ReactNode;
}) {
  const { locale } = useI18nContext();
  const link = detailLink(code, market);
  return (
    <li>
      <Link to={link.to} search={link.search} className="quote-row plain-link">
        <span className="quote-name">
          <strong>{name}</strong>
          <small className="num">{code}</small>
        </span>
        <span className={`num quote-price ${moveClass(change)}`}>
          {formatMoney(price, locale, priceDigits(market, price))}
        </span>
        <span className="board-right">{right}</span>
      </Link>
    </li>
  );
}

/** /DragonTiger: the Dragon Tiger list of the last complete trading day, with its seats' net. */
export function DragonTigerScreen() {
  const { LL, locale } = useI18nContext();
  const lhb = useStationQuery('GET /api/stock/getlhb.do', {});
  const list: StationQuery<NonNullable<typeof lhb.data>['list']> = { ...lhb, data: lhb.data?.list };
  return (
    <div className="market-screen">
      <MoveCountsBar market="a" />
      {lhb.data && <p className="muted small board-date">{LL.trading.tradingDay({ date: lhb.data.date })}</p>}
      <Board
        state={list}
        call="GET /api/stock/getlhb.do"
        testId="board-lhb"
        render={(e) => (
          <Row
            key={e.code}
            code={e.code}
            name={e.name}
            market={e.market}
            price={e.close}
            change={e.changePct}
            right={
              <>
                <PctText fraction={e.changePct} />
                <small className={`num ${moveClass(e.net)}`}>
                  {LL.trading.netBuy()} {formatMoney(e.net / 10_000, locale)}
                  {LL.trading.tenThousand()}
                </small>
              </>
            }
          />
        )}
      />
    </div>
  );
}

type TopBy = 'gainers' | 'losers' | 'turnover';

/** /topTen: the ten biggest gainers, losers or turnover of the A-share market now. */
export function TopTenScreen() {
  const { LL, locale } = useI18nContext();
  const [by, setBy] = useState<TopBy>('gainers');
  const top = useStationQuery(
    'GET /api/stock/getTop.do',
    { market: 'a', by, limit: 10 },
    { refetchInterval: PRICE_REFRESH_MS },
  );
  return (
    <div className="market-screen">
      <MoveCountsBar market="a" />
      <Tabs
        items={[
          { key: 'gainers' as const, label: LL.trading.gainers(), testId: 'top-gainers' },
          { key: 'losers' as const, label: LL.trading.losers(), testId: 'top-losers' },
          { key: 'turnover' as const, label: LL.detail.turnover(), testId: 'top-turnover' },
        ]}
        value={by}
        label={LL.titles.topTen()}
        onChange={setBy}
      />
      <Board
        state={top}
        call="GET /api/stock/getTop.do"
        testId="board-top"
        render={(q) => (
          <Row
            key={q.code}
            code={q.code}
            name={q.name}
            market={q.market as StockMarket}
            price={q.price}
            change={q.change}
            right={
              by === 'turnover' ? (
                <small className="num">{formatMoney(q.turnover, locale, 0)}</small>
              ) : (
                <PctText fraction={q.changePct} />
              )
            }
          />
        )}
      />
    </div>
  );
}

/** /daylimit: the A-shares at their limit-up now, with when they first reached it. */
export function DayLimitScreen() {
  const { LL, locale } = useI18nContext();
  const ztb = useStationQuery(
    'GET /api/stock/getztb.do',
    { market: 'a' },
    { refetchInterval: PRICE_REFRESH_MS },
  );
  return (
    <div className="market-screen">
      <MoveCountsBar market="a" />
      <Board
        state={ztb}
        call="GET /api/stock/getztb.do"
        testId="board-limit"
        render={(e) => (
          <Row
            key={e.code}
            code={e.code}
            name={e.name}
            market={e.market}
            price={e.price}
            change={e.changePct}
            right={
              <>
                <span className="num up">{formatPct(e.changePct, locale)}</span>
                <small className="num muted">
                  {LL.trading.firstReached()} {formatDateTime(e.firstReached).slice(11, 16)}
                </small>
              </>
            }
          />
        )}
      />
    </div>
  );
}

/** /stopRecovery: A-shares suspended now, or resumed within the last five trading days. */
export function StopRecoveryScreen() {
  const { LL } = useI18nContext();
  const halts = useStationQuery('GET /api/stock/getStop.do', { market: 'a' });
  return (
    <div className="market-screen">
      <MoveCountsBar market="a" />
      <Board
        state={halts}
        call="GET /api/stock/getStop.do"
        testId="board-halts"
        render={(e) => (
          <Row
            key={e.code}
            code={e.code}
            name={e.name}
            market={e.market}
            price={e.price}
            change={e.price - e.prevClose}
            right={
              <small className="muted">
                {e.state === 'suspended' ? LL.detail.status.suspended() : LL.trading.resumed()} ·{' '}
                {LL.trading.days({ n: e.days })}
              </small>
            }
          />
        )}
      />
    </div>
  );
}
