/**
 * What the service worker does with each call of API.md (ARCHITECTURE "How data flows"), by method and
 * path. Plain data, so the rules are tested without a browser.
 */
import type { AnswerStore } from '../db/schema';
import { WATCHLIST_EDIT_PATHS, WATCHLIST_LIST_PATH, WATCHLIST_STATE_PATH } from './watchlist-edits';

export type ApiRoute =
  /** Market data: network first with a short timeout, then IndexedDB. */
  | { kind: 'network-first'; store: AnswerStore | 'config' }
  /** K-line bars: network first, bars merged per code, period and adjustment. */
  | { kind: 'kline'; family: string; day: boolean }
  /** News and articles: the stored answer at once, refreshed in the background. */
  | { kind: 'stale-while-revalidate'; store: AnswerStore }
  /** Watchlist edits (add, remove, reorder): sent now, or queued while offline and sent once back online. */
  | { kind: 'queue-offline' }
  /** The user's watchlist: network first, stored per user, the queued edits applied (watchlist.ts). */
  | { kind: 'watchlist' }
  /** Whether a code is watched: the network, else the stored watchlist with the queued edits. */
  | { kind: 'watch-state' }
  /** A read of the user's own (their competitions): network first, the answer stored per user (user-answers.ts). */
  | { kind: 'user-network-first' }
  /** The live streams (quotes, the user's messages): left to the browser (never cached or replayed). */
  | { kind: 'stream' }
  /** Everything else, every call that moves money among it: network only, never cached, queued or replayed. */
  | { kind: 'network-only'; mutation: boolean };

/** Paths that belong to the station's API (the same rule as the station's static plugin). */
export function isApiPath(pathname: string): boolean {
  return /^\/(api|user|code)\//.test(pathname);
}

const KLINE = /^\/api\/stock\/get(Index|Futures)?(DayK|MinK_Echarts)\.do$/;
const SINGLE_QUOTES = new Set([
  '/api/stock/getSingleStock.do',
  '/api/stock/getSingleStockByCode.do',
  '/api/stock/getVipByCode.do',
  '/api/index/querySingleIndex.do',
  '/api/futures/querySingleMarket.do',
]);
/** News outside /api/news/: the indexes' market reports and a stock's own news. */
const NEWS_PATHS = new Set([
  '/api/index/queryIndexNews.do',
  '/api/stock/getStockNews.do',
  '/api/stock/getStockNewsDetail.do',
]);
/** Lists of the user's own, read offline like the public ones but kept per user. */
const USER_LISTS = new Set(['/user/competition/mine.do']);
/** Settings the app reads at start: kept so the shell starts offline with the last ones. */
const CONFIG = /^\/api\/(admin\/get\w*Setting\.do|site\/(getInfo|getBannerByPlat|getVersion)\.do)$/;

export function classifyApiRequest(method: string, pathname: string): ApiRoute | null {
  if (!isApiPath(pathname)) return null;
  if (pathname.startsWith('/api/stream/') || pathname.startsWith('/user/stream/')) return { kind: 'stream' };
  if (method !== 'GET') {
    if (method === 'POST' && WATCHLIST_EDIT_PATHS.has(pathname)) return { kind: 'queue-offline' };
    return { kind: 'network-only', mutation: method !== 'HEAD' };
  }
  const kline = KLINE.exec(pathname);
  if (kline) {
    return { kind: 'kline', family: (kline[1] ?? 'Stock').toLowerCase(), day: kline[2] === 'DayK' };
  }
  if (SINGLE_QUOTES.has(pathname)) return { kind: 'network-first', store: 'quotes' };
  if (pathname === WATCHLIST_LIST_PATH) return { kind: 'watchlist' };
  if (pathname === WATCHLIST_STATE_PATH) return { kind: 'watch-state' };
  if (USER_LISTS.has(pathname)) return { kind: 'user-network-first' };
  if (/^\/api\/(news|notice)\//.test(pathname) || NEWS_PATHS.has(pathname)) {
    return { kind: 'stale-while-revalidate', store: 'news' };
  }
  if (pathname.startsWith('/api/art/') || pathname === '/api/site/getPage.do') {
    return { kind: 'stale-while-revalidate', store: 'articles' };
  }
  if (pathname === '/api/index/ping.do') return { kind: 'network-only', mutation: false };
  // Competitions' list, detail and leaderboard are public: the same for every reader, kept like market lists.
  if (/^\/api\/(stock|index|futures|realTime|competition)\//.test(pathname))
    return { kind: 'network-first', store: 'lists' };
  if (CONFIG.test(pathname) || pathname === '/api/site/exchange/rate') {
    return { kind: 'network-first', store: 'config' };
  }
  return { kind: 'network-only', mutation: false };
}

/**
 * The identity of a stored answer: the language (answers carry translated texts), the path and the query
 * parameters sorted, so the same call with its parameters in another order finds the same answer.
 */
export function answerKey(url: URL, language: string): string {
  const params: [string, string][] = [];
  url.searchParams.forEach((value, name) => params.push([name, value]));
  params.sort(([a, av], [b, bv]) => (a === b ? av.localeCompare(bv) : a.localeCompare(b)));
  const query = new URLSearchParams(params).toString();
  return `${language} ${url.pathname}${query ? `?${query}` : ''}`;
}
