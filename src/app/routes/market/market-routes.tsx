/**
 * The market side's routes (spec §2 "Route list"): the market lists, search, the details, the K-line, the
 * watchlist and the market boards; beside them the trading calendar. Screens are code-split; only the search
 * readers load with the shell.
 */
import { createRoute, lazyRouteComponent, type StaticDataRouteOption } from '@tanstack/react-router';
import { prefetch } from '../route-prefetch';
import type { AppRootRoute } from '../route-tree';
import { screen } from '../route-meta';
import type { QuoteSort } from './QuoteList';
import type { ListTab } from './TradingListScreen';
import { MARKETS } from '../../../shared/api/types';

const str = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

const LIST_TABS: readonly ListTab[] = MARKETS;
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

export function marketRoutes(root: AppRootRoute) {
  const plain = <P extends string, M extends Record<string, unknown>>(
    path: P,
    load: () => Promise<M>,
    name: keyof M & string,
    staticData: StaticDataRouteOption,
  ) =>
    createRoute({
      getParentRoute: () => root,
      path,
      staticData,
      component: lazyRouteComponent(load, name),
    });
  const search = () => import('./SearchScreen');
  const boards = () => import('./BoardsScreen');
  const watch = () => import('./WatchlistScreen');
  return [
    plain('/alerts', () => import('./AlertsScreen'), 'AlertsScreen', screen(94, 'priceAlerts', 'session')),
    createRoute({
      getParentRoute: () => root,
      path: '/trading-list',
      staticData: screen(19, 'tradingList', 'public', {
        header: 'title',
        tabBar: true,
        action: { icon: 'search', to: '/searchlist' },
      }),
      validateSearch: listSearch,
      loaderDeps: ({ search: { market, sort } }) => ({ market, sort }),
      loader: ({ context, deps }) => prefetch(context, 'marketList', deps),
      component: lazyRouteComponent(() => import('./TradingListScreen'), 'TradingListScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/hk-list',
      staticData: screen(20, 'hkList', 'public', {
        header: 'title',
        tabBar: true,
        action: { icon: 'search', to: '/searchlist' },
      }),
      loader: ({ context }) => prefetch(context, 'marketList', { market: 'hk' }),
      component: lazyRouteComponent(() => import('./HkListScreen'), 'HkListScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/listdetail',
      staticData: screen(27, 'listDetail', 'public'),
      validateSearch: codeSearch,
      loaderDeps: ({ search: { code } }) => ({ code }),
      loader: ({ context, deps }) => prefetch(context, 'stock', deps),
      component: lazyRouteComponent(() => import('./StockDetailScreen'), 'StockDetailScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/listdetail2',
      staticData: screen(28, 'indexDetail', 'public'),
      validateSearch: contractSearch,
      component: lazyRouteComponent(() => import('./StockDetailScreen'), 'ContractDetailScreen'),
    }),
    // spec §2 route list: /kline?code= is the full-screen candle chart.
    createRoute({
      getParentRoute: () => root,
      path: '/kline',
      staticData: screen(60, 'kline', 'public'),
      validateSearch: contractSearch,
      component: lazyRouteComponent(() => import('./KlineScreen'), 'KlineScreen'),
    }),
    plain(
      '/indexlist',
      () => import('./TradingListScreen'),
      'IndexListScreen',
      screen(22, 'indexList', 'public', { action: { icon: 'search', to: '/indexsearchlist' } }),
    ),
    plain('/indexsearchlist', search, 'IndexSearchScreen', screen(21, 'indexSearch', 'public')),
    plain('/searchlist', search, 'SearchScreen', screen(24, 'search', 'public')),
    plain('/searchStock', search, 'SearchScreen', screen(55, 'search', 'public')),
    plain('/searchmylist', search, 'WatchSearchScreen', screen(25, 'watchlistSearch', 'session')),
    createRoute({
      getParentRoute: () => root,
      path: '/MyList',
      staticData: screen(87, 'myList', 'public', {
        header: 'title',
        tabBar: true,
        action: { icon: 'search', to: '/searchmylist' },
      }),
      loader: ({ context }) => prefetch(context, 'watchlist', undefined),
      component: lazyRouteComponent(watch, 'WatchlistScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/mylist',
      staticData: screen(26, 'myList', 'session', { action: { icon: 'search', to: '/searchmylist' } }),
      loader: ({ context }) => prefetch(context, 'watchlist', undefined),
      component: lazyRouteComponent(watch, 'WatchlistScreen'),
    }),
    plain('/DragonTiger', boards, 'DragonTigerScreen', screen(3, 'dragonTiger', 'public')),
    plain('/topTen', boards, 'TopTenScreen', screen(4, 'topTen', 'public')),
    plain('/daylimit', boards, 'DayLimitScreen', screen(5, 'dayLimit', 'public')),
    plain('/stopRecovery', boards, 'StopRecoveryScreen', screen(6, 'stopRecovery', 'public')),
    createRoute({
      getParentRoute: () => root,
      path: '/calendar',
      staticData: screen(23, 'calendar', 'public'),
      validateSearch: calendarSearch,
      component: lazyRouteComponent(() => import('./CalendarScreen'), 'CalendarScreen'),
    }),
  ];
}
