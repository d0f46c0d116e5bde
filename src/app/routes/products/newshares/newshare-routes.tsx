/**
 * New-share and new-bond subscription routes (spec §2 "Route list"): the calendar, an issue's detail with its
 * verifiable draw, chip-grab placement, and the subscription and winning records. Screens are code-split;
 * only the search reader loads with the shell.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { AppRootRoute } from '../../route-tree';
import { screen } from '../../route-meta';

/** `?code=` of an issue: letters and digits only, else empty (the screen says it is not found). */
export function issueCodeSearch(search: Record<string, unknown>): { code: string } {
  const code = typeof search.code === 'string' ? search.code.trim() : '';
  return { code: /^[A-Za-z0-9]{1,12}$/.test(code) ? code : '' };
}

export function newShareRoutes(root: AppRootRoute) {
  const records = () => import('./SubscriptionRecordsScreens');
  return [
    createRoute({
      getParentRoute: () => root,
      path: '/Subscription',
      staticData: screen(7, 'subscription', 'session'),
      component: lazyRouteComponent(() => import('./SubscriptionScreen'), 'SubscriptionScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/newsharesDetail',
      staticData: screen(8, 'newSharesDetail', 'session'),
      validateSearch: issueCodeSearch,
      component: lazyRouteComponent(() => import('./NewShareDetailScreen'), 'NewShareDetailScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/qingchouDetail',
      staticData: screen(11, 'chipGrabDetail', 'session'),
      validateSearch: issueCodeSearch,
      component: lazyRouteComponent(() => import('./ChipGrabScreen'), 'ChipGrabScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/sharerecord',
      staticData: screen(9, 'subscriptionRecords', 'session'),
      component: lazyRouteComponent(records, 'SubscriptionRecordsScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/zhongqianrecord',
      staticData: screen(10, 'winningRecords', 'session'),
      component: lazyRouteComponent(records, 'WinningRecordsScreen'),
    }),
  ];
}
