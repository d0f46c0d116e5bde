/**
 * The market side's routes (spec §2 "Route list"): the market lists, search, the details, the K-line, the
 * watchlist and the market boards; beside them the trading calendar. Screens are code-split; only the search
 * readers load with the shell.
 */
import { createRoute, lazyRouteComponent, type AnyRoute } from '@tanstack/react-router';
import type { AppPath } from '../route-table';
import type { QuoteSort } from './QuoteList';
import type { ListTab } from './TradingListScreen';

/** Paths these routes serve (router.tsx checks that the route table's every path has a route). */
export const MARKET_PATHS = [
  '/trading-list',
  '/hk-list',
  '/listdetail',
  '/listdetail2',
  '/kline',
  '/indexlist',
  '/indexsearchlist',
  '/searchlist',
  '/searchStock',
  '/searchmylist',
  '/MyList',
  '/mylist',
  '/DragonTiger',
  '/topTen',
  '/daylimit',
  '/stopRecovery',
  '/calendar',
] as const satisfies readonly AppPath[];

const str = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

const LIST_TABS: readonly ListTab[] = ['a', 'star', 'hk', 'us', 'index', 'futures'];
const SORTS: readonly QuoteSort[] = ['changePct', '-changePct', 'turnover', '-turnover', 'price', '-price'];

/** `?market=&sort=` of /trading-list. */
export const listSearch = (search: Record<string, unknown>): { market?: ListTab; sort?: QuoteSort } => {
  const market = str(search.market) as ListTab;
  const sort = str(search.sort) as QuoteSort;
  return { ...(LIST_TABS.includes(market) ? { market } : {}), ...(SORTS.includes(sort) ? { sort } : {}) };
};

/** `?code=` of the detail screens and the K-line. */
export const codeSearch = (search: Record<string, unknown>): { code: string } => ({ code: str(search.code) });

/** `?market=` of /calendar: the market whose section is brought into view. */
export const calendarSearch = (search: Record<string, unknown>): { market?: string } => {
  const market = str(search.market);
  return market ? { market } : {};
};

/** `?code=&market=` of /listdetail2 (an index unless it says futures) and /kline (a stock unless it says). */
export const contractSearch = (
  search: Record<string, unknown>,
): { code: string; market?: 'index' | 'futures' } => {
  const market = str(search.market);
  return { code: str(search.code), ...(market === 'index' || market === 'futures' ? { market } : {}) };
};

export function marketRoutes<R extends AnyRoute>(root: R) {
  const plain = <P extends string, M extends Record<string, unknown>>(
    path: P,
    load: () => Promise<M>,
    name: keyof M & string,
  ) =>
    createRoute({
      getParentRoute: () => root,
      path,
      component: lazyRouteComponent(load, name),
    });
  const search = () => import('./SearchScreen');
  const boards = () => import('./BoardsScreen');
  const watch = () => import('./WatchlistScreen');
  return [
    createRoute({
      getParentRoute: () => root,
      path: '/trading-list',
      validateSearch: listSearch,
      component: lazyRouteComponent(() => import('./TradingListScreen'), 'TradingListScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/hk-list',
      component: lazyRouteComponent(() => import('./HkListScreen'), 'HkListScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/listdetail',
      validateSearch: codeSearch,
      component: lazyRouteComponent(() => import('./StockDetailScreen'), 'StockDetailScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/listdetail2',
      validateSearch: contractSearch,
      component: lazyRouteComponent(() => import('./StockDetailScreen'), 'ContractDetailScreen'),
    }),
    // spec §2 route list: /kline?code= is the full-screen candle chart.
    createRoute({
      getParentRoute: () => root,
      path: '/kline',
      validateSearch: contractSearch,
      component: lazyRouteComponent(() => import('./KlineScreen'), 'KlineScreen'),
    }),
    plain('/indexlist', () => import('./TradingListScreen'), 'IndexListScreen'),
    plain('/indexsearchlist', search, 'IndexSearchScreen'),
    plain('/searchlist', search, 'SearchScreen'),
    plain('/searchStock', search, 'SearchScreen'),
    plain('/searchmylist', search, 'WatchSearchScreen'),
    plain('/MyList', watch, 'WatchlistScreen'),
    plain('/mylist', watch, 'WatchlistScreen'),
    plain('/DragonTiger', boards, 'DragonTigerScreen'),
    plain('/topTen', boards, 'TopTenScreen'),
    plain('/daylimit', boards, 'DayLimitScreen'),
    plain('/stopRecovery', boards, 'StopRecoveryScreen'),
    createRoute({
      getParentRoute: () => root,
      path: '/calendar',
      validateSearch: calendarSearch,
      component: lazyRouteComponent(() => import('./CalendarScreen'), 'CalendarScreen'),
    }),
  ];
}
