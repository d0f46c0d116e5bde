/**
 * Funds and fund allocation (spec §2 "Route list"): /jijin (fund products and holdings), /funds (allocation
 * types), /days (applying), /fundslist (my allocations and the my-allocation view) and /subWarehouseBuy
 * (buying in the sub-account). The sub-account's positions are /holdorderlist2?applyId= (trade-routes.tsx).
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { AppRootRoute } from '../../route-tree';
import { screen } from '../../route-meta';

const str = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');
const digits = (value: unknown): string | undefined =>
  /^\d{1,15}$/.test(str(value)) ? str(value) : undefined;

/** `?code=` (a fund) and `?tab=holdings` of /jijin. */
export const fundSearch = (search: Record<string, unknown>): { code?: string; tab?: 'holdings' } => ({
  ...(/^\d{6}$/.test(str(search.code)) ? { code: str(search.code) } : {}),
  ...(str(search.tab) === 'holdings' ? { tab: 'holdings' as const } : {}),
});

/** `?type=` of /days. */
export const applySearch = (search: Record<string, unknown>): { type?: 'days' | 'months' } => {
  const type = str(search.type);
  return type === 'days' || type === 'months' ? { type } : {};
};

/** `?id=` of /fundslist (one allocation). */
export const allocationSearch = (search: Record<string, unknown>): { id?: string } => {
  const id = digits(search.id);
  return id ? { id } : {};
};

/** `?applyId=&code=` of /subWarehouseBuy. */
export const subBuySearch = (search: Record<string, unknown>): { applyId?: string; code?: string } => {
  const applyId = digits(search.applyId);
  const code = /^\d{6}$/.test(str(search.code)) ? str(search.code) : undefined;
  return { ...(applyId ? { applyId } : {}), ...(code ? { code } : {}) };
};

export function fundsRoutes(root: AppRootRoute) {
  const allocation = () => import('./AllocationScreens');
  return [
    createRoute({
      getParentRoute: () => root,
      path: '/jijin',
      staticData: screen(1, 'fundsMarket', 'public'),
      validateSearch: fundSearch,
      component: lazyRouteComponent(() => import('./FundsMarketScreen'), 'FundsMarketScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/funds',
      staticData: screen(53, 'allocation', 'session', { action: { icon: 'more', to: '/fundslist' } }),
      component: lazyRouteComponent(allocation, 'AllocationHomeScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/days',
      staticData: screen(54, 'dailyAllocation', 'session'),
      validateSearch: applySearch,
      component: lazyRouteComponent(allocation, 'AllocationApplyScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/fundslist',
      staticData: screen(57, 'myAllocation', 'session'),
      validateSearch: allocationSearch,
      component: lazyRouteComponent(allocation, 'MyAllocationsScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/subWarehouseBuy',
      staticData: screen(31, 'subAccountBuy', 'session'),
      validateSearch: subBuySearch,
      component: lazyRouteComponent(() => import('./SubAccountScreens'), 'SubAccountBuyScreen'),
    }),
  ];
}
