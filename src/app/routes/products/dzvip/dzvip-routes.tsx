/**
 * Block trades and VIP picks (spec §2 "Route list"): /sharerecordDz (today's offers, buying one, and the
 * user's block trades), /vipdetail (today's VIP allocations, or one with `?code=` and its purchase form) and
 * /VipSearchlist. Screens are code-split; only the search readers load with the shell.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { AppRootRoute } from '../../route-tree';
import { screen } from '../../route-meta';

const str = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** `?tab=records` of /sharerecordDz (the offers otherwise). */
export const blockTradeSearch = (search: Record<string, unknown>): { tab?: 'records' } =>
  str(search.tab) === 'records' ? { tab: 'records' } : {};

/** `?code=` of /vipdetail: one allocation; none: all of today's. */
export const vipSearch = (search: Record<string, unknown>): { code?: string } => {
  const code = str(search.code);
  return /^[A-Za-z0-9]{1,12}$/.test(code) ? { code } : {};
};

export function dzVipRoutes(root: AppRootRoute) {
  return [
    createRoute({
      getParentRoute: () => root,
      path: '/sharerecordDz',
      staticData: screen(85, 'blockTradeRecords', 'session'),
      validateSearch: blockTradeSearch,
      component: lazyRouteComponent(() => import('./BlockTradeScreen'), 'BlockTradeScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/vipdetail',
      staticData: screen(12, 'vipDetail', 'session', { action: { icon: 'search', to: '/VipSearchlist' } }),
      validateSearch: vipSearch,
      component: lazyRouteComponent(() => import('./VipScreens'), 'VipPicksScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/VipSearchlist',
      staticData: screen(86, 'vipSearch', 'session'),
      component: lazyRouteComponent(() => import('./VipScreens'), 'VipSearchScreen'),
    }),
  ];
}
