/**
 * The trading side's routes (spec §2 "Route list"): the order screens and the positions, limit orders and
 * closed positions. Screens are code-split like the others; only the search readers load with the shell.
 */
import { createRoute, lazyRouteComponent, type AnyRoute } from '@tanstack/react-router';
import type { AppPath } from '../route-table';

/** Paths these routes serve (router.tsx checks that the route table's every path has a route). */
export const TRADE_PATHS = [
  '/buy',
  '/TradingBuy',
  '/buyStocks',
  '/twoBuy',
  '/indexBuy',
  '/futuresBuy',
  '/warehouse',
  '/holdorderlist',
  '/holdorderlist2',
  '/sellorderlist',
  '/sellorderlist2',
  '/detail',
  '/sellStocks',
  '/inquiry',
] as const satisfies readonly AppPath[];

const str = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** `?code=` and an optional `direction=short` of the order screens. */
export const orderSearch = (search: Record<string, unknown>): { code: string; direction?: 'short' } => ({
  code: str(search.code),
  ...(str(search.direction) === 'short' ? { direction: 'short' as const } : {}),
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

/** `?tab=` of /warehouse (`state=closed` of earlier links still opens the closed tab). */
export const warehouseSearch = (search: Record<string, unknown>): { tab?: 'orders' | 'closed' } => {
  const tab = str(search.tab) || (str(search.state) === 'closed' ? 'closed' : '');
  return tab === 'orders' || tab === 'closed' ? { tab } : {};
};

/** `?id=` of a position. */
export const positionSearch = (search: Record<string, unknown>): { id?: string } => {
  const id = str(search.id);
  return /^\d{1,15}$/.test(id) ? { id } : {};
};

export function tradeRoutes<R extends AnyRoute>(root: R) {
  const order = <P extends string>(
    path: P,
    screen: 'BuyScreen' | 'MarginBuyScreen' | 'IndexBuyScreen' | 'FuturesBuyScreen',
  ) =>
    createRoute({
      getParentRoute: () => root,
      path,
      validateSearch: orderSearch,
      component: lazyRouteComponent(() => import('./BuyScreen'), screen),
    });
  const list = <P extends string>(
    path: P,
    screen: 'HoldStocksScreen' | 'HoldContractsScreen' | 'ClosedStocksScreen' | 'ClosedContractsScreen',
  ) =>
    createRoute({
      getParentRoute: () => root,
      path,
      component: lazyRouteComponent(() => import('./PositionsScreen'), screen),
    });
  return [
    order('/buy', 'BuyScreen'),
    order('/TradingBuy', 'BuyScreen'),
    order('/buyStocks', 'BuyScreen'),
    order('/twoBuy', 'MarginBuyScreen'),
    order('/indexBuy', 'IndexBuyScreen'),
    order('/futuresBuy', 'FuturesBuyScreen'),
    createRoute({
      getParentRoute: () => root,
      path: '/warehouse',
      validateSearch: warehouseSearch,
      component: lazyRouteComponent(() => import('./PositionsScreen'), 'PositionsScreen'),
    }),
    list('/holdorderlist', 'HoldStocksScreen'),
    createRoute({
      getParentRoute: () => root,
      path: '/holdorderlist2',
      // `?applyId=`: the positions of a fund allocation's sub-account.
      validateSearch: (search: Record<string, unknown>): { applyId?: string } =>
        /^\d{1,15}$/.test(str(search.applyId)) ? { applyId: str(search.applyId) } : {},
      component: lazyRouteComponent(() => import('./PositionsScreen'), 'HoldContractsScreen'),
    }),
    list('/sellorderlist', 'ClosedStocksScreen'),
    list('/sellorderlist2', 'ClosedContractsScreen'),
    createRoute({
      getParentRoute: () => root,
      path: '/detail',
      validateSearch: positionSearch,
      component: lazyRouteComponent(() => import('./PositionDetailScreen'), 'PositionDetailScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/sellStocks',
      validateSearch: positionSearch,
      component: lazyRouteComponent(() => import('./PositionDetailScreen'), 'SellScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/inquiry',
      validateSearch: inquirySearch,
      component: lazyRouteComponent(() => import('./InquiryScreen'), 'InquiryScreen'),
    }),
  ];
}
