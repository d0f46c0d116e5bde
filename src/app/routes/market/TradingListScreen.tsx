import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useSelector } from '@legendapp/state/react';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { Quote } from '../../../shared/api/types';
import { formatMoney } from '../../../shared/format';
import type { CallKey } from '../../../shared/api/calls';
import { useStationQuery } from '../../api/station-query';
import { AsOfNote } from '../../components/ConnectionViews';
import { MarketTag } from '../../components/MarketTag';
import { moveClass, PctText } from '../../components/PriceText';
import { Empty, ErrorState, Loading } from '../../components/StatusViews';
import { Tabs } from '../../components/Tabs';
import { displaySettings$ } from '../../state/display-settings';
import { calendarLink } from '../../components/calendar-link';
import { detailLink } from './detail-link';
import { PRICE_REFRESH_MS, priceDigits } from '../../components/market-info';
import { PullToRefresh } from '../../components/PullToRefresh';
import { QuoteList, type QuoteSort } from './QuoteList';
import './market.css';

const route = getRouteApi('/trading-list');

export type ListTab = 'a' | 'star' | 'hk' | 'us' | 'index' | 'futures';

/** /trading-list: the market with tabs A-share, STAR, HK, US, and indexes and futures where shown. */
export function TradingListScreen() {
  const { LL } = useI18nContext();
  const { market = 'a', sort } = route.useSearch();
  const navigate = useNavigate();
  // spec §3 display settings: the station can hide the A-share, STAR, index and futures areas.
  const { stockDisplay, kcStockDisplay, indexDisplay, futuresDisplay } = useSelector(displaySettings$);
  const allTabs: readonly { key: ListTab; label: string; testId: string; shown: boolean }[] = [
    { key: 'a', label: LL.market.tabA(), testId: 'market-tab-a', shown: stockDisplay },
    { key: 'star', label: LL.market.tabStar(), testId: 'market-tab-star', shown: kcStockDisplay },
    { key: 'hk', label: LL.market.tabHk(), testId: 'market-tab-hk', shown: true },
    { key: 'us', label: LL.market.tabUs(), testId: 'market-tab-us', shown: true },
    { key: 'index', label: LL.trading.tabIndex(), testId: 'market-tab-index', shown: indexDisplay },
    { key: 'futures', label: LL.trading.tabFutures(), testId: 'market-tab-futures', shown: futuresDisplay },
  ];
  const tabs = allTabs.filter((tab) => tab.shown);
  const shown = tabs.some((tab) => tab.key === market) ? market : (tabs[0]?.key ?? 'hk');
  // The index tab's own indexes span three exchanges; the A-share calendar is the one it opens on.
  const calendar = calendarLink(shown);
  const go = (next: { market: ListTab; sort?: QuoteSort }) =>
    void navigate({ to: '/trading-list', search: next, replace: true });
  const sorts: readonly { key: QuoteSort | 'none'; label: string }[] = [
    { key: 'none', label: LL.trading.sortDefault() },
    { key: '-changePct', label: LL.trading.sortChangeDown() },
    { key: 'changePct', label: LL.trading.sortChangeUp() },
    { key: '-price', label: LL.market.price() },
    { key: '-turnover', label: LL.detail.turnover() },
  ];
  return (
    <div className="market-screen">
      <Tabs
        items={tabs}
        value={shown}
        label={LL.titles.tradingList()}
        onChange={(next) => go({ market: next })}
      />
      <Link
        to={calendar.to}
        search={calendar.search}
        className="calendar-entry"
        data-testid="market-calendar-link"
      >
        {LL.calendar.link()}
      </Link>
      {shown === 'index' || shown === 'futures' ? (
        <ContractList kind={shown} />
      ) : (
        <>
          <div className="chips sort-chips" role="radiogroup" aria-label={LL.trading.sortBy()}>
            {sorts.map((s) => (
              <button
                key={s.key}
                type="button"
                role="radio"
                aria-checked={(sort ?? 'none') === s.key}
                className={(sort ?? 'none') === s.key ? 'chip selected' : 'chip'}
                data-testid={`sort-${s.key}`}
                onClick={() => go(s.key === 'none' ? { market: shown } : { market: shown, sort: s.key })}
              >
                {s.label}
              </button>
            ))}
          </div>
          <QuoteList key={`${shown}|${sort ?? ''}`} market={shown} {...(sort ? { sort } : {})} />
        </>
      )}
    </div>
  );
}

