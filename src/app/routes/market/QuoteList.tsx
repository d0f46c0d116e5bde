import { memo, startTransition, useEffect, useRef, useState, type MouseEvent } from 'react';
import { useRouter } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { Quote, StockMarket } from '../../../shared/api/types';
import { formatMoney } from '../../../shared/format';
import { call } from '../../api/client';
import { useCall, usePages } from '../../api/use-call';
import { AsOfNote } from '../../components/ConnectionViews';
import { moveClass, PctText } from '../../components/PriceText';
import { Empty, ErrorState, Loading } from '../../components/StatusViews';
import { PRICE_REFRESH_MS, priceDigits } from './market-info';

const PAGE_STEP = 30;
/**
 * Rows of the first render: about a phone screen's worth. The rest follow in a later render (a transition),
 * so the page's first layout of the list, text shaping included, is not one long task.
 */
const FIRST_ROWS = 12;
/** API.md "Paging": at most 100 per page. */
const MAX_PAGE_SIZE = 100;

/** The orders a market list can be sorted in (getStock.do `sort`; a leading minus: descending). */
export type QuoteSort = 'changePct' | '-changePct' | 'turnover' | '-turnover' | 'price' | '-price';

/**
 * One market's quotes, refreshed while visible; a row opens the stock's detail. Scrolling to the end loads
 * more: the refreshed first window grows to 100 rows (API.md's page limit), then further pages of 100 are
 * appended (not refreshed: they are far below the fold).
 */
export function QuoteList({ market, sort }: { market: StockMarket; sort?: QuoteSort }) {
  const { LL } = useI18nContext();
  const [pageSize, setPageSize] = useState(PAGE_STEP);
  const [allRows, setAllRows] = useState(false);
  const quotes = useCall(
    'GET /api/stock/getStock.do',
    { market, pageNum: 1, pageSize, ...(sort ? { sort } : {}) },
    // Growing the window keeps the rows on screen (and the reader's place) until the bigger answer comes.
    { refreshMs: PRICE_REFRESH_MS, keepPrevious: true },
  );
  const [deeper, setDeeper] = useState(false);
  const further = usePages(deeper ? `${market}|${sort ?? ''}` : null, (pageNum, signal) =>
    call(
      'GET /api/stock/getStock.do',
      { market, pageNum: pageNum + 1, pageSize: MAX_PAGE_SIZE, ...(sort ? { sort } : {}) },
      { signal },
    ),
  );
  const sentinel = useRef<HTMLDivElement>(null);
  const canGrow = quotes.data !== undefined && quotes.data.list.length < quotes.data.total;
  const loadMore = () => {
    if (pageSize < MAX_PAGE_SIZE) setPageSize((size) => Math.min(MAX_PAGE_SIZE, size + PAGE_STEP));
    else if (!deeper) setDeeper(true);
    else if (further.hasMore) further.loadMore();
  };
  const loadMoreRef = useRef(loadMore);
  useEffect(() => {
    loadMoreRef.current = loadMore;
  });
  useEffect(() => {
    const node = sentinel.current;
    if (!node || typeof IntersectionObserver === 'undefined') return;
    // Infinite scroll: the end of the list coming into view loads the next rows.
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) loadMoreRef.current();
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, [allRows, canGrow]);

  const hasData = quotes.data !== undefined;
  useEffect(() => {
    if (!hasData || allRows) return;
    // After the first rows have been painted: a task of its own, then a render React may slice.
    const timer = setTimeout(() => startTransition(() => setAllRows(true)));
    return () => clearTimeout(timer);
  }, [hasData, allRows]);

  if (quotes.loading) return <Loading />;
  if (!quotes.data) return quotes.error ? <ErrorState error={quotes.error} onRetry={quotes.reload} /> : null;
  const { total } = quotes.data;
  const list =
    deeper && pageSize >= MAX_PAGE_SIZE ? [...quotes.data.list, ...further.items] : quotes.data.list;
  if (list.length === 0) return <Empty text={LL.market.empty()} />;

  return (
    <div className="quote-list" data-testid={`quote-list-${market}`}>
      <AsOfNote call="GET /api/stock/getStock.do" />
      <div className="quote-head" aria-hidden="true">
        <span>{LL.market.name()}</span>
        <span>{LL.market.price()}</span>
        <span>{LL.market.changePct()}</span>
      </div>
      <ul>
        {(allRows ? list : list.slice(0, FIRST_ROWS)).map((quote) => (
          <li key={quote.code}>
            <QuoteRow quote={quote} />
          </li>
        ))}
      </ul>
      {quotes.error && <p className="inline-error">{quotes.error.message}</p>}
      {further.error && <p className="inline-error">{further.error.message}</p>}
      {!allRows ? null : list.length < total ? (
        <div ref={sentinel}>
          <button type="button" className="button ghost block" data-testid="load-more" onClick={loadMore}>
            {further.loadingMore ? LL.common.loading() : LL.common.loadMore()}
          </button>
        </div>
      ) : (
        <p className="list-end">{LL.common.noMore()}</p>
      )}
    </div>
  );
}

/** A plain click: no modifier key, the main button (anything else keeps the browser's own link behaviour). */
function isPlainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

/**
 * One quote: a plain link to the detail screen rather than the router's <Link>, which subscribes every row
 * to the router's state (on a route change each row re-renders in the same task as the change). The detail
 * screen's code starts loading on pointer-down, focus or hover; the change itself renders as a transition.
 */
const QuoteRow = memo(QuoteRowView, (before, after) => sameRow(before.quote, after.quote));

/** What a row shows: a refresh that moves none of it re-renders nothing (most rows of a long list). */
function sameRow(a: Quote, b: Quote): boolean {
  return (
    a.code === b.code &&
    a.name === b.name &&
    a.market === b.market &&
    a.price === b.price &&
    a.change === b.change &&
    a.changePct === b.changePct
  );
}

function QuoteRowView({ quote }: { quote: Quote }) {
  const { locale } = useI18nContext();
  const router = useRouter();
  const search = { code: quote.code };
  // Each step runs in a task of its own, after the input event's: a tap's events stay short.
  const preload = () =>
    void setTimeout(() => void router.preloadRoute({ to: '/listdetail', search }).catch(() => undefined));
  const open = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!isPlainClick(event)) return;
    event.preventDefault();
    setTimeout(() => startTransition(() => void router.navigate({ to: '/listdetail', search })));
  };
  return (
    <a
      href={`/listdetail?code=${encodeURIComponent(quote.code)}`}
      className="quote-row"
      data-testid={`quote-row-${quote.code}`}
      onPointerDown={preload}
      onFocus={preload}
      onMouseEnter={preload}
      onClick={open}
    >
      <span className="quote-name">
        <strong>{quote.name}</strong>
        <small className="num">{quote.code}</small>
      </span>
      <span className={`num quote-price ${moveClass(quote.change)}`} data-value={String(quote.price)}>
        {formatMoney(quote.price, locale, priceDigits(quote.market, quote.price))}
      </span>
      <span className={`change-pill ${moveClass(quote.change)}`}>
        <PctText fraction={quote.changePct} />
      </span>
    </a>
  );
}
