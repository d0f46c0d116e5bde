import { useEffect, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { Quote } from '../../../shared/api/types';
import { formatMoney } from '../../../shared/format';
import { useStationQuery } from '../../api/station-query';
import { AsOfNote } from '../../components/ConnectionViews';
import { MarketTag } from '../../components/MarketTag';
import { PctText, moveClass } from '../../components/PriceText';
import { Empty, ErrorState, Loading } from '../../components/StatusViews';
import { detailLink } from './detail-link';
import { priceDigits } from '../../components/market-info';
import { clearRecentSearches, readRecentSearches, rememberSearch } from './recent-searches';
import { WatchToggle } from './WatchToggle';
import './market.css';
import { useLoggedIn } from '../../state/use-logged-in';

type SearchScope = 'all' | 'index' | 'watch';

/** /searchlist, /searchStock: every market by code, name or pinyin initials, with recent searches. */
export function SearchScreen() {
  return <Search scope="all" />;
}
/** /indexsearchlist: indexes only. */
export function IndexSearchScreen() {
  return <Search scope="index" />;
}
/** /searchmylist: search to add to (or remove from) the watchlist. */
export function WatchSearchScreen() {
  return <Search scope="watch" />;
}

/** Waits this long after the last key before searching. */
const DEBOUNCE_MS = 250;

function Search({ scope }: { scope: SearchScope }) {
  const { LL } = useI18nContext();
  const [text, setText] = useState('');
  const [keyword, setKeyword] = useState('');
  const [recent, setRecent] = useState(readRecentSearches);
  useEffect(() => {
    const timer = setTimeout(() => setKeyword(text.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const results = useStationQuery('GET /api/realTime/findStock.do', keyword ? { keyword, limit: 30 } : null);
  const list = (results.data ?? []).filter((q) =>
    scope === 'index' ? q.market === 'index' : scope === 'watch' ? q.market !== 'index' : true,
  );

  let body;
  if (!keyword) {
    body = (
      <>
        {recent.length === 0 ? (
          <Empty text={LL.trading.searchHint()} />
        ) : (
          <section className="recent-searches" data-testid="recent-searches">
            <header>
              <h3>{LL.trading.recentSearches()}</h3>
              <button
                type="button"
                className="button small ghost"
                onClick={() => {
                  clearRecentSearches();
                  setRecent([]);
                }}
              >
                {LL.trading.clear()}
              </button>
            </header>
            <div className="chips">
              {recent.map((k) => (
                <button key={k} type="button" className="chip" onClick={() => setText(k)}>
                  {k}
                </button>
              ))}
            </div>
          </section>
        )}
        {scope !== 'index' && <HotSearches />}
      </>
    );
  } else if (results.loading) body = <Loading />;
  else if (!results.data)
    body = results.error ? <ErrorState error={results.error} onRetry={results.reload} /> : null;
  else if (list.length === 0) body = <Empty text={LL.trading.noResults()} />;
  else
    body = (
      <ul className="search-results" data-testid="search-results">
        <li className="quote-head" aria-hidden="true" data-testid="quote-head">
          <span>{LL.market.name()}</span>
          <span>{LL.market.price()}</span>
          <span>{scope === 'watch' ? '' : LL.market.changePct()}</span>
        </li>
        {list.map((quote) => (
          <li key={quote.code}>
            <SearchRow
              quote={quote}
              watch={scope === 'watch'}
              onOpen={() => setRecent(rememberSearch(keyword))}
            />
          </li>
        ))}
      </ul>
    );

  return (
    <div className="search-screen">
      <input
        type="search"
        className="search-input"
        data-testid="search-input"
        placeholder={LL.trading.searchPlaceholder()}
        aria-label={LL.trading.searchPlaceholder()}
        autoFocus
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      {keyword && results.data && <AsOfNote call="GET /api/realTime/findStock.do" />}
      {body}
    </div>
  );
}

function SearchRow({ quote, watch, onOpen }: { quote: Quote; watch: boolean; onOpen: () => void }) {
  const { locale } = useI18nContext();
  const loggedIn = useLoggedIn();
  const link = detailLink(quote.code, quote.market);
  const name = (
    <>
      <strong>{quote.name}</strong>
      <span className="code-line">
        <MarketTag code={quote.code} market={quote.market} />
        <small className="num">{quote.code}</small>
      </span>
    </>
  );
  const price = (
    <span className={`num quote-price ${moveClass(quote.change)}`}>
      {formatMoney(quote.price, locale, priceDigits(quote.market, quote.price, quote.code))}
    </span>
  );
  // Adding to the watchlist keeps its own button; otherwise the whole row opens the detail.
  if (watch && loggedIn) {
    return (
      <div className="quote-row search-row">
        <Link
          to={link.to}
          search={link.search}
          className="quote-name plain-link"
          data-testid={`search-row-${quote.code}`}
          onClick={onOpen}
        >
          {name}
        </Link>
        {price}
        <WatchToggle code={quote.code} market={quote.market} compact />
      </div>
    );
  }
  return (
    <Link
      to={link.to}
      search={link.search}
      className="quote-row search-row plain-link"
      data-testid={`search-row-${quote.code}`}
      onClick={onOpen}
    >
      <span className="quote-name">{name}</span>
      {price}
      <PctText fraction={quote.changePct} />
    </Link>
  );
}

/** How many of the most traded stocks the search screen offers before anything is typed. */
const HOT_SEARCHES = 8;

/** "Hot searches": the A-shares traded most today, as broker apps offer them before a search. */
function HotSearches() {
  const { LL } = useI18nContext();
  const hot = useStationQuery('GET /api/stock/getTop.do', {
    market: 'a',
    by: 'turnover',
    limit: HOT_SEARCHES,
  });
  if (!hot.data || hot.data.length === 0) return null;
  return (
    <section className="recent-searches" data-testid="hot-searches">
      <header>
        <h3>{LL.trading.hotSearches()}</h3>
      </header>
      <div className="chips">
        {hot.data.map((quote) => {
          const link = detailLink(quote.code, quote.market);
          return (
            <Link
              key={quote.code}
              to={link.to}
              search={link.search}
              className="chip plain-link"
              data-testid={`hot-search-${quote.code}`}
            >
              {quote.name}
            </Link>
          );
        })}
      </div>
    </section>
  );
}
