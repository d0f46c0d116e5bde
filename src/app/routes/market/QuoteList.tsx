import {
  memo,
  startTransition,
  useCallback,
  useDeferredValue,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type FocusEvent,
  type MouseEvent,
} from 'react';
import { useRouter } from '@tanstack/react-router';
import { useWindowVirtualizer, type Range } from '@tanstack/react-virtual';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { Quote, StockMarket } from '../../../shared/api/types';
import { formatMoney, formatPct } from '../../../shared/format';
import { call } from '../../api/client';
import { useCall, usePages } from '../../api/use-call';
import { AsOfNote } from '../../components/ConnectionViews';
import { moveClass } from '../../components/PriceText';
import { Empty, ErrorState, Loading } from '../../components/StatusViews';
import { PRICE_REFRESH_MS, priceDigits } from './market-info';
import './market.css';

const PAGE_STEP = 30;
/** API.md "Paging": at most 100 per page. */
const MAX_PAGE_SIZE = 100;
/**
 * Every row's height (px): the virtualiser places rows by it, and each row is given exactly this height
 * (market.css clips what would overflow), so the two cannot disagree.
 */
const ROW_HEIGHT = 58;
/** Rows kept in the page beyond each edge of the screen: a fast fling never reaches a row not yet there. */
const OVERSCAN = 10;
/** The rows in the page change by blocks of this many rows (see blockRange). */
const BLOCK = 8;
const rowHeight = () => ROW_HEIGHT;

/** The orders a market list can be sorted in (getStock.do `sort`; a leading minus: descending). */
export type QuoteSort = 'changePct' | '-changePct' | 'turnover' | '-turnover' | 'price' | '-price';

/**
 * One market's quotes, refreshed while visible; a row opens the stock's detail. Scrolling to the end loads
 * more: the refreshed first window grows to 100 rows (API.md's page limit), then further pages of 100 are
 * appended (not refreshed: they are far below the fold). Only the rows on screen are in the page
 * (CONVENTIONS: long lists are virtualised), so a refresh or a new page costs a screenful, not the list.
 */
export function QuoteList({ market, sort }: { market: StockMarket; sort?: QuoteSort }) {
  const { LL } = useI18nContext();
  const [pageSize, setPageSize] = useState(PAGE_STEP);
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
  const loadMore = () => {
    if (pageSize < MAX_PAGE_SIZE) setPageSize((size) => Math.min(MAX_PAGE_SIZE, size + PAGE_STEP));
    else if (!deeper) setDeeper(true);
    else if (further.hasMore) further.loadMore();
  };
  const loadMoreRef = useRef(loadMore);
  useEffect(() => {
    loadMoreRef.current = loadMore;
  });
  // Infinite scroll: the end of the list coming into view loads the next rows.
  const observeEnd = useCallback((node: HTMLDivElement | null) => {
    if (!node || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) loadMoreRef.current();
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, []);

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
      <QuoteRows quotes={list} total={total} />
      {quotes.error && <p className="inline-error">{quotes.error.message}</p>}
      {further.error && <p className="inline-error">{further.error.message}</p>}
      {list.length < total ? (
        <div ref={observeEnd}>
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

/**
 * Which rows are in the page: those on screen and OVERSCAN either side, widened to whole blocks of BLOCK
 * rows. The rows in the page then change once per block scrolled, not once per row: most frames of a fling
 * only move the page (the compositor's work), and a new block renders as a transition ahead of the screen.
 */
function blockRange(range: Range): number[] {
  if (range.count === 0) return [];
  const from = Math.floor(Math.max(0, range.startIndex - range.overscan) / BLOCK) * BLOCK;
  const to = Math.min(range.count, Math.ceil((range.endIndex + 1 + range.overscan) / BLOCK) * BLOCK);
  return Array.from({ length: to - from }, (_, i) => from + i);
}

/**
 * The rows near the screen of a list the window scrolls (the app's pages scroll the window, not an inner
 * element). The virtualiser re-renders this on every row scrolled; it only passes the block on to the rows.
 */
function QuoteRows({ quotes, total }: { quotes: Quote[]; total: number }) {
  const listRef = useRef<HTMLUListElement>(null);
  // Where the list starts in the page: the virtualiser works in the window's scroll offsets.
  const [listTop, setListTop] = useState(0);
  // The row with the keyboard focus stays in the page while it is scrolled away (Tab goes on from it).
  const [focused, setFocused] = useState<number | null>(null);
  const virtualizer = useWindowVirtualizer({
    count: quotes.length,
    estimateSize: rowHeight,
    overscan: OVERSCAN,
    scrollMargin: listTop,
    rangeExtractor: blockRange,
    // Nothing here needs a synchronous render inside the scroll event: the block changes rarely.
    useFlushSync: false,
    // The first render already fills the screen (else it renders one row, then the rest after measuring).
    ...(typeof window === 'undefined'
      ? {}
      : { initialRect: { width: window.innerWidth, height: window.innerHeight } }),
  });
  const items = virtualizer.getVirtualItems();
  const from = items[0]?.index ?? 0;
  const to = (items[items.length - 1]?.index ?? -1) + 1;

  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const measure = () => setListTop(list.getBoundingClientRect().top + window.scrollY);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    // Anything above the list that changes height (a banner, the as-of note) changes the body's height; the
    // observer runs after layout, so reading the position there costs no extra layout.
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);

  const onFocus = (event: FocusEvent<HTMLUListElement>) => {
    const index = Number(event.target.closest('li')?.dataset.index);
    setFocused(Number.isInteger(index) ? index : null);
  };

  return (
    <ul
      ref={listRef}
      className="quote-rows"
      style={{ height: quotes.length * ROW_HEIGHT }}
      onFocus={onFocus}
      onBlur={() => setFocused(null)}
    >
      <RowWindow quotes={quotes} total={total} from={from} to={to} focused={focused} />
    </ul>
  );
}

/**
 * The rows from..to (and the focused one), each at its place. A new block renders as a transition (React
 * slices it between frames); until it is done the previous block stays, and OVERSCAN rows keep the screen
 * covered meanwhile.
 */
const RowWindow = memo(function RowWindow(props: {
  quotes: Quote[];
  total: number;
  from: number;
  to: number;
  focused: number | null;
}) {
  const { quotes, total, focused } = props;
  const from = useDeferredValue(props.from);
  const to = Math.min(useDeferredValue(props.to), quotes.length);
  const indexes = Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
  if (focused !== null && focused < quotes.length && (focused < from || focused >= to)) {
    indexes.push(focused);
    indexes.sort((a, b) => a - b);
  }
  return indexes.map((index) => {
    const quote = quotes[index]!;
    return (
      <li
        key={quote.code}
        data-index={index}
        aria-posinset={index + 1}
        aria-setsize={total}
        style={{ top: index * ROW_HEIGHT, height: ROW_HEIGHT }}
      >
        <QuoteRow quote={quote} />
      </li>
    );
  });
});

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
      {/* The pill's own text (no inner span): one box less in each row laid out while scrolling. */}
      <span className={`num change-pill ${moveClass(quote.change)}`}>{formatPct(quote.changePct)}</span>
    </a>
  );
}