/** The index quotes (queryListIndex.do) or the futures main contracts (queryExchange.do) as one list. */
function ContractList({ kind }: { kind: 'index' | 'futures' }) {
  const indexes = useStationQuery('GET /api/index/queryListIndex.do', kind === 'index' ? {} : null, {
    refetchInterval: PRICE_REFRESH_MS,
  });
  const exchanges = useStationQuery('GET /api/futures/queryExchange.do', kind === 'futures' ? {} : null, {
    refetchInterval: PRICE_REFRESH_MS,
  });
  const state = kind === 'index' ? indexes : exchanges;
  const quotes: Quote[] | undefined =
    kind === 'index' ? indexes.data : exchanges.data?.flatMap((exchange) => exchange.products);
  return (
    <SimpleQuoteList
      quotes={quotes}
      loading={state.loading}
      error={state.error}
      reload={state.reload}
      testId={`quote-list-${kind}`}
      asOf={kind === 'index' ? 'GET /api/index/queryListIndex.do' : 'GET /api/futures/queryExchange.do'}
    />
  );
}

/** /indexlist: every index. */
export function IndexListScreen() {
  const indexes = useStationQuery(
    'GET /api/index/queryListIndex.do',
    {},
    { refetchInterval: PRICE_REFRESH_MS },
  );
  return (
    <div className="market-screen">
      <SimpleQuoteList
        quotes={indexes.data}
        loading={indexes.loading}
        error={indexes.error}
        reload={indexes.reload}
        testId="quote-list-index"
        asOf="GET /api/index/queryListIndex.do"
      />
    </div>
  );
}

export function SimpleQuoteList({
  quotes,
  loading,
  error,
  reload,
  testId,
  asOf,
}: {
  quotes: Quote[] | undefined;
  loading: boolean;
  error: Error | undefined;
  reload: () => void;
  testId: string;
  /** The call the quotes came from: "as of" when its answer was read from the device's store. */
  asOf?: CallKey;
}) {
  const { LL, locale } = useI18nContext();
  let body;
  if (loading) body = <Loading />;
  else if (!quotes) body = error ? <ErrorState error={error} onRetry={reload} /> : null;
  else if (quotes.length === 0) body = <Empty text={LL.market.empty()} />;
  else
    body = (
      <ul className="quote-list" data-testid={testId}>
        <li className="quote-head" aria-hidden="true" data-testid="quote-head">
          <span>{LL.market.name()}</span>
          <span>{LL.market.price()}</span>
          <span>{LL.market.changePct()}</span>
        </li>
        {quotes.map((quote) => {
          const link = detailLink(quote.code, quote.market);
          return (
            <li key={quote.code}>
              <Link
                to={link.to}
                search={link.search}
                className="quote-row plain-link"
                data-testid={`quote-row-${quote.code}`}
              >
                <span className="quote-name">
                  <strong>{quote.name}</strong>
                  <span className="code-line">
                    <MarketTag code={quote.code} market={quote.market} />
                    <small className="num">{quote.code}</small>
                  </span>
                </span>
                <span className={`num quote-price ${moveClass(quote.change)}`}>
                  {formatMoney(quote.price, locale, priceDigits(quote.market, quote.price, quote.code))}
                </span>
                <span className={`change-pill ${moveClass(quote.change)}`}>
                  <PctText fraction={quote.changePct} />
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    );
  return (
    <PullToRefresh onRefresh={reload}>
      {quotes && asOf && <AsOfNote call={asOf} />}
      {body}
    </PullToRefresh>
  );
}
