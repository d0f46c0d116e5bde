import {
  memo,
  startTransition,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type FocusEvent,
  type MouseEvent,
} from 'react';
import { flushSync } from 'react-dom';
import { useRouter } from '@tanstack/react-router';
import { Virtualizer, observeWindowOffset, observeWindowRect, windowScroll } from '@tanstack/react-virtual';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { Quote, StockMarket } from '../../../shared/api/types';
import { formatMoney, formatPct } from '../../../shared/format';
import { useStationPages, useStationQuery } from '../../api/station-query';
import { AsOfNote } from '../../components/ConnectionViews';
import { MarketTag } from '../../components/MarketTag';
import { moveClass, useMoveWord } from '../../components/PriceText';
import { Empty, ErrorState, Loading } from '../../components/StatusViews';
import { PRICE_REFRESH_MS, priceDigits } from '../../components/market-info';
import { mergeQuotePages } from './quote-pages';
import { coverSpan, nextSpan, targetSpan, type Span } from './row-span';
import { QUOTE_PAGE_STEP, quoteWindowRead } from './market-reads';
import './market.css';

/** API.md "Paging": at most 100 per page. */
const MAX_PAGE_SIZE = 100;
/**
 * Every row's height (px): the virtualiser places rows by it, and each row is given exactly this height
 * (market.css clips what would overflow), so the two cannot disagree.
 */
const ROW_HEIGHT = 58;
/**
 * Rows are built in chunks of this many: a chunk is one memoised piece of the list, so building one more
 * renders that chunk alone, whatever the length of the list in the page.
 */
const CHUNK = 2;
/** Idle time (ms) a slice waits for: a chunk's render and layout on a slow phone. */
const SLICE_MS = 8;
/**
 * Fewer chunks than this built ahead in the direction the list moves: the next chunk does not wait for idle
 * time (a fling leaves little of it) but is built right after the next frame is painted.
 */
