/**
 * The trading side's routes (spec §2 "Route list"): the order screens and the positions, limit orders and
 * closed positions. Screens are code-split like the others; only the search readers load with the shell.
 */
import { createRoute, lazyRouteComponent, type StaticDataRouteOption } from '@tanstack/react-router';
import type { AppRootRoute } from '../route-tree';
import { screen } from '../route-meta';
import { prefetch } from '../route-prefetch';
import { competitionParam } from './competition-trading';

const str = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/**
 * `?code=`, an optional `direction=short` and `competition=` (the competition to trade in, a competition
 * detail's link: use-trading-account.ts) of the order screens.
 */
export const orderSearch = (
  search: Record<string, unknown>,
): { code: string; direction?: 'short'; competition?: string } => ({
  code: str(search.code),
  ...(str(search.direction) === 'short' ? { direction: 'short' as const } : {}),
  ...competitionParam(search),
});

/** `?code=` and `?kind=` of /inquiry (a price inquiry). */
export const inquirySearch = (search: Record<string, unknown>): { code?: string; kind?: string } => {
  const code = str(search.code);
  const kind = str(search.kind);
  return {
    ...(/^[A-Za-z0-9]{1,12}$/.test(code) ? { code } : {}),
    ...(kind === 'stock' || kind === 'index' || kind === 'futures' ? { kind } : {}),
  };
};

/**
 * `?tab=` of /warehouse (`state=closed` of earlier links still opens the closed tab) and `competition=`
 * (the competition whose positions to show).
 */
export const warehouseSearch = (
  search: Record<string, unknown>,
): { tab?: 'orders' | 'closed'; competition?: string } => {
  const tab = str(search.tab) || (str(search.state) === 'closed' ? 'closed' : '');
  return { ...(tab === 'orders' || tab === 'closed' ? { tab } : {}), ...competitionParam(search) };
};

/** `?id=` of a position. */
export const positionSearch = (search: Record<string, unknown>): { id?: string } => {
  const id = str(search.id);
  return /^\d{1,15}$/.test(id) ? { id } : {};
};

/** The instrument each order screen trades (BuyScreen.tsx). */
const ORDER_KINDS = {
  BuyScreen: 'stock',
  MarginBuyScreen: 'stock',
  IndexBuyScreen: 'index',
  FuturesBuyScreen: 'futures',
} as const;

export function tradeRoutes(root: AppRootRoute) {
  const order = <P extends string>(
    path: P,
    name: 'BuyScreen' | 'MarginBuyScreen' | 'IndexBuyScreen' | 'FuturesBuyScreen',
    staticData: StaticDataRouteOption,
  ) =>
    createRoute({
      getParentRoute: () => root,
      path,
      staticData,
      validateSearch: orderSearch,
      loaderDeps: ({ search: { code } }) => ({ code }),
      loader: ({ context, deps }) => prefetch(context, 'order', { kind: ORDER_KINDS[name], code: deps.code }),
      component: lazyRouteComponent(() => import('./BuyScreen'), name),
    });
  const list = <P extends string>(
    path: P,
    name: 'HoldStocksScreen' | 'HoldContractsScreen' | 'ClosedStocksScreen' | 'ClosedContractsScreen',
    staticData: StaticDataRouteOption,
  ) =>
    createRoute({
      getParentRoute: () => root,
      path,
      staticData,
      loader: ({ context }) =>
        prefetch(context, 'positions', { state: name.startsWith('Hold') ? 'open' : 'closed' }),
      component: lazyRouteComponent(() => import('./PositionsScreen'), name),
    });
  return [
    order('/buy', 'BuyScreen', screen(14, 'buy', 'session')),
    order('/TradingBuy', 'BuyScreen', screen(61, 'placeOrder', 'session')),
    order('/buyStocks', 'BuyScreen', screen(81, 'buyStocks', 'session')),
    order('/twoBuy', 'MarginBuyScreen', screen(30, 'marginBuy', 'session')),
    order('/indexBuy', 'IndexBuyScreen', screen(29, 'indexBuy', 'session')),
    order('/futuresBuy', 'FuturesBuyScreen', screen(32, 'futuresBuy', 'session')),
    createRoute({
      getParentRoute: () => root,
      path: '/warehouse',
      staticData: screen(35, 'warehouse', 'session', { header: 'title', tabBar: true }),
      validateSearch: warehouseSearch,
      loaderDeps: ({ search: { tab } }) => ({ tab }),
      loader: ({ context, deps }) => prefetch(context, 'warehouse', deps),
      component: lazyRouteComponent(() => import('./PositionsScreen'), 'PositionsScreen'),
    }),
    list('/holdorderlist', 'HoldStocksScreen', screen(36, 'holdOrders', 'session')),
    createRoute({
      getParentRoute: () => root,
      path: '/holdorderlist2',
      staticData: screen(37, 'holdOrders', 'session'),
      // `?applyId=`: the positions of a fund allocation's sub-account.
      validateSearch: (search: Record<string, unknown>): { applyId?: string } =>
        /^\d{1,15}$/.test(str(search.applyId)) ? { applyId: str(search.applyId) } : {},
      loaderDeps: ({ search: { applyId } }) => ({ applyId }),
      // A sub-account's positions read otherwise (SubAccountPositions.tsx); the plain list, the open positions.
      loader: ({ context, deps }) => {
        if (!deps.applyId) prefetch(context, 'positions', { state: 'open' });
      },
      component: lazyRouteComponent(() => import('./PositionsScreen'), 'HoldContractsScreen'),
    }),
    list('/sellorderlist', 'ClosedStocksScreen', screen(38, 'closedOrders', 'session')),
    list('/sellorderlist2', 'ClosedContractsScreen', screen(39, 'closedOrders', 'session')),
    createRoute({
      getParentRoute: () => root,
      path: '/detail',
      staticData: screen(40, 'orderDetail', 'session'),
      validateSearch: positionSearch,
      component: lazyRouteComponent(() => import('./PositionDetailScreen'), 'PositionDetailScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/sellStocks',
      staticData: screen(82, 'sellStocks', 'session'),
      validateSearch: positionSearch,
      component: lazyRouteComponent(() => import('./PositionDetailScreen'), 'SellScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/inquiry',
      staticData: screen(33, 'inquiry', 'session'),
      validateSearch: inquirySearch,
      component: lazyRouteComponent(() => import('./InquiryScreen'), 'InquiryScreen'),
    }),
  ];
}
