/**
 * Block trades and VIP picks (spec §2 "Route list"): /sharerecordDz (today's offers, buying one, and the
 * user's block trades), /vipdetail (today's VIP allocations, or one with `?code=` and its purchase form) and
 * /VipSearchlist. Screens are code-split; only the search readers load with the shell.
 */
import { createRoute, lazyRouteComponent, type AnyRoute } from '@tanstack/react-router';
import type { AppPath } from '../../route-table';

/** Paths these routes serve (router.tsx checks that the route table's every path has a route). */
export const DZVIP_PATHS = [
  '/sharerecordDz',
  '/vipdetail',
  '/VipSearchlist',
] as const satisfies readonly AppPath[];

const str = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** `?tab=records` of /sharerecordDz (the offers otherwise). */
export const blockTradeSearch = (search: Record<string, unknown>): { tab?: 'records' } =>
  str(search.tab) === 'records' ? { tab: 'records' } : {};

/** `?code=` of /vipdetail: one allocation; none: all of today's. */
export const vipSearch = (search: Record<string, unknown>): { code?: string } => {
  const code = str(search.code);
  return /^[A-Za-z0-9]{1,12}$/.test(code) ? { code } : {};
};

export function dzVipRoutes<R extends AnyRoute>(root: R) {
  return [
    createRoute({
      getParentRoute: () => root,
      path: '/sharerecordDz',
      validateSearch: blockTradeSearch,
      component: lazyRouteComponent(() => import('./BlockTradeScreen'), 'BlockTradeScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/vipdetail',
      validateSearch: vipSearch,
      component: lazyRouteComponent(() => import('./VipScreens'), 'VipPicksScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/VipSearchlist',
      component: lazyRouteComponent(() => import('./VipScreens'), 'VipSearchScreen'),
    }),
  ];
}