const LOW = 6;
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
  const [pageSize, setPageSize] = useState(QUOTE_PAGE_STEP);
  const firstWindow = quoteWindowRead(market, pageSize, sort);
  const quotes = useStationQuery(
    firstWindow.key,
    firstWindow.input,
    // Growing the window keeps the rows on screen (and the reader's place) until the bigger answer comes.
    { refetchInterval: PRICE_REFRESH_MS, keepPrevious: true },
  );
  const [deeper, setDeeper] = useState(false);
  // The first MAX_PAGE_SIZE rows are the query above's; deeper pages continue from page 2.
  const further = useStationPages(
    'GET /api/stock/getStock.do',
    deeper ? { market, pageSize: MAX_PAGE_SIZE, sort } : null,
    { firstPage: 2 },
  );
  const loadMore = () => {
    if (pageSize < MAX_PAGE_SIZE) setPageSize((size) => Math.min(MAX_PAGE_SIZE, size + QUOTE_PAGE_STEP));
    else if (!deeper) setDeeper(true);
    else if (further.hasMore) further.loadMore();
  };
  const loadMoreRef = useRef(loadMore);
  useEffect(() => {
    loadMoreRef.current = loadMore;
  });
  // Infinite scroll: the end of the list coming into view loads the next rows. The end is watched afresh each
  // time rows arrive (a new observer reports at once whether it is in view): if it is still on screen, the next
  // rows load too, even when it came into view while the previous ones were still on their way.
  const arrived = (quotes.data?.list.length ?? 0) + (deeper ? further.items.length : 0);
  const observeEnd = useCallback(
    (node: HTMLDivElement | null) => {
      if (!node || typeof IntersectionObserver === 'undefined') return;
      // A screen ahead: the next rows are asked for while the reader still has a screen of rows to read, so
      // the end (under the tab bar, or just below the fold) is never where the list waits.
      const observer = new IntersectionObserver(
        (entries) => {
          if (entries.some((e) => e.isIntersecting)) loadMoreRef.current();
        },
        { rootMargin: '0px 0px 100% 0px' },
      );
      observer.observe(node);
      return () => observer.disconnect();
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new observer for each arrival of rows
    [arrived],
  );

  if (quotes.loading) return <Loading />;
  if (!quotes.data) return quotes.error ? <ErrorState error={quotes.error} onRetry={quotes.reload} /> : null;
  const { total } = quotes.data;
  const paged = deeper && pageSize >= MAX_PAGE_SIZE;
  const list = paged ? mergeQuotePages(quotes.data.list, further.items) : quotes.data.list;
  // Whether every row has been fetched is told by what the pages held, not by the rows shown (a stock that
  // moved between two pages of a sorted list is shown once).
  const fetched = quotes.data.list.length + (paged ? further.items.length : 0);
  if (list.length === 0) return <Empty text={LL.market.empty()} />;

  return (
    <div className="quote-list" data-testid={`quote-list-${market}`}>
      <AsOfNote call="GET /api/stock/getStock.do" />
      <div className="quote-head" aria-hidden="true">
        <span>{LL.market.name()}</span>
        <span>{LL.market.price()}</span>
        <span>{LL.market.changePct()}</span>
      </div>
      <QuoteRows quotes={list} total={fetched < total ? total : list.length} />
      {quotes.error && <p className="inline-error">{quotes.error.message}</p>}
      {further.error && <p className="inline-error">{further.error.message}</p>}
      {fetched < total ? (
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

type IdleHandle = { cancel(): void };
/**
 * Runs `work` in idle time with at least SLICE_MS left (or after a second at the latest), else a short timer
 * where the browser has no idle callbacks (Safari).
 */
function whenIdle(work: () => void): IdleHandle {
  if (typeof requestIdleCallback !== 'function') {
    const id = setTimeout(work, 16);
    return { cancel: () => clearTimeout(id) };
  }
  let id = 0;
  const waited = performance.now();
  const run = (deadline: IdleDeadline) => {
    if (deadline.timeRemaining() >= SLICE_MS || performance.now() - waited > 1000) work();
    else id = requestIdleCallback(run);
  };
  id = requestIdleCallback(run);
  return { cancel: () => cancelIdleCallback(id) };
}

/** Runs `work` in a task of its own right after the next frame is painted. */
function afterPaint(work: () => void): IdleHandle {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(work, 0);
  });
  return {
    cancel: () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    },
  };
}

/**
 * The library's window virtualiser (what `useWindowVirtualizer` wraps) without its re-render on every row
 * scrolled: it only tells `onChange` that the rows on screen moved. The options are renewed on each render and
 * the mount and update steps run as the library's React adapter runs them.
 */
function useWindowRows(
  count: number,
  scrollMargin: number,
  onChange: () => void,
): Virtualizer<Window, Element> {
  const changed = useRef(onChange);
  useLayoutEffect(() => {
    changed.current = onChange;
  });
  const options = {
    count,
    scrollMargin,
    estimateSize: rowHeight,
    overscan: 0,
    getScrollElement: () => (typeof window === 'undefined' ? null : window),
    observeElementRect: observeWindowRect,
    observeElementOffset: observeWindowOffset,
    scrollToFn: windowScroll,
    onChange: () => changed.current(),
    ...(typeof window === 'undefined'
      ? {}
      : { initialRect: { width: window.innerWidth, height: window.innerHeight } }),
  };
  const [virtualizer] = useState(() => new Virtualizer<Window, Element>(options));
  virtualizer.setOptions(options);
  useLayoutEffect(() => virtualizer._didMount(), [virtualizer]);
  useLayoutEffect(() => virtualizer._willUpdate());
  return virtualizer;
}

/** Where the built rows stand, for the builder's callbacks (they run outside React's renders). */
interface Builder {
  built: Span;
  chunks: number;
  /** The screen's first chunk at the last look, and whether the list moved down to it. */
  at: number;
  down: boolean;
  /** The slice waiting to run, and whether it waits for idle time or only for the next paint. */
  slice: { handle: IdleHandle; urgent: boolean } | null;
  /** Inside React's commit (the virtualiser's update step): a change of rows then needs no flushSync. */
  inReact: boolean;
}

/**
 * The rows near the screen of a list the window scrolls (the app's pages scroll the window, not an inner
 * element). The virtualiser says which rows are on screen; the page holds their chunks and up to AHEAD chunks
 * either side, built one by one in idle time, or right after a paint when a fling is about to reach the end of
 * what is built. Scrolling itself renders nothing; only when the screen reaches rows not built yet (a jump) are
 * its chunks rendered at once, in the scroll event.
 */
function QuoteRows({ quotes, total }: { quotes: Quote[]; total: number }) {
  const listRef = useRef<HTMLUListElement>(null);
  // Where the list starts in the page: the virtualiser works in the window's scroll offsets.
  const [listTop, setListTop] = useState(0);
  // The row with the keyboard focus stays in the page while it is scrolled away (Tab goes on from it).
  const [focused, setFocused] = useState<number | null>(null);
  const chunks = Math.ceil(quotes.length / CHUNK);
  const [built, setBuilt] = useState<Span>(() => ({
    from: 0,
    to: Math.min(
      chunks,
      Math.ceil((typeof window === 'undefined' ? 844 : window.innerHeight) / ROW_HEIGHT / CHUNK),
    ),
  }));
  const builder = useRef<Builder>({ built, chunks, at: 0, down: true, slice: null, inReact: false });

  const look = () => {
    const state = builder.current;
    // Worked out afresh: the length or the list's place may have changed since the last scroll.
    const range = virtualizer.calculateRange();
    if (!range) return;
    const screen = {
      from: Math.min(state.chunks, Math.floor(range.startIndex / CHUNK)),
      to: Math.min(state.chunks, Math.ceil((range.endIndex + 1) / CHUNK)),
    };
    if (screen.from !== state.at) state.down = screen.from > state.at;
    state.at = screen.from;
    const commit = (span: Span) => {
      state.built = span;
      if (state.inReact) setBuilt(span);
      else flushSync(() => setBuilt(span));
      // Laid out now, in this task, rather than in the next frame's.
      void listRef.current?.offsetHeight;
    };
    const now = {
      from: Math.min(state.built.from, state.chunks),
      to: Math.min(state.built.to, state.chunks),
    };
    const covered = coverSpan(now, screen);
    if (covered !== now || now.to !== state.built.to) {
      state.slice?.handle.cancel();
      state.slice = null;
      commit(covered);
    }
    const target = targetSpan(screen, state.chunks);
    const next = nextSpan(state.built, target, state.down);
    if (!next) return;
    const ahead = state.down ? state.built.to - screen.to : screen.from - state.built.from;
    const edge = state.down ? state.built.to >= state.chunks : state.built.from <= 0;
    const urgent = ahead < LOW && !edge && typeof requestAnimationFrame === 'function';
    if (state.slice && (state.slice.urgent || !urgent)) return;
    state.slice?.handle.cancel();
    state.slice = {
      urgent,
      handle: (urgent ? afterPaint : whenIdle)(() => {
        state.slice = null;
        // One chunk towards the target of when the slice was planned; look() then plans from where the
        // screen is now (and covers it at once if it has jumped).
        const step = nextSpan(state.built, target, state.down);
        if (step) commit(step);
        look();
      }),
    };
  };
  const virtualizer = useWindowRows(quotes.length, listTop, look);

  // On mount and with a new length (another page): the builder works on it from now on.
  const lookNow = useRef(look);
  useLayoutEffect(() => {
    lookNow.current = look;
  });
  useLayoutEffect(() => {
    const state = builder.current;
    state.chunks = chunks;
    state.inReact = true;
    try {
      lookNow.current();
    } finally {
      state.inReact = false;
    }
  }, [chunks]);
  useLayoutEffect(() => () => builder.current.slice?.handle.cancel(), []);

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
  const shown = { from: Math.min(built.from, chunks), to: Math.min(built.to, chunks) };
  // The chunk of the focused row stays (under the same key, so the same element keeps the focus).
  const focusedChunk = focused !== null && focused < quotes.length ? Math.floor(focused / CHUNK) : null;
  const chunkIndexes = Array.from({ length: shown.to - shown.from }, (_, i) => shown.from + i);
  if (focusedChunk !== null && (focusedChunk < shown.from || focusedChunk >= shown.to)) {
    if (focusedChunk < shown.from) chunkIndexes.unshift(focusedChunk);
    else chunkIndexes.push(focusedChunk);
  }

  return (
    <ul
      ref={listRef}
      className="quote-rows"
      style={{ height: quotes.length * ROW_HEIGHT }}
      onFocus={onFocus}
      onBlur={() => setFocused(null)}
    >
      {chunkIndexes.map((chunk) => (
        <RowChunk
          key={chunk}
          quotes={quotes}
          from={chunk * CHUNK}
          to={Math.min(quotes.length, (chunk + 1) * CHUNK)}
          total={total}
        />
      ))}
    </ul>
  );
}

/**
 * The rows from..to, each at its place. Memoised: a chunk renders again only when its own rows' data or its
 * bounds change, not when a neighbour is built or another page is refreshed.
 */
const RowChunk = memo(RowChunkView, (before, after) => {
  if (before.from !== after.from || before.to !== after.to || before.total !== after.total) return false;
  for (let index = after.from; index < after.to; index++)
    if (before.quotes[index] !== after.quotes[index]) return false;
  return true;
});

function RowChunkView(props: { quotes: Quote[]; from: number; to: number; total: number }) {
  const { quotes, from, to, total } = props;
  const rows = [];
  for (let index = from; index < to; index++) {
    const quote = quotes[index]!;
    rows.push(
      <li
        key={quote.code}
        data-index={index}
        aria-posinset={index + 1}
        aria-setsize={total}
        style={{ top: index * ROW_HEIGHT, height: ROW_HEIGHT }}
      >
        <QuoteRow quote={quote} />
      </li>,
    );
  }
  return rows;
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
  const moveWord = useMoveWord()(quote.change);
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
        <span className="code-line">
          <MarketTag code={quote.code} market={quote.market} />
          <small className="num">{quote.code}</small>
        </span>
      </span>
      <span className={`num quote-price ${moveClass(quote.change)}`} data-value={String(quote.price)}>
        {formatMoney(quote.price, locale, priceDigits(quote.market, quote.price, quote.code))}
      </span>
      {/* The pill's own text (no inner span): one box less in each row laid out while scrolling. */}
      <span
        className={`num change-pill ${moveClass(quote.change)} ${moveWord.className}`}
        data-move={moveWord['data-move']}
      >
        {formatPct(quote.changePct, locale)}
      </span>
    </a>
  );
}
