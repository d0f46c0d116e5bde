/**
 * New-share and new-bond subscription routes (spec §2 "Route list"): the calendar, an issue's detail with its
 * verifiable draw, chip-grab placement, and the subscription and winning records. Screens are code-split;
 * only the search reader loads with the shell.
 */
import { createRoute, lazyRouteComponent, type AnyRoute } from '@tanstack/react-router';
import type { AppPath } from '../../route-table';

/** Paths these routes serve (router.tsx checks that the route table's every path has a route). */
export const NEWSHARE_PATHS = [
  '/Subscription',
  '/newsharesDetail',
  '/sharerecord',
  '/zhongqianrecord',
  '/qingchouDetail',
] as const satisfies readonly AppPath[];

/** `?code=` of an issue: letters and digits only, else empty (the screen says it is not found). */
export function issueCodeSearch(search: Record<string, unknown>): { code: string } {
  const code = typeof search.code === 'string' ? search.code.trim() : '';
  return { code: /^[A-Za-z0-9]{1,12}$/.test(code) ? code : '' };
}

export function newShareRoutes<R extends AnyRoute>(root: R) {
  const records = () => import('./SubscriptionRecordsScreens');
  return [
    createRoute({
      getParentRoute: () => root,
      path: '/Subscription',
      component: lazyRouteComponent(() => import('./SubscriptionScreen'), 'SubscriptionScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/newsharesDetail',
      validateSearch: issueCodeSearch,
      component: lazyRouteComponent(() => import('./NewShareDetailScreen'), 'NewShareDetailScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/qingchouDetail',
      validateSearch: issueCodeSearch,
      component: lazyRouteComponent(() => import('./ChipGrabScreen'), 'ChipGrabScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/sharerecord',
      component: lazyRouteComponent(records, 'SubscriptionRecordsScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/zhongqianrecord',
      component: lazyRouteComponent(records, 'WinningRecordsScreen'),
    }),
  ];
}
